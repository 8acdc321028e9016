/* Native baseline for bench/query.ts: the same two operations in C, compiled with gcc -O3.
 * Usage: query INPUT_DURATIONS INPUT_STATS PAIRS RECORDS
 * Prints one JSON line per case with the median of repeated runs. */
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

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *load(const char *path, size_t size) {
  FILE *f = fopen(path, "rb");
  void *p = aligned_alloc(64, size);
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

#define REPS 15
int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: query DURATIONS STATS PAIRS RECORDS\n"); return 2; }
  size_t pairs = strtoull(argv[3], 0, 10), records = strtoull(argv[4], 0, 10);
  uint64_t *ts = load(argv[1], pairs * 16);
  uint64_t *ps = load(argv[2], records * 88);
  uint64_t *ticks = aligned_alloc(64, pairs * 8);
  double *ns = aligned_alloc(64, pairs * 8);
  uint8_t *flags = aligned_alloc(64, pairs);
  uint64_t sums[11];
  double t[REPS];
  volatile uint64_t sink = 0;

  durations(ts, pairs, 1e9 / 24e6, ticks, ns, flags);
  for (int r = 0; r < REPS; r++) {
    double a = now_ns();
    durations(ts, pairs, 1e9 / 24e6, ticks, ns, flags);
    t[r] = now_ns() - a;
    sink += ticks[r];
  }
  qsort(t, REPS, sizeof t[0], cmp);
  printf("{\"case\": \"timestamp-durations\", \"impl\": \"native-c\", \"median_ns\": %.0f, \"bytes\": %zu}\n", t[REPS / 2], pairs * 16);

  sum_records(ps, records, 11, sums);
  for (int r = 0; r < REPS; r++) {
    double a = now_ns();
    sum_records(ps, records, 11, sums);
    t[r] = now_ns() - a;
    sink += sums[r % 11];
  }
  qsort(t, REPS, sizeof t[0], cmp);
  printf("{\"case\": \"pipeline-statistics-sum\", \"impl\": \"native-c\", \"median_ns\": %.0f, \"bytes\": %zu}\n", t[REPS / 2], records * 88);
  return sink == 42 ? 1 : 0;
}
