#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: the package built so 'dxbin/fuzz' resolves to dist/, then one
# Jazzer.js fuzzer per module in fuzz/jazzer/, with dxbin's dictionary and seed corpus.
npm ci --no-audit --no-fund
npm run build
node dist/cli.js fuzz all --export-dict > "$OUT/dxbin.dict"
node dist/cli.js fuzz all --export-seeds seeds
for module in fuzz/jazzer/*.mjs; do
  name=$(basename "$module" .mjs)
  compile_javascript_fuzzer dxbin "$module" --sync
  cp "$OUT/dxbin.dict" "$OUT/$name.dict"
  (cd "seeds/$name" && zip -q "$OUT/${name}_seed_corpus.zip" ./*)
done
