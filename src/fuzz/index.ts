/**
 * `dxbin/fuzz`: dxbin as a fuzz target and as a mutator that knows the formats
 * (docs/fuzzing.md). Targets with their oracles, the coverage-guided engine with shards and
 * merge, the mutators (`mutate(bytes, kind, seed)`), the dictionary and the seed corpus.
 *
 * @module dxbin/fuzz
 */
export { TARGETS, TARGET_NAMES, fuzzTarget, runOne, topFrame, FuzzOracleError, type FuzzTarget, type Outcome, type ResourceBounds } from './targets.js';
export { mutate, libFuzzerDictionary, DICTIONARY, INTERESTING_U32, MUTATION_KINDS, Random, type MutationKind } from './mutate.js';
export { seedInputs, SEED_ROOT_SIGNATURES } from './seeds.js';
export {
  runFuzz,
  mergeCorpora,
  schedule,
  minimize,
  shardOf,
  readCorpus,
  contentHash,
  type FuzzOptions,
  type FuzzSummary,
  type TargetSummary,
  type Finding,
  type Progress,
  type JobHandle,
  type ScheduleOptions,
} from './engine.js';
export { coverageBuild, type CoverageBuild } from './instrument.js';
export { parseShard, parseDuration } from './options.js';
export { jazzerTarget } from './jazzer.js';
export {
  runAgainst,
  reproduceAgainst,
  againstReport,
  AGAINST_TARGETS,
  KNOWN_CHOICES,
  type KnownChoice,
  type AgainstOptions,
  type AgainstSummary,
  type AgainstFinding,
} from './against.js';
export { parseAnswerText, descText, crashClass, type SideAnswer } from './answers.js';
export { OtherSide, buildVkd3dHarness, implCommand, nativeSourceDir, type BuiltHarness, type Hello, type SideReply } from './other-side.js';
