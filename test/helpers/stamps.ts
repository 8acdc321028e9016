/** Timestamp query buffers for the web inspector's tests. */
import { encodeQueryResults } from '../../src/query/index.js';

/** [begin, end] timestamp pairs: begin 1,000,000 + i*100 ticks, duration 10 + (i % 13) ticks. */
export function stamps(pairs: number): Uint8Array {
  const out = new BigUint64Array(pairs * 2);
  for (let i = 0; i < pairs; i++) {
    out[2 * i] = BigInt(1_000_000 + i * 100);
    out[2 * i + 1] = BigInt(1_000_000 + i * 100 + 10 + (i % 13));
  }
  return encodeQueryResults('timestamp', { Value: out as unknown as bigint[] });
}
