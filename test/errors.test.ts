/** Bad input gives a DecodeError / DescriptionError with exact text, offset, path and code. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Budget,
  LimitError,
  DecodeError,
  DescriptionError,
  HlslFile,
  computeContainerDigest,
  containerDigestMatches,
  describeConversionReport,
  digestSentinel,
  digestStatus,
  editedDigest,
  equalBytes,
  formatBinding,
  modifiedMd5,
  modifiedMd5Into,
  findPart,
  partDataOffset,
  printable,
  psv0ToJson,
  readDxbcProgram,
  readShader,
  rootSignatureIntervals,
  signContainer,
  toHex,
  verifyBindings,
  verifyRootSignature,
  withRootSignature,
  withoutPart,
  compileRootSignature,
  compileRootSignatureBlob,
  containerRootSignature,
  convertRootSignature,
  decodePsv0,
  decodeRootSignature,
  encodePsv0,
  encodeRootSignature,
  looksLikeContainer,
  modifiedMd5Batch,
  parseContainer,
  parseRootSignature,
  printRootSignature,
  printRootSignatureDefine,
  readRootSignature,
  rootSignatureContainer,
  rootSignatureFromJson,
  rootSignaturePart,
  rootSignatureToJson,
  readRootSignatureSource,
  shaderOf,
  summarizeRootSignature,
  validateRootSignature,
  writeContainer,
  writeEdited,
  formatProblem,
  formatViolation,
  type RootSignature,
} from '../src/index.js';
import { fuzzTarget, parseShard } from '../src/fuzz/index.js';
import { kernels, kernelsAvailable, type WasmKernels } from '../src/query/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';

function words(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const v = new DataView(out.buffer);
  values.forEach((x, i) => v.setUint32(i * 4, x >>> 0, true));
  return out;
}

function throwsExactly(fn: () => unknown, type: typeof DecodeError | typeof DescriptionError, message: string, fields: Record<string, unknown>) {
  try {
    fn();
  } catch (e) {
    assert.instance(e, type);
    assert.is((e as Error).message, message);
    for (const [k, v] of Object.entries(fields)) assert.is((e as unknown as Record<string, unknown>)[k], v, k);
    return;
  }
  assert.unreachable(`expected ${type.name}: ${message}`);
}

test('RTS0 shorter than its header', () => {
  throwsExactly(() => decodeRootSignature(words(1, 0, 24, 0, 24)), DecodeError, 'RTS0.header at byte 0: needs 24 bytes, only 20 left', { code: 'truncated', offset: 0, path: 'RTS0.header' });
});

test('unknown version', () => {
  throwsExactly(() => decodeRootSignature(words(4, 0, 24, 0, 24, 0)), DecodeError, 'RTS0.version at byte 0: unknown root signature version 4 (known: 1, 2, 3)', { code: 'unsupported-version' });
});

test('a parameter count larger than the bytes left is refused before allocating', () => {
  throwsExactly(
    () => decodeRootSignature(words(1, 0xffffffff, 24, 0, 24, 0)),
    DecodeError,
    'RTS0.parameters at byte 24: 4294967295 records of 12 bytes need 51539607540 bytes, only 0 left',
    { code: 'count-exceeds-data', offset: 24 },
  );
});

test('an offset past the end', () => {
  throwsExactly(() => decodeRootSignature(words(2, 0, 24, 0, 0x1000, 0)), DecodeError, 'RTS0.staticSamplers at byte 4096: offset 4096 is past the end (24 bytes)', {
    code: 'bad-offset',
    path: 'RTS0.staticSamplers',
  });
});

test('a range array running past the end names the table', () => {
  // one table at 36 with 2 ranges at 44, but only one range's bytes follow
  const blob = words(2, 1, 24, 0, 0, 0, 0, 0, 36, 2, 44, 0, 1, 0, 0, 0, 0);
  throwsExactly(() => decodeRootSignature(blob), DecodeError, 'RTS0.parameters[0].ranges at byte 44: 2 records of 24 bytes need 48 bytes, only 24 left', {
    code: 'count-exceeds-data',
  });
});

test('offsets inside a container are absolute; the path names parameter, range and field', () => {
  const part = words(2, 1, 24, 0, 60, 0, 0, 0, 36, 1, 44, 0, 1, 0, 0, 7);
  const container = rootSignatureContainer(part.subarray(0, 60));
  throwsExactly(() => readRootSignatureSource(container), DecodeError, 'RTS0.parameters[0].ranges at byte 88: 1 record of 24 bytes needs 24 bytes, only 16 left', {
    offset: 88,
  });
});

test('unknown parameter type', () => {
  throwsExactly(() => decodeRootSignature(words(1, 1, 24, 0, 36, 0, 5, 0, 36)), DecodeError, 'RTS0.parameters[0].parameterType at byte 24: unknown parameter type 5: its payload layout is not defined', {
    code: 'unknown-parameter-type',
  });
});

test('tables sharing one range array cannot blow up the description', () => {
  // 200 tables all pointing at one header of 40 ranges: 8000 ranges from a ~4 KiB part
  const params = 200;
  const rangesAt = 24 + params * 12 + 8;
  const values = [2, params, 24, 0, rangesAt + 40 * 24, 0];
  for (let i = 0; i < params; i++) values.push(0, 0, 24 + params * 12);
  values.push(40, rangesAt);
  for (let j = 0; j < 40; j++) values.push(0, 1, j, 0, 0, 0xffffffff);
  const blob = words(...values);
  try {
    decodeRootSignature(blob);
    assert.unreachable('expected limit-exceeded');
  } catch (e) {
    // the one work budget (8 x 3392 bytes): each range resolved costs its 24 bytes
    assert.instance(e, LimitError);
    assert.is((e as LimitError).code, 'limit-exceeded');
    assert.is((e as LimitError).kind, 'resolve');
    assert.is((e as LimitError).offset, 2432);
    assert.match((e as Error).message, /^RTS0\.parameters\[28\]\.ranges: more than maxResolved = 27136 elements/);
  }
  // the limit is the caller's: room for all 8000 ranges decodes them
  assert.is(decodeRootSignature(blob, { maxResolved: 8000 * 24 }).parameters.length, 200);
  // a caller's budget is the one charged: each range its 24 bytes, shared or not
  const budget = Budget.for(0, { maxResolved: 1e9 });
  decodeRootSignature(blob, { budget });
  assert.is(budget.used('resolve'), 8000 * 24);
});

test('container: bad magic, short header, size beyond the data, overlapping parts', () => {
  throwsExactly(() => parseContainer(new Uint8Array(40)), DecodeError, 'container.header.magic at byte 0: expected "DXBC", found 0x00000000', { code: 'bad-magic' });
  throwsExactly(() => parseContainer(new Uint8Array([0x44, 0x58, 0x42, 0x43])), DecodeError, 'container.header at byte 0: needs 32 bytes, only 4 left', { code: 'truncated' });
  const ok = rootSignatureContainer(encodeRootSignature({ version: 1, flags: 0, parameters: [], staticSamplers: [] }));
  const big = ok.slice();
  new DataView(big.buffer).setUint32(24, 1000, true);
  throwsExactly(() => parseContainer(big), DecodeError, 'container.header.containerSize at byte 24: declares 1000 bytes, the data has 68', { code: 'container-size' });
  const moved = ok.slice();
  new DataView(moved.buffer).setUint32(32, 40, true);
  throwsExactly(() => parseContainer(moved), DecodeError, 'container.partOffsets[0] at byte 32: part starts at 40, expected 36 (parts must be packed back to back)', {
    code: 'part-layout',
  });
  const manyParts = ok.slice();
  new DataView(manyParts.buffer).setUint32(28, 0x40000000, true);
  throwsExactly(() => parseContainer(manyParts), DecodeError, 'container.header.partOffsets at byte 32: 1073741824 records of 4 bytes need 4294967296 bytes, only 36 left', {
    code: 'count-exceeds-data',
  });
});

test('lenient mode accepts a gap before a part, as vkd3d writes', () => {
  const part = encodeRootSignature({ version: 1, flags: 0, parameters: [], staticSamplers: [] });
  const ok = rootSignatureContainer(part);
  const padded = new Uint8Array(ok.byteLength + 4);
  padded.set(ok.subarray(0, 36));
  padded.fill(0xab, 36, 40);
  padded.set(ok.subarray(36), 40);
  const v = new DataView(padded.buffer);
  v.setUint32(24, padded.byteLength, true);
  v.setUint32(32, 40, true);
  assert.throws(() => parseContainer(padded), (e: unknown) => e instanceof DecodeError && e.code === 'part-layout');
  const c = parseContainer(padded, { mode: 'lenient' });
  assert.is(c.layout.packed, false);
  assert.equal(c.parts[0]!.data, part);
});

test('container version, decided from DXC (IsValidDxilContainer): major 1 in both modes, any minor version', () => {
  const ok = rootSignatureContainer(encodeRootSignature({ version: 1, flags: 0, parameters: [], staticSamplers: [] }));
  const major2 = ok.slice();
  new DataView(major2.buffer).setUint16(20, 2, true);
  for (const mode of ['strict', 'lenient'] as const) {
    throwsExactly(() => parseContainer(major2, { mode }), DecodeError, 'container.header.majorVersion at byte 20: major version 2, expected 1', { code: 'unsupported-version' });
  }
  const minor7 = ok.slice();
  new DataView(minor7.buffer).setUint16(22, 7, true);
  for (const mode of ['strict', 'lenient'] as const) assert.is(parseContainer(minor7, { mode }).minorVersion, 7);
});

test('repeated part names: parsed in both modes, as DXC reads them; a lookup by the repeated name is refused as ambiguous (issue 26), never the first silently', () => {
  const a = encodeRootSignature({ version: 1, flags: 0, parameters: [], staticSamplers: [] });
  const b = encodeRootSignature({ version: 2, flags: 1, parameters: [], staticSamplers: [] });
  const twice = writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RTS0', data: a }, { name: 'RTS0', data: b }] }, 'compute');
  for (const mode of ['strict', 'lenient'] as const) {
    const c = parseContainer(twice, { mode });
    assert.is(c.parts.length, 2);
    throwsExactly(() => findPart(c, 'RTS0'), DecodeError, `container.parts[1].name at byte ${c.layout.partOffsets[1]}: parts 0 and 1 are both named "RTS0" (at bytes ${c.layout.partOffsets[0]} and ${c.layout.partOffsets[1]}): which one is meant is ambiguous (DXC's validator refuses a repeated part)`, { code: 'duplicate-part' });
    assert.is(findPart(c, 'SFI0'), undefined);
  }
});

test('descriptions: version 1.0 has no room for flags; JSON keys are checked', () => {
  throwsExactly(
    () => encodeRootSignature({ version: 1, flags: 0, parameters: [{ parameterType: 2, shaderVisibility: 0, descriptor: { shaderRegister: 0, registerSpace: 0, flags: 2 } }], staticSamplers: [] }),
    DescriptionError,
    'RTS0.parameters[0].descriptor.flags: flags 2 cannot be stored in a version 1.0 root signature',
    { code: 'not-representable' },
  );
  throwsExactly(() => rootSignatureFromJson({ version: '1.1', parameter: [] }), DescriptionError, '$.parameter: unknown key "parameter" (allowed: version, flags, parameters, staticSamplers)', {
    code: 'unknown-key',
  });
  throwsExactly(
    () => rootSignatureFromJson({ version: '1.1', parameters: [{ parameterType: 'CBV', shaderVisibility: 'PIXIL', descriptor: { shaderRegister: 0 } }] }),
    DescriptionError,
    '$.parameters[0].shaderVisibility: "PIXIL" is not a D3D12_SHADER_VISIBILITY name',
    { code: 'bad-name' },
  );
  throwsExactly(
    () => rootSignatureFromJson({ version: '1.0', parameters: [{ parameterType: 'SRV', descriptor: { shaderRegister: 0, flags: ['DATA_STATIC'] } }] }),
    DescriptionError,
    '$.parameters[0].descriptor.flags: this version stores no flags here; convert the root signature to a later version first',
    { code: 'not-representable' },
  );
  throwsExactly(() => rootSignatureFromJson({ version: '2.0' }), DescriptionError, '$.version: expected "1.0", "1.1" or "1.2", got "2.0"', { code: 'out-of-range' });
});

test('the encoder hang of a parameters object is a DescriptionError at once', () => {
  const bad = { version: 2, flags: 0, parameters: {}, staticSamplers: [] } as unknown as RootSignature;
  throwsExactly(() => encodeRootSignature(bad), DescriptionError, 'RTS0.parameters: expected an array', { code: 'bad-type', path: 'RTS0.parameters', detail: 'expected an array' });
});

test('the encoder refuses a version that is no version row: 0, 4, -1, 1.5, NaN, 2^32, "2", none', () => {
  for (const version of [0, 4, -1, -0, 1.5, NaN, Infinity, 2 ** 32, '2', undefined]) {
    const rs = { version, flags: 0, parameters: [], staticSamplers: [] } as unknown as RootSignature;
    throwsExactly(() => encodeRootSignature(rs), DescriptionError, `RTS0.version: unknown root signature version ${String(version)} (known: 1, 2, 3)`, { code: 'out-of-range' });
  }
});

test('the typed encoder takes numbers only; "0x3" is the JSON layer\'s spelling', () => {
  const rs = (flags: unknown) => ({ version: 2, flags, parameters: [], staticSamplers: [] }) as unknown as RootSignature;
  throwsExactly(() => encodeRootSignature(rs('0x3')), DescriptionError, 'RTS0.flags: expected an unsigned 32-bit integer, got "0x3"', { code: 'bad-type' });
  throwsExactly(() => encodeRootSignature(rs(3n)), DescriptionError, 'RTS0.flags: expected an unsigned 32-bit integer, got 3n', { code: 'bad-type' });
  throwsExactly(() => encodeRootSignature(rs(2 ** 32)), DescriptionError, 'RTS0.flags: 4294967296 does not fit in 32 bits', { code: 'out-of-range' });
  const fromJson = rootSignatureFromJson({ version: '1.1', parameters: [{ parameterType: '32BIT_CONSTANTS', constants: { shaderRegister: '0x3', num32BitValues: 1 } }] });
  assert.equal(fromJson.parameters[0], { parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: 3, registerSpace: 0, num32BitValues: 1 } });
});

test('container writer: bad part names and digests are DescriptionErrors, not RangeErrors', () => {
  const part = encodeRootSignature({ version: 1, flags: 0, parameters: [], staticSamplers: [] });
  const container = { digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RTS', data: part }] };
  throwsExactly(() => writeContainer(container), DescriptionError, 'container.parts[0].name: a FourCC has 4 characters, got "RTS"', { code: 'bad-name' });
  throwsExactly(() => rootSignatureContainer(part, new Uint8Array(3)), DescriptionError, 'digest: a digest has 16 bytes, got 3', { code: 'out-of-range' });
});

// ---------------------------------------------------------------- wrong types and unknown versions at every public entry

const EMPTY = (version: unknown) => ({ version, flags: 0, parameters: [], staticSamplers: [] }) as unknown as RootSignature;
/** Every public function that takes a typed description, as one call. */
const DESCRIPTION_TAKERS: [string, (rs: RootSignature) => unknown][] = [
  ['encodeRootSignature', (rs) => encodeRootSignature(rs)],
  ['validateRootSignature', (rs) => validateRootSignature(rs, { target: 'all' })],
  ['rootSignatureToJson', (rs) => rootSignatureToJson(rs)],
  ['summarizeRootSignature', (rs) => summarizeRootSignature(rs)],
  ['printRootSignature', (rs) => printRootSignature(rs)],
  ['printRootSignatureDefine', (rs) => printRootSignatureDefine('RS', rs)],
  ['convertRootSignature', (rs) => convertRootSignature(rs, 2)],
];

