/**
 * Every dxbin command, one line each: to add a command, write its file (a `FileCommand` or
 * `OnceCommand`, see ../command.ts) and list it here. Groups (`rootsig`, `query`, `ddi`) come
 * from GROUPS in ../command.ts. The order is the order of `dxbin --help`.
 */
import type { CliCommand } from '../command.js';
import { batch } from './batch.js';
import { ddiDecode, ddiEncode, ddiLayout, ddiNodeOutputs, ddiValidate } from './ddi.js';
import { hash } from './hash.js';
import { inspect } from './inspect.js';
import { embed, extract, strip } from './parts.js';
import { fuzz } from './fuzz.js';
import { queryDecode, querySum, queryTimings } from './query.js';
import { rootsigCompile } from './rootsig-compile.js';
import { rootsigPreprocess } from './rootsig-preprocess.js';
import { rootsigConvert } from './rootsig-convert.js';
import { rootsigDecode } from './rootsig-decode.js';
import { rootsigDecompile } from './rootsig-decompile.js';
import { rootsigEncode } from './rootsig-encode.js';
import { rootsigValidate } from './rootsig-validate.js';
import { verify } from './verify.js';
import { rootsigSuggest } from './rootsig-suggest.js';
import { rootsigRecordLayout } from './rootsig-record-layout.js';
import { pipelineDecode, pipelineEncode } from './pipeline.js';

export const COMMANDS: readonly CliCommand[] = [
  inspect,
  verify,
  rootsigDecode,
  rootsigEncode,
  rootsigConvert,
  rootsigValidate,
  rootsigCompile,
  rootsigPreprocess,
  rootsigDecompile,
  rootsigSuggest,
  rootsigRecordLayout,
  queryDecode,
  queryTimings,
  querySum,
  ddiLayout,
  ddiDecode,
  ddiEncode,
  ddiValidate,
  ddiNodeOutputs,
  pipelineEncode,
  pipelineDecode,
  hash,
  extract,
  strip,
  embed,
  fuzz,
  batch,
];
