/**
 * RDEF variables and type descriptions (src/parts/layout.ts's walk over codecs/parts.ts's
 * RDEF_VARIABLE, RDEF_TYPE and RDEF_MEMBER rows): every corpus RDEF decodes to its variables and
 * types and writes back bit-exact (bytes and JSON form); a generated SM 5.0 and SM 4.0 part with
 * structs, arrays and a shared type decodes to the values it was written with; hostile parts (a
 * type that contains itself, nesting past the budget's depth, counts past the data) are refused
 * with typed errors; `dxbin inspect` lists them in text and --json.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget, DecodeError, DescriptionError, LimitError, decodePart, encodePart, parseContainer, partFromJson, partToJson, writeContainer, type Row } from '../src/index.js';
import { SEED_RDEF, SEED_RDEF_CLASSES, seedRdefPart, type SeedRdef } from '../src/fuzz/rdef-seed.js';
import { corpusFiles, ROOT } from './helpers/corpus.js';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const rows = (d: { blocks: Record<string, unknown> }, key: string) => d.blocks[key] as Row[];

const rdefParts = corpusFiles('shaders').flatMap((f) => {
  try {
    return parseContainer(f.bytes, { mode: 'lenient' }).parts.filter((p) => p.name === 'RDEF').map((p) => ({ file: f.name, data: p.data }));
  } catch {
    return [];
  }
});

test('every corpus RDEF: variables and their types decoded, written back bit-exact through the bytes and the JSON form', () => {
  assert.ok(rdefParts.length >= 10, `${rdefParts.length} RDEF parts in the corpus`);
  let variables = 0;
  for (const { file, data } of rdefParts) {
    const d = decodePart('RDEF', data);
    const cbs = rows(d, 'constantBuffers');
    const vars = rows(d, 'variables');
    const types = rows(d, 'types');
    assert.is(vars.length, cbs.reduce((n, c) => n + (c.variableCount as number), 0), file);
    variables += vars.length;
    let v = 0;
    for (const cb of cbs) {
      for (let k = 0; k < (cb.variableCount as number); k++, v++) {
        const x = vars[v]!;
        assert.ok((x.startOffset as number) + (x.size as number) <= (cb.size as number), `${file}: ${String(x.name)} inside ${String(cb.name)}`);
        assert.type(x.name, 'string');
      }
    }
    // every type a variable names was read, each place once
    assert.ok(types.length >= 1 || vars.length === 0, file);
    for (const t of types) assert.type(t.className, 'string', file);
    assert.ok(same(encodePart(d), data), `${file}: bytes`);
    assert.ok(same(encodePart(partFromJson(JSON.parse(JSON.stringify(partToJson(d))))), data), `${file}: JSON`);
  }
  assert.ok(variables >= 1, 'the corpus has RDEF variables');
});

test('a generated SM 5.0 RDEF: variables, types in walk order (a shared type once), members, names, default value kept', () => {
  const bytes = seedRdefPart();
  const d = decodePart('RDEF', bytes);
  const vars = rows(d, 'variables');
  assert.equal(vars.map((v) => [v.name, v.startOffset, v.size, v.flagsNames]), [['color', 0, 16, ['USED']], ['o', 16, 48, ['USED']]]);
  assert.is(vars[0]!.startTexture, 0xffffffff);
  const types = rows(d, 'types');
  // float4 is the type of `color` and of Outer.v: read once
  assert.equal(types.map((t) => [t.name, t.className, t.typeName, t.rows, t.columns, t.elements, t.memberCount]), [
    ['float4', 'VECTOR', 'FLOAT', 1, 4, 0, 0],
    ['Outer', 'STRUCT', 'VOID', 1, 12, 0, 2],
    ['Inner', 'STRUCT', 'VOID', 1, 4, 2, 1],
    ['int', 'SCALAR', 'INT', 1, 1, 0, 0],
  ]);
  assert.equal(rows(d, 'members').map((m) => [m.name, m.offset]), [['i', 0], ['v', 32], ['a', 0]]);
  assert.is(rows(d, 'members')[1]!.typeOffset, vars[0]!.typeOffset);
  // the default value's bytes are kept where the variable points
  const at = vars[0]!.defaultValueOffset as number;
  assert.equal(Array.from(bytes.subarray(at, at + 16)), Array.from({ length: 16 }, (_, i) => i));
  assert.ok(same(encodePart(d), bytes));
  const json = partToJson(d);
  assert.equal((json.types as Row[]).map((t) => t.name), ['float4', 'Outer', 'Inner', 'int']);
  assert.ok(same(encodePart(partFromJson(JSON.parse(JSON.stringify(json)))), bytes));
});

test('a generated SM 4.0 RDEF: 24-byte variables, 16-byte types without names', () => {
  const bytes = seedRdefPart({ ...SEED_RDEF, sm5: false });
  const d = decodePart('RDEF', bytes);
  assert.equal(rows(d, 'variables').map((v) => v.name), ['color', 'o']);
  assert.is(rows(d, 'variables')[0]!.startTexture, undefined);
  assert.equal(rows(d, 'types').map((t) => [t.className, t.name]), [['VECTOR', undefined], ['STRUCT', undefined], ['STRUCT', undefined], ['SCALAR', undefined]]);
  assert.ok(same(encodePart(d), bytes));
});

test('every corpus SM 5.0 RDEF type leaves the class words 0 (fxc, no classes): sub type, base class, interfaces', () => {
  let sm5 = 0;
  for (const { file, data } of rdefParts) {
    const d = decodePart('RDEF', data);
    if (((d.blocks.header as Row).majorVersion as number) < 5) continue;
    sm5++;
    for (const t of rows(d, 'types')) assert.equal([t.subTypeOffset, t.baseClassOffset, t.interfaceCount, t.interfaceOffset], [0, 0, 0, 0], file);
    assert.equal(rows(d, 'interfaces'), [], file);
  }
  assert.ok(sm5 >= 10, `${sm5} SM 5.0 RDEF parts`);
});

test('a generated SM 5.0 RDEF with classes: sub type, base class and interface table named, their types walked once, bit-exact', () => {
  const bytes = seedRdefPart(SEED_RDEF_CLASSES);
  const d = decodePart('RDEF', bytes);
  const types = rows(d, 'types');
  // the walk order: Derived (m), its member type float4, its base class Base, its interface ILight, then p's pointer type
  assert.equal(types.map((t) => [t.name, t.className]), [
    ['Derived', 'INTERFACE_CLASS'],
    ['float4', 'VECTOR'],
    ['Base', 'INTERFACE_CLASS'],
    ['ILight', 'INTERFACE_CLASS'],
    ['ILight', 'INTERFACE_POINTER'],
  ]);
  const [derived, , base, iface, pointer] = types;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nameAt = (typeOffset: number) => {
    const o = view.getUint32(typeOffset + 32, true);
    return new TextDecoder().decode(bytes.subarray(o, bytes.indexOf(0, o)));
  };
  assert.is(nameAt(derived!.baseClassOffset as number), 'Base');
  assert.equal([derived!.subTypeOffset, derived!.interfaceCount], [0, 1]);
  assert.equal(rows(d, 'interfaces').map((x) => nameAt(x.typeOffset as number)), ['ILight']);
  assert.is(view.getUint32(derived!.interfaceOffset as number, true), rows(d, 'interfaces')[0]!.typeOffset);
  assert.is(nameAt(pointer!.subTypeOffset as number), 'ILight');
  assert.is(pointer!.subTypeOffset, rows(d, 'interfaces')[0]!.typeOffset, 'the sub type is the interface read once');
  assert.equal([base!.baseClassOffset, base!.interfaceCount, iface!.interfaceCount], [0, 0, 0]);
  assert.ok(same(encodePart(d), bytes));
  const json = partToJson(d);
  assert.equal((json.types as Row[]).map((t) => [t.name, t.baseClassOffset !== 0, t.interfaceCount]), [['Derived', true, 1], ['float4', false, 0], ['Base', false, 0], ['ILight', false, 0], ['ILight', false, 0]]);
  assert.ok(same(encodePart(partFromJson(JSON.parse(JSON.stringify(json)))), bytes));
});

test('hostile: an interface table past the data is count-exceeds-data; a base class naming its own class is walked once, not refused', () => {
  const bytes = seedRdefPart(SEED_RDEF_CLASSES);
  const d = decodePart('RDEF', bytes);
  const derivedAt = rows(d, 'variables')[0]!.typeOffset as number;
  const bad = bytes.slice();
  new DataView(bad.buffer).setUint32(derivedAt + 24, 0x10000000, true);
  assert.throws(() => decodePart('RDEF', bad), (e: unknown) => e instanceof DecodeError && e.code === 'count-exceeds-data' && /interfaces/.test(e.path));
  const selfBase = bytes.slice();
  new DataView(selfBase.buffer).setUint32(derivedAt + 20, derivedAt, true);
  const again = decodePart('RDEF', selfBase);
  assert.is(rows(again, 'types').filter((t) => t.name === 'Derived').length, 1);
  assert.ok(same(encodePart(again), selfBase));
});

test('hostile: many types naming one long interface table are charged per entry each names (limit-exceeded), not walked for free', () => {
  // K class types, each with N interfaces at the first one's table: K * N places taken again, from K * 76 + N * 4 bytes
  const K = 200, N = 2000;
  const seed: SeedRdef = {
    sm5: true,
    cbuffers: [{ name: 'C', size: 16 * K, variables: Array.from({ length: K }, (_, i) => ({ name: 'v', start: 16 * i, size: 16, flags: 2, type: i + 1 })) }],
    types: [
      { class: 1, type: 3, rows: 1, columns: 4, name: 'float4' },
      { class: 6, type: 0, rows: 1, columns: 4, name: 'A', interfaces: Array<number>(N).fill(0) },
      ...Array.from({ length: K - 1 }, () => ({ class: 6, type: 0, rows: 1, columns: 4, name: 'A', interfaces: [0] })),
    ],
  };
  const bytes = seedRdefPart(seed);
  const d = decodePart('RDEF', bytes);
  const tableAt = rows(d, 'types').find((t) => t.interfaceCount === N)!.interfaceOffset as number;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shifted = bytes.slice();
  const shiftedView = new DataView(shifted.buffer);
  rows(d, 'variables').forEach((v, i) => {
    const at = v.typeOffset as number;
    if (view.getUint32(at + 24, true) !== 1) return;
    view.setUint32(at + 24, N, true), view.setUint32(at + 28, tableAt, true);
    // every type a different run of the one table: no list is asked twice, each place is
    shiftedView.setUint32(at + 24, N - i, true), shiftedView.setUint32(at + 28, tableAt + 4 * i, true);
  });
  for (const part of [bytes, shifted]) assert.throws(() => decodePart('RDEF', part), (e: unknown) => e instanceof LimitError && e.kind === 'resolve' && /RDEF\.interfaces/.test(e.message));
  // shared tables are not refused as such: a budget that allows the work decodes them, each entry once
  const allowed = decodePart('RDEF', bytes, { budget: Budget.for(bytes.byteLength, { maxResolved: 2 * K * N }) });
  assert.is(rows(allowed, 'interfaces').length, N);
  // encoding places the same records: by default with the budget a decode of the bytes gets (a
  // description of N rows could otherwise make K * N places for free), with a larger one given
  assert.throws(() => encodePart(allowed), (e: unknown) => e instanceof LimitError && e.kind === 'resolve');
  assert.ok(same(encodePart(allowed, { budget: Budget.for(bytes.byteLength, { maxResolved: 2 * K * N }) }), bytes));
});

const withTypes = (types: SeedRdef['types']): SeedRdef => ({ ...SEED_RDEF, types });

test('hostile: a type that contains itself (directly or through another) is refused, and a shared budget gets its depth back', () => {
  const self = SEED_RDEF.types.map((t, i) => (i === 2 ? { ...t, members: [{ name: 'a', type: 2, offset: 0 }] } : t));
  const loop = SEED_RDEF.types.map((t, i) => (i === 2 ? { ...t, members: [{ name: 'a', type: 1, offset: 0 }] } : t));
  for (const types of [self, loop]) {
    const budget = Budget.for(4096);
    const before = budget.depth;
    assert.throws(() => decodePart('RDEF', seedRdefPart(withTypes(types)), { budget }), (e: unknown) => e instanceof DecodeError && e.code === 'bad-offset' && /contains itself/.test(e.message));
    assert.is(budget.depth, before);
  }
});

test('hostile: nesting past the budget depth is limit-exceeded; a variable count past the data is count-exceeds-data', () => {
  // struct S0 { S1 m; } ... S39 { int a; }: 41 levels
  const chain: SeedRdef['types'] = [{ class: 1, type: 3, rows: 1, columns: 4, name: 'float4' }];
  for (let i = 0; i < 40; i++) chain.push({ class: 5, type: 0, rows: 1, columns: 1, name: `S${i}`, members: [{ name: 'm', type: i + 2 < 41 ? i + 2 : 0, offset: 0 }] });
  const deep = seedRdefPart(withTypes(chain));
  assert.is(rows(decodePart('RDEF', deep), 'types').length, 41);
  assert.throws(() => decodePart('RDEF', deep, { budget: Budget.for(deep.byteLength, { maxDepth: 8 }) }), (e: unknown) => e instanceof LimitError && e.kind === 'depth');
  const counted = seedRdefPart();
  const cb = rows(decodePart('RDEF', counted), 'constantBuffers')[0]!;
  const bad = counted.slice();
  new DataView(bad.buffer).setUint32((decodePart('RDEF', counted).blocks.header as Row).constantBufferOffset as number + 4, 0x10000000, true);
  assert.is(cb.variableCount, 2);
  assert.throws(() => decodePart('RDEF', bad), (e: unknown) => e instanceof DecodeError && e.code === 'count-exceeds-data');
  // a description whose count outruns the rows it gives: refused at the first missing row
  const described = decodePart('RDEF', counted);
  rows(described, 'constantBuffers')[0]!.variableCount = 0xffffffff;
  assert.throws(() => encodePart(described), (e: unknown) => e instanceof DescriptionError && e.code === 'out-of-range' && /more than the 2 records given/.test(e.message));
});

test('dxbin inspect lists the variables and types (text) and gives them in --json', () => {
  const work = mkdtempSync(join(tmpdir(), 'dxbin-rdef-'));
  const file = join(work, 'seed.dxbc');
  writeFileSync(file, writeContainer({ digest: new Uint8Array(16), majorVersion: 1, minorVersion: 0, parts: [{ name: 'RDEF', data: seedRdefPart() }] }));
  const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { encoding: 'utf8', cwd: ROOT });
  const text = run('inspect', file);
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, /color at 0, 16 bytes, type at \d+ \(USED\), default at \d+/);
  assert.match(text.stdout, 'type Outer: STRUCT VOID 1x12, members i at 0, v at 32');
  assert.match(text.stdout, 'type Inner: STRUCT VOID 1x4[2], members a at 0');
  const json = run('inspect', file, '--json');
  assert.is(json.status, 0, json.stderr);
  const decode = JSON.parse(json.stdout).parts[0].decode;
  assert.equal(decode.variables.map((v: Row) => v.name), ['color', 'o']);
  assert.equal(decode.members.map((m: Row) => m.name), ['i', 'v', 'a']);
});

test.run();