test('a description whose version is no version row: out-of-range at RTS0.version from every function that takes one', () => {
  for (const version of [7, 0, 4, -1, 1.5, NaN, 2 ** 32, '2', null, undefined]) {
    for (const [, call] of DESCRIPTION_TAKERS) {
      throwsExactly(() => call(EMPTY(version)), DescriptionError, `RTS0.version: unknown root signature version ${String(version)} (known: 1, 2, 3)`, { code: 'out-of-range', path: 'RTS0.version' });
    }
  }
});

test('parse and compile options: a version that is no version row is out-of-range at options.version', () => {
  for (const version of [7, 0, '1.1']) {
    const options = { version } as unknown as { version: 1 };
    const message = `options.version: unknown root signature version ${String(version)} (known: 1, 2, 3)`;
    throwsExactly(() => parseRootSignature('CBV(b0)', options), DescriptionError, message, { code: 'out-of-range', path: 'options.version' });
    throwsExactly(() => compileRootSignature('CBV(b0)', options), DescriptionError, message, { code: 'out-of-range', path: 'options.version' });
    throwsExactly(() => compileRootSignatureBlob('CBV(b0)', options), DescriptionError, message, { code: 'out-of-range', path: 'options.version' });
  }
  throwsExactly(() => parseRootSignature(null as unknown as string), DescriptionError, 'source: expected root signature text, got null', { code: 'bad-type', path: 'source' });
  throwsExactly(() => compileRootSignature(42 as unknown as string), DescriptionError, 'source: expected root signature text, got a number', { code: 'bad-type' });
  throwsExactly(() => new HlslFile(undefined as unknown as string, 'x.hlsl'), DescriptionError, 'text: expected the file\'s text, got undefined', { code: 'bad-type', path: 'text' });
});

