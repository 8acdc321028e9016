/* Native baseline for bench/query.ts: the same two operations in C (gcc -O3), driven over stdin so
 * the bench interleaves it in rounds with the JS contenders.
 * Usage: query STAMPS STATS PAIRS RECORDS
 * Commands (one per line), each answered with one line:
 *   durations REPS   REPS runs of the durations loop; elapsed ns
 *   sums REPS        REPS runs of the field-wise sums; elapsed ns
 *   dump DIR         writes DIR/ticks.bin, DIR/ns.bin, DIR/flags.bin, DIR/sums.bin; "ok" */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void *load(const char *path, size_t size) {
  FILE *f = fopen(path, "rb");
  void *p = aligned_alloc(64, size ? size : 64);
  if (!f || !p || fread(p, 1, size, f) != size) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
  fclose(f);
  return p;
}

static void durations(const uint64_t *src, size_t n, double scale, uint64_t *ticks, double *ns, uint8_t *flags) {
  for (size_t i = 0; i < n; i++) {
    uint64_t b = src[2 * i], e = src[2 * i + 1];
    uint8_t f = (b == 0 || e == 0) ? 1 : (e < b ? 2 : 0);
    uint64_t d = f ? 0 : e - b;
    ticks[i] = d;
    ns[i] = f ? __builtin_nan("") : (double)d * scale;
    flags[i] = f;
  }
}

static void sum_records(const uint64_t *src, size_t records, size_t fields, uint64_t *out) {
  for (size_t f = 0; f < fields; f++) out[f] = 0;
  for (size_t r = 0; r < records; r++)
    for (size_t f = 0; f < fields; f++) out[f] += src[r * fields + f];
}

static void save(const char *dir, const char *name, const void *p, size_t n) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: query STAMPS STATS PAIRS RECORDS\n"); return 2; }
  size_t pairs = strtoull(argv[3], 0, 10), records = strtoull(argv[4], 0, 10);
  uint64_t *ts = load(argv[1], pairs * 16);
  uint64_t *ps = load(argv[2], records * 88);
  uint64_t *ticks = aligned_alloc(64, pairs * 8 + 64);
  double *ns = aligned_alloc(64, pairs * 8 + 64);
  uint8_t *flags = aligned_alloc(64, pairs + 64);
  uint64_t sums[11];
  const double scale = 1e9 / 24e6;
  volatile uint64_t sink = 0;
  char line[4096], dir[4000];
  long reps;
  while (fgets(line, sizeof line, stdin)) {
    if (sscanf(line, "durations %ld", &reps) == 1) {
      double t = now_ns();
      for (long r = 0; r < reps; r++) { durations(ts, pairs, scale, ticks, ns, flags); sink += ticks[r % (pairs ? pairs : 1)]; }
      printf("%.0f\n", now_ns() - t);
    } else if (sscanf(line, "sums %ld", &reps) == 1) {
      double t = now_ns();
      for (long r = 0; r < reps; r++) { sum_records(ps, records, 11, sums); sink += sums[r % 11]; }
      printf("%.0f\n", now_ns() - t);
    } else if (sscanf(line, "dump %3999s", dir) == 1) {
      durations(ts, pairs, scale, ticks, ns, flags);
      sum_records(ps, records, 11, sums);
      save(dir, "ticks.bin", ticks, pairs * 8);
      save(dir, "ns.bin", ns, pairs * 8);
      save(dir, "flags.bin", flags, pairs);
      save(dir, "sums.bin", sums, sizeof sums);
      printf("ok\n");
    } else {
      printf("?\n");
    }
    fflush(stdout);
  }
  return sink == 42 ? 1 : 0;
}
