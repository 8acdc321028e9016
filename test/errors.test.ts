/** Bad input gives a DecodeError / DescriptionError with exact text, offset, path and code. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DecodeError,
  DescriptionError,
  decodeRootSignature,
  encodeRootSignature,
  parseContainer,
  rootSignatureContainer,
  rootSignatureFromJson,
  readRootSignatureSource,
  writeContainer,
  formatProblem,
  formatViolation,
  type RootSignature,
} from '../src/index.js';

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
    assert.instance(e, DecodeError);
    assert.is((e as DecodeError).code, 'limit-exceeded');
    assert.match((e as Error).message, /^RTS0\.parameters\[\d+\]\.ranges at byte 2432: more records than a 3392-byte part can hold without sharing$/);
  }
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

test.run();

test('one violation formatter: rule lines `code path message`, binding lines `code subject path: message`', () => {
  const v = { code: 'overlap', path: 'RTS0.parameters[1]', message: 'Shader register range overlaps.' };
  assert.is(formatViolation(v), 'overlap RTS0.parameters[1] Shader register range overlaps.');
  assert.is(formatViolation(v, 'CBV b2'), 'overlap CBV b2 RTS0.parameters[1]: Shader register range overlaps.');
  assert.is(formatViolation({ code: 'not-bound', message: 'Not bound.' }, 'SRV t0 (tex)'), 'not-bound SRV t0 (tex): Not bound.');
  assert.is(formatViolation({ code: 'no-rts0', message: 'No root signature.' }, ''), 'no-rts0: No root signature.');
});