test('a description that is not an object, or holds the wrong types, is bad-type naming the field', () => {
  const kinds: [unknown, string][] = [[null, 'null'], [undefined, 'undefined'], [5, 'a number'], ['{}', 'a string'], [[], 'an array']];
  for (const [value, kind] of kinds) {
    for (const [, call] of DESCRIPTION_TAKERS) throwsExactly(() => call(value as RootSignature), DescriptionError, `RTS0: expected an object, got ${kind}`, { code: 'bad-type', path: 'RTS0' });
  }
  const rs = (parameters: unknown[], staticSamplers: unknown[] = []) => ({ version: 2, flags: 0, parameters, staticSamplers }) as unknown as RootSignature;
  const notEncoder = DESCRIPTION_TAKERS.slice(1);
  for (const [, call] of notEncoder) {
    throwsExactly(() => call(rs([null])), DescriptionError, 'RTS0.parameters[0]: expected an object, got null', { code: 'bad-type', path: 'RTS0.parameters[0]' });
    throwsExactly(() => call(rs([{ parameterType: 0, shaderVisibility: 0 }])), DescriptionError, 'RTS0.parameters[0].ranges: a parameter of type 0 needs its ranges', {
      code: 'missing-key',
      path: 'RTS0.parameters[0].ranges',
    });
    throwsExactly(() => call(rs([{ parameterType: 0, shaderVisibility: 0, ranges: {} }])), DescriptionError, 'RTS0.parameters[0].ranges: expected an array, got an object', { code: 'bad-type' });
    throwsExactly(() => call(rs([{ parameterType: 2, shaderVisibility: 0, descriptor: null }])), DescriptionError, 'RTS0.parameters[0].descriptor: expected an object, got null', { code: 'bad-type' });
    throwsExactly(
      () => call(rs([{ parameterType: 0, shaderVisibility: 0, ranges: [{ rangeType: 0, numDescriptors: '1', baseShaderRegister: 0, registerSpace: 0, flags: 0, offsetInDescriptorsFromTableStart: 0 }] }])),
      DescriptionError,
      'RTS0.parameters[0].ranges[0].numDescriptors: expected an unsigned 32-bit integer, got "1"',
      { code: 'bad-type', path: 'RTS0.parameters[0].ranges[0].numDescriptors' },
    );
    throwsExactly(() => call(rs([{ parameterType: 1, shaderVisibility: 0, constants: { shaderRegister: -1, registerSpace: 0, num32BitValues: 1 } }])), DescriptionError, 'RTS0.parameters[0].constants.shaderRegister: -1 does not fit in 32 bits', {
      code: 'out-of-range',
    });
    throwsExactly(() => call(rs([{ shaderVisibility: 0 }])), DescriptionError, 'RTS0.parameters[0].parameterType: expected an unsigned 32-bit integer, got undefined', { code: 'bad-type' });
    // an f32 field takes any number (NaN too), not text
    const sampler = compileRootSignature('StaticSampler(s0)').staticSamplers[0]!;
    call(rs([], [{ ...sampler, mipLODBias: -0.25, maxLOD: 1.5 }]));
    throwsExactly(() => call(rs([], [{ ...sampler, minLOD: '0' }])), DescriptionError, 'RTS0.staticSamplers[0].minLOD: expected a number', { code: 'bad-type' });
    throwsExactly(() => call(rs([], [undefined])), DescriptionError, 'RTS0.staticSamplers[0]: expected an object, got undefined', { code: 'bad-type' });
    throwsExactly(() => call({ version: 2, flags: 0, parameters: null, staticSamplers: [] } as unknown as RootSignature), DescriptionError, 'RTS0.parameters: expected an array, got null', { code: 'bad-type' });
  }
  // the encoder's own checks say the same of the same descriptions
  throwsExactly(() => encodeRootSignature(rs([null])), DescriptionError, 'RTS0.parameters[0]: expected an object', { code: 'bad-type', path: 'RTS0.parameters[0]' });
  // an unknown parameter type: validate reports rule 2, the JSON form (as rootSignatureFromJson) and HLSL have no spelling
  const unknownType = rs([{ parameterType: 9, shaderVisibility: 0 }]);
  assert.equal(validateRootSignature(unknownType).map((v) => v.code), ['parameter-type-unsupported']);
  assert.equal(validateRootSignature({ ...unknownType, version: 1 }).map((v) => v.code), ['parameter-type-unsupported']);
  throwsExactly(() => rootSignatureToJson(unknownType), DescriptionError, 'RTS0.parameters[0].parameterType: unknown parameter type 9: its payload layout is not defined', { code: 'out-of-range' });
  throwsExactly(() => printRootSignature(unknownType), DescriptionError, 'RTS0.parameters[0].parameterType: parameter type 9 has no HLSL spelling', { code: 'not-representable' });
});

