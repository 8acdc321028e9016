/** Coverage features of one run: counters in hit-count buckets, plus the shape of the answer. */

/** Hit-count buckets as libFuzzer uses them: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
const BUCKET = new Uint8Array(256).map((_, c) => (c >= 128 ? 7 : c >= 32 ? 6 : c >= 16 ? 5 : c >= 8 ? 4 : c >= 4 ? 3 : c === 3 ? 2 : c === 2 ? 1 : 0));

/** Coverage features (counter x bucket, plus a hash of the answer) of the last run; true when one is new. */
export class Features {
  private readonly seen: Uint8Array;
  private readonly answers = new Set<string>();
  count = 0;
  constructor(private readonly counters: Uint8Array) {
    this.seen = new Uint8Array(counters.length * 8);
  }
  /** Records the counters (and resets them) and the answer; true when anything was new. */
  record(answer: string): boolean {
    let fresh = false;
    const c = this.counters;
    for (let i = 0; i < c.length; i++) {
      const n = c[i]!;
      if (n === 0) continue;
      c[i] = 0;
      const f = i * 8 + BUCKET[n]!;
      if (this.seen[f] === 0) {
        this.seen[f] = 1;
        this.count++;
        fresh = true;
      }
    }
    if (!this.answers.has(answer) && this.answers.size < 4096) {
      this.answers.add(answer);
      this.count++;
      fresh = true;
    }
    return fresh;
  }
}

/** The answer's shape (dxbin error code and path without indices), a coverage feature when no counters exist. */
export function answerKey(e: unknown): string {
  const err = e as { code?: string; path?: string } | undefined;
  return err?.code ? `${err.code} ${String(err.path ?? '').replace(/\[\d+\]/g, '[]').replace(/:\d+:\d+$/, '')}` : 'ok';
}

