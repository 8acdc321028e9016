/* Native baseline for bench/rootsig.ts and bench/digest.ts: vkd3d-shader's own C, driven over stdin
 * so the bench can interleave it in rounds with the JS contenders.
 *
 * Usage: vkd3d BLOBS DIGEST_CONTAINER
 *   BLOBS: root-signature containers, each as a little-endian u32 size then the bytes.
 *   DIGEST_CONTAINER: one container whose digest the "digest" command checks.
 * Commands (one per stdin line), each answered with one line:
 *   roundtrip REPS  REPS passes over every blob: vkd3d_shader_parse_root_signature (parses the
 *                   container, checks its digest, decodes RTS0) then
 *                   vkd3d_shader_serialize_root_signature (encodes RTS0, wraps it in a container with
 *                   its digest), then frees both; prints the elapsed nanoseconds.
 *   digest REPS     REPS parses of DIGEST_CONTAINER (the digest check dominates); elapsed ns.
 *   dump FILE       writes each blob's round-trip output to FILE (u32 size + bytes; size 0 when
 *                   vkd3d refused the blob); prints "ok".
 *   check FILE      1 when vkd3d parses the container in FILE (its digest is right), else 0. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vkd3d_shader.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static unsigned char *load(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(*size ? *size : 1);
  if (!p || fread(p, 1, *size, f) != *size) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
  fclose(f);
  return p;
}

static struct vkd3d_shader_code *blobs;
static size_t count;

/* One round trip; returns the serialized output (caller frees) or size 0 on failure. */
static int roundtrip(const struct vkd3d_shader_code *in, struct vkd3d_shader_code *out) {
  struct vkd3d_shader_versioned_root_signature_desc desc;
  memset(&desc, 0, sizeof desc);
  memset(out, 0, sizeof *out);
  if (vkd3d_shader_parse_root_signature(in, &desc, NULL) < 0) return 0;
  int ok = vkd3d_shader_serialize_root_signature(&desc, out, NULL) >= 0;
  vkd3d_shader_free_root_signature(&desc);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: vkd3d BLOBS DIGEST_CONTAINER\n"); return 2; }
  size_t size, digest_size;
  unsigned char *all = load(argv[1], &size);
  unsigned char *digest_container = load(argv[2], &digest_size);
  for (size_t at = 0; at + 4 <= size; count++) at += 4 + (all[at] | all[at + 1] << 8 | all[at + 2] << 16 | (size_t)all[at + 3] << 24);
  blobs = calloc(count ? count : 1, sizeof *blobs);
  for (size_t i = 0, at = 0; i < count; i++) {
    size_t n = all[at] | all[at + 1] << 8 | all[at + 2] << 16 | (size_t)all[at + 3] << 24;
    blobs[i].code = all + at + 4;
    blobs[i].size = n;
    at += 4 + n;
  }
  struct vkd3d_shader_code digest_code = { digest_container, digest_size };
  char line[4096];
  volatile size_t sink = 0;
  while (fgets(line, sizeof line, stdin)) {
    long reps = 0;
    char path[4000];
    if (sscanf(line, "roundtrip %ld", &reps) == 1) {
      double t = now_ns();
      for (long r = 0; r < reps; r++)
        for (size_t i = 0; i < count; i++) {
          struct vkd3d_shader_code out;
          if (roundtrip(&blobs[i], &out)) {
            sink += out.size;
            vkd3d_shader_free_shader_code(&out);
          }
        }
      printf("%.0f\n", now_ns() - t);
    } else if (sscanf(line, "digest %ld", &reps) == 1) {
      double t = now_ns();
      for (long r = 0; r < reps; r++) {
        struct vkd3d_shader_versioned_root_signature_desc desc;
        memset(&desc, 0, sizeof desc);
        if (vkd3d_shader_parse_root_signature(&digest_code, &desc, NULL) >= 0) {
          sink += desc.version;
          vkd3d_shader_free_root_signature(&desc);
        }
      }
      printf("%.0f\n", now_ns() - t);
    } else if (sscanf(line, "dump %3999s", path) == 1) {
      FILE *f = fopen(path, "wb");
      for (size_t i = 0; i < count; i++) {
        struct vkd3d_shader_code out;
        uint32_t n = 0;
        if (roundtrip(&blobs[i], &out)) n = (uint32_t)out.size;
        unsigned char len[4] = { n & 255, n >> 8 & 255, n >> 16 & 255, n >> 24 };
        fwrite(len, 1, 4, f);
        if (n) { fwrite(out.code, 1, n, f); vkd3d_shader_free_shader_code(&out); }
      }
      fclose(f);
      printf("ok\n");
    } else if (sscanf(line, "check %3999s", path) == 1) {
      size_t n;
      unsigned char *bytes = load(path, &n);
      struct vkd3d_shader_code code = { bytes, n };
      struct vkd3d_shader_versioned_root_signature_desc desc;
      memset(&desc, 0, sizeof desc);
      int ok = vkd3d_shader_parse_root_signature(&code, &desc, NULL) >= 0;
      if (ok) vkd3d_shader_free_root_signature(&desc);
      free(bytes);
      printf("%d\n", ok);
    } else {
      printf("?\n");
    }
    fflush(stdout);
  }
  return sink == 42 ? 1 : 0;
}