test('bytes that are not a Uint8Array are bad-type naming the argument', () => {
  const kinds: [unknown, string][] = [[null, 'null'], [undefined, 'undefined'], [new ArrayBuffer(32), 'an object'], [[1, 2, 3], 'an array'], ['DXBC', 'a string']];
  for (const [value, kind] of kinds) {
    const bytes = value as Uint8Array;
    throwsExactly(() => decodeRootSignature(bytes), DescriptionError, `RTS0: expected a Uint8Array, got ${kind}`, { code: 'bad-type', path: 'RTS0' });
    throwsExactly(() => readRootSignature(bytes), DescriptionError, `RTS0: expected a Uint8Array, got ${kind}`, { code: 'bad-type' });
    throwsExactly(() => parseContainer(bytes), DescriptionError, `container: expected a Uint8Array, got ${kind}`, { code: 'bad-type', path: 'container' });
    throwsExactly(() => readRootSignatureSource(bytes), DescriptionError, `bytes: expected a Uint8Array, got ${kind}`, { code: 'bad-type', path: 'bytes' });
    throwsExactly(() => looksLikeContainer(bytes), DescriptionError, `bytes: expected a Uint8Array, got ${kind}`, { code: 'bad-type' });
    throwsExactly(() => rootSignatureContainer(bytes), DescriptionError, `rts0: expected a Uint8Array, got ${kind}`, { code: 'bad-type', path: 'rts0' });
    throwsExactly(() => modifiedMd5Batch([new Uint8Array(4), bytes]), DescriptionError, `messages[1]: expected a Uint8Array, got ${kind}`, { code: 'bad-type', path: 'messages[1]' });
  }
  throwsExactly(() => modifiedMd5Batch([null as unknown as Uint8Array]), DescriptionError, 'messages[0]: expected a Uint8Array, got null', { code: 'bad-type' });
  throwsExactly(() => modifiedMd5Batch(null as unknown as Uint8Array[]), DescriptionError, 'messages: expected an array, got null', { code: 'bad-type', path: 'messages' });
  throwsExactly(() => modifiedMd5Batch([], [] as unknown as Uint8Array), DescriptionError, 'out: expected a Uint8Array, got an array', { code: 'bad-type', path: 'out' });
  // a Buffer is a Uint8Array
  assert.is(decodeRootSignature(Buffer.from(encodeRootSignature(EMPTY(2)))).version, 2);
});

test('containers: a container, parts list, part or part data of the wrong type is bad-type naming it', () => {
  const part = encodeRootSignature(EMPTY(2));
  const container = (parts: unknown) => ({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts }) as unknown as Parameters<typeof writeContainer>[0];
  throwsExactly(() => writeContainer(null as unknown as Parameters<typeof writeContainer>[0]), DescriptionError, 'container: expected an object, got null', { code: 'bad-type', path: 'container' });
  throwsExactly(() => writeContainer(container(null)), DescriptionError, 'container.parts: expected an array, got null', { code: 'bad-type', path: 'container.parts' });
  throwsExactly(() => writeContainer(container([null])), DescriptionError, 'container.parts[0]: expected an object, got null', { code: 'bad-type' });
  throwsExactly(() => writeContainer(container([{ name: 'RTS0', data: undefined }])), DescriptionError, 'container.parts[0].data: expected a Uint8Array, got undefined', {
    code: 'bad-type',
    path: 'container.parts[0].data',
  });
  const bytes = rootSignatureContainer(part).slice();
  const parsed = parseContainer(bytes);
  throwsExactly(() => writeEdited(container([{ name: 'RTS0', data: 7 }]), parsed, bytes), DescriptionError, 'container.parts[0].data: expected a Uint8Array, got a number', { code: 'bad-type' });
  throwsExactly(() => writeEdited(parsed, parsed, null as unknown as Uint8Array), DescriptionError, 'originalBytes: expected a Uint8Array, got null', { code: 'bad-type' });
  for (const call of [rootSignaturePart, shaderOf, containerRootSignature] as ((c: unknown) => unknown)[]) {
    throwsExactly(() => call(null), DescriptionError, 'container: expected an object, got null', { code: 'bad-type', path: 'container' });
    throwsExactly(() => call({ parts: 'RTS0' }), DescriptionError, 'container.parts: expected an array, got a string', { code: 'bad-type' });
  }
  throwsExactly(() => rootSignaturePart(container([])), DecodeError, 'container.parts at byte 0: the container has no RTS0 part', { code: 'missing-part' });
});

test('the other public functions: null where bytes, a container or an object belong is bad-type naming the argument', () => {
  const bytes = (path: string) => `${path}: expected a Uint8Array, got null`;
  const object = (path: string) => `${path}: expected an object, got null`;
  const no = null as never;
  const rs = EMPTY(2);
  const cases: [() => unknown, string, string][] = [
    [() => modifiedMd5(no), 'message', bytes('message')],
    [() => modifiedMd5Into(new Uint8Array(4), no), 'out', bytes('out')],
    [() => computeContainerDigest(no), 'container', bytes('container')],
    [() => signContainer(no), 'container', bytes('container')],
    [() => containerDigestMatches(no), 'container', bytes('container')],
    [() => digestSentinel(no), 'digest', bytes('digest')],
    [() => digestStatus(no, new Uint8Array(16)), 'stored', bytes('stored')],
    [() => equalBytes(new Uint8Array(1), no), 'b', bytes('b')],
    [() => toHex(no), 'bytes', bytes('bytes')],
    [() => decodePsv0(no), 'bytes', bytes('bytes')],
    [() => readDxbcProgram(no), 'bytes', bytes('bytes')],
    [() => readShader(no), 'container', bytes('container')],
    [() => verifyRootSignature(no), 'shader', object('shader')],
    [() => verifyBindings(0, no, rs), 'bindings', 'bindings: expected an array, got null'],
    [() => verifyBindings(0, [], no), 'RTS0', object('RTS0')],
    [() => rootSignatureIntervals({ ...rs, version: 7 } as unknown as RootSignature), 'RTS0.version', 'RTS0.version: unknown root signature version 7 (known: 1, 2, 3)'],
    [() => withoutPart(no, 'RTS0'), 'container', object('container')],
    [() => withRootSignature(no, new Uint8Array(4)), 'container', object('container')],
    [() => editedDigest(no, new Uint8Array(4)), 'container', object('container')],
    [() => partDataOffset(no, 0), 'container', object('container')],
    [() => partDataOffset({ parts: [] } as never, 0), 'container.layout', 'container.layout: expected an object, got undefined'],
    [() => partDataOffset(parseContainer(rootSignatureContainer(encodeRootSignature(rs))), 1), 'index', 'index: part 1 of 1'],
    [() => psv0ToJson(no), 'PSV0', object('PSV0')],
    [() => printable(no), 'name', 'name: expected a string, got null'],
    [() => formatViolation(no), 'violation', object('violation')],
    [() => formatBinding(no), 'binding', object('binding')],
    [() => describeConversionReport(no), 'report', object('report')],
  ];
  for (const [call, path, message] of cases) throwsExactly(call, DescriptionError, message, { path });
});

test('PSV0: a description that is not an object is bad-type', () => {
  for (const value of [null, undefined, 3]) {
    throwsExactly(() => encodePsv0(value as unknown as Parameters<typeof encodePsv0>[0]), DescriptionError, `PSV0: expected an object, got ${value === 3 ? 'a number' : String(value)}`, { code: 'bad-type', path: 'PSV0' });
  }
  assert.ok(decodePsv0);
});

test('dxbin/fuzz: shards and target names are DescriptionErrors; the CLI makes a bad --shard a usage error', async () => {
  throwsExactly(() => parseShard('5/2'), DescriptionError, 'shard: shard 5/2: need 0 <= i < n', { code: 'out-of-range', path: 'shard' });
  throwsExactly(() => parseShard('4/4'), DescriptionError, 'shard: shard 4/4: need 0 <= i < n', { code: 'out-of-range' });
  throwsExactly(() => parseShard('half'), DescriptionError, 'shard: --shard takes i/n (e.g. 0/4), got half', { code: 'bad-type', path: 'shard' });
  throwsExactly(() => parseShard(undefined, { JOB_COMPLETION_INDEX: '3', DXBIN_SHARD_COUNT: '3' }), DescriptionError, 'JOB_COMPLETION_INDEX: shard 3/3: need 0 <= i < n', { code: 'out-of-range' });
  throwsExactly(() => parseShard(undefined, { JOB_COMPLETION_INDEX: '0', DXBIN_SHARD_COUNT: 'x' }), DescriptionError, 'DXBIN_SHARD_COUNT: shard 0/NaN: need 0 <= i < n', { code: 'out-of-range' });
  const fuzzError = (() => {
    try {
      fuzzTarget('nope');
    } catch (e) {
      return e;
    }
  })();
  assert.instance(fuzzError, DescriptionError);
  assert.is((fuzzError as DescriptionError).code, 'bad-name');
  assert.is((fuzzError as DescriptionError).path, 'target');
  assert.match((fuzzError as Error).message, /^target: unknown fuzz target nope \(known: container-strict, /);
  const streams = captureStreams();
  assert.is(await run(['fuzz', 'rts0', '--runs', '1', '--shard', '5/2'], streams), 2);
  assert.match(streams.stderr(), 'shard 5/2: need 0 <= i < n');
});

test('dxbin/query: a call that must grow WASM memory under the caller\'s views is a DescriptionError memory-grew; the retry runs', () => {
  if (!kernelsAvailable('simd')) return;
  const k = kernels('simd') as WasmKernels;
  const input = k.allocate(8);
  const memoryBytes = input.bytes.buffer.byteLength;
  const fields = memoryBytes / 8 + 1024; // an out array (in JS memory) larger than the whole memory
  const out = new Uint8Array(fields * 8);
  try {
    throwsExactly(() => k.sumRecords(input.bytes, 0, fields, out), DescriptionError, 'kernels.memory: WASM memory grew during the call; take fresh views from WasmBuffer.bytes and call again', {
      code: 'memory-grew',
      path: 'kernels.memory',
    });
    assert.ok(input.bytes.buffer.byteLength > memoryBytes, 'memory grew');
    k.sumRecords(input.bytes, 0, fields, out);
    assert.ok(out.every((b) => b === 0));
  } finally {
    k.reset();
  }
});

test('detail is apart from message; one formatter makes both forms', () => {
  try {
    decodeRootSignature(words(4, 0, 24, 0, 24, 0));
    assert.unreachable('expected a DecodeError');
  } catch (e) {
    const d = e as DecodeError;
    assert.is(d.detail, 'unknown root signature version 4 (known: 1, 2, 3)');
    assert.is(d.message, formatProblem(d.path, d.detail, d.offset));
  }
  assert.is(formatProblem('$.version', 'x'), '$.version: x');
});


test('one violation formatter: rule lines `code path message`, binding lines `code subject path: message`', () => {
  const v = { code: 'overlap', path: 'RTS0.parameters[1]', message: 'Shader register range overlaps.' };
  assert.is(formatViolation(v), 'overlap RTS0.parameters[1] Shader register range overlaps.');
  assert.is(formatViolation(v, 'CBV b2'), 'overlap CBV b2 RTS0.parameters[1]: Shader register range overlaps.');
  assert.is(formatViolation({ code: 'not-bound', message: 'Not bound.' }, 'SRV t0 (tex)'), 'not-bound SRV t0 (tex): Not bound.');
  assert.is(formatViolation({ code: 'no-rts0', message: 'No root signature.' }, ''), 'no-rts0: No root signature.');
});

test.run();
