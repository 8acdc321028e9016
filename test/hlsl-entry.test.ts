/**
 * `-E ENTRY` in an HLSL file (HlslFile.entryText, `rootsig compile --file F -E ENTRY`): which
 * function is the entry and which `[RootSignature(...)]` it carries, as DXC decides. Each rule
 * and the DXC source it was read from (microsoft/DirectXShaderCompiler, read at 9a3e225):
 *
 * R1 one declaration, several attributes: the last one written is used, no error. The parser
 *    (tools/clang/lib/Parse/ParseHLSL.cpp, Parser::ParseHLSLAttributeSpecifier) puts each
 *    `[...]` at the front of the parsed list (ParsedAttributes::add in
 *    tools/clang/include/clang/Sema/AttributeList.h), Sema::ProcessDeclAttributeList
 *    (SemaDeclAttr.cpp) walks that list and hlsl::HandleDeclAttributeForHLSL (SemaHLSL.cpp)
 *    appends each to the declaration (Decl::addAttr, no duplicate check for RootSignature), and
 *    CGMSHLSLRuntime::AddHLSLFunctionInfo (CodeGen/CGHLSLMS.cpp) reads getAttr<HLSLRootSignatureAttr>,
 *    the first in that list: the last in the source. DXC's own test
 *    tools/clang/test/HLSLFileCheck/dxil/debug/min16/min16float.hlsl compiles a `main` with two.
 * R2 prototype then definition: HLSLRootSignature is an InheritableAttr (Basic/Attr.td), so
 *    Sema::mergeDeclAttributes / mergeDeclAttribute (Sema/SemaDecl.cpp) copy it to a later
 *    declaration that has none of its own (DeclHasAttr); one of its own is kept instead. An
 *    attribute on a declaration after the definition is dropped with a warning
 *    (checkNewAttributesAfterDef, "attribute declaration must precede definition").
 * R3 only a global function is the entry: AddHLSLFunctionInfo takes `isEntry` only for a
 *    function whose DeclContext is the TranslationUnit, and CodeGenModule::getMangledName
 *    (CodeGen/CodeGenModule.cpp) leaves only such a Decl::Function unmangled; the lookup in
 *    hlsl::DiagnoseTranslationUnit (Sema/SemaHLSLDiagnoseTU.cpp, GetSingleFunctionDeclByName)
 *    walks the IdResolver at the end of the translation unit, which holds global names only
 *    (struct and namespace scopes are popped) and FunctionDecls only (a template is skipped).
 * R4 overloads are refused: GetSingleFunctionDeclByName returns two FunctionDecls and
 *    DiagnoseTranslationUnit reports "ambiguous entry point function"; two overload definitions
 *    already clash in CodeGenModule::EmitGlobalFunctionDefinition (err_duplicate_mangled_name),
 *    both mangled to the bare entry name. A redeclaration replaces the earlier one in the
 *    IdResolver (Sema::PushOnScopeChains, declarationReplaces), so prototype + definition is one.
 *    Equal parameter lists with another return type are no overload but an error in C++
 *    (Sema::MergeFunctionDecl: err_ovl_diff_return_type, "functions that differ only in their
 *    return type cannot be overloaded"); dxbin compares the spellings, storage specifiers left out.
 * R5 no definition: "missing entry point definition" (DiagnoseTranslationUnit, !hasBody()).
 * R9 `extern "C" { ... }` and `extern "C" DECL`: upstream clang's LinkageSpecDecl is a
 *    transparent context (DeclContext::isTransparentContext), so its functions are global there;
 *    whether DXC's HLSL parser takes a linkage specification at all, and whether R3's
 *    TranslationUnit test in AddHLSLFunctionInfo looks through one, is not read from DXC's
 *    sources: refused (hlsl-syntax at the `extern`), not guessed.
 * R10 `void ::main()`: the global qualifier names the scope the declaration is in, which clang
 *    accepts for a redeclaration ("extra qualification on member", a warning since DR482:
 *    Sema::diagnoseQualifiedDeclaration; clang's test/CXX/dcl.decl/dcl.meaning/p1.cpp) and which
 *    then is the global function; a qualified name with no declaration before it is clang's
 *    "out-of-line definition ... does not match any declaration" (a qualified declaration needs
 *    an earlier one), refused (hlsl-syntax). A name before `::` that may be a scope (`S::main`,
 *    `uint ::main`, which clang parses as `uint::main`) stays a qualified name, not the entry.
 * Where the sources do not settle it, dxbin refuses (hlsl-ambiguous) rather than guess:
 * R6 the function used before its definition while another attribute was in force (code
 *    generation may create the function from the earlier declaration: CodeGenModule::
 *    GetOrCreateLLVMFunction calls AddHLSLFunctionInfo once, on whichever declaration it meets first);
 * R7 parameter lists spelled differently: dxbin compares spellings, not types, so an overload
 *    and one type spelled two ways (float4 / vector<float, 4>) are both refused.
 * R8 hostile text: a `{` never closed or a `}` closing nothing is DXC's parse error; dxbin gives
 *    a typed HlslError at its place, and any token soup gives an answer or an HlslError.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HlslError, HlslFile } from '../src/index.js';
import { run } from '../src/cli/program.js';
import { captureStreams } from '../src/cli/streams.js';

const entry = (text: string, name = 'main') => new HlslFile(text, 'e.hlsl').entryText(name).text;

/** The HlslError `call` throws; fails when it throws something else or nothing. */
function refusal(call: () => unknown): HlslError {
  try {
    call();
  } catch (e) {
    if (e instanceof HlslError) return e;
    throw e;
  }
  throw new Error('expected an HlslError, got an answer');
}

const refused = (text: string, code: string, words: RegExp, at?: string, name = 'main') => {
  const e = refusal(() => new HlslFile(text, 'e.hlsl').entryText(name));
  assert.is(e.code, code, e.message);
  assert.match(e.message, words);
  if (at !== undefined) assert.is(e.path, at, e.message);
  return e;
};

test('R1: two [RootSignature] on one function: the last one written is used (DXC compiles it, no ambiguity)', () => {
  assert.is(entry('[RootSignature("CBV(b0)")]\n[RootSignature("CBV(b1)")]\nvoid main() {}\n'), 'CBV(b1)');
  assert.is(entry('[RootSignature("CBV(b0)")] [numthreads(1,1,1)] [RootSignature("SRV(t0)")] [RootSignature("UAV(u0)")]\nvoid main(uint i : SV_GroupIndex) {}\n'), 'UAV(u0)');
  // DXC's min16float.hlsl: an empty one, then two tables
  assert.is(entry('[RootSignature("")]\n[RootSignature("DescriptorTable(SRV(t0)), DescriptorTable(UAV(u0))")]\nvoid main() {}\n'), 'DescriptorTable(SRV(t0)), DescriptorTable(UAV(u0))');
});

test('R2: a prototype then the definition: the definition\'s own attribute, else the inherited one; one after the definition is dropped', () => {
  assert.is(entry('[RootSignature("CBV(b0)")]\nfloat4 main(float4 p : A);\n[RootSignature("CBV(b1)")]\nfloat4 main(float4 q : A) : SV_Target { return q; }\n'), 'CBV(b1)');
  assert.is(entry('[RootSignature("CBV(b0)")]\nfloat4 main(float4 p : A);\nfloat4 main(float4 q : A) : SV_Target { return q; }\n'), 'CBV(b0)');
  // inherited through a prototype that has none: the last one in force before the definition
  assert.is(entry('[RootSignature("CBV(b0)")] void main();\n[RootSignature("CBV(b2)")] void main();\nvoid main();\nvoid main() {}\n'), 'CBV(b2)');
  // a declaration after the definition: its attribute is not the definition's
  assert.is(entry('[RootSignature("CBV(b0)")] void main() {}\n[RootSignature("CBV(b9)")] void main();\n'), 'CBV(b0)');
  refused('void main() {}\n[RootSignature("CBV(b9)")] void main();\n', 'hlsl-missing', /the one at e\.hlsl:2:1 is on a declaration after the definition at e\.hlsl:1:6, which DXC drops/, 'e.hlsl:2:1');
});

test('R3: a struct method, a namespace member, a qualified or template function named main is not the entry', () => {
  const method = 'struct S {\n  [RootSignature("CBV(b0)")]\n  void main() {}\n};\n';
  const e = refused(method, 'hlsl-missing', /no global function 'main' in this file; the 'main' at e\.hlsl:3:8 is not one/, 'e.hlsl:3:8');
  assert.match(e.message, 'missing entry point definition');
  refused('namespace N {\n[RootSignature("CBV(b0)")]\nvoid main() {}\n}\n', 'hlsl-missing', /the 'main' at e\.hlsl:3:6 is not one/);
  refused('namespace A { namespace B { [RootSignature("CBV(b0)")] void main() {} } }\n', 'hlsl-missing', /not one/);
  refused('struct S { void main(); };\n[RootSignature("CBV(b0)")]\nvoid S::main() {}\n', 'hlsl-missing', /the 'main' at e\.hlsl:1:17 is not one/);
  refused('[RootSignature("CBV(b0)")]\ntemplate<typename T> void main(T x) {}\n', 'hlsl-missing', /not one/);
  refused('[RootSignature("CBV(b0)")]\nvoid f() { main(); }\n', 'hlsl-missing', /the 'main' at e\.hlsl:2:12 is not one/);
  // beside a global main they are not a second one: the global one is the entry
  const both = `${method}namespace N { [RootSignature("CBV(b1)")] void main() {} }\n[RootSignature("CBV(b2)")]\nfloat4 main() : SV_Target { S s; return 0; }\n`;
  assert.is(entry(both), 'CBV(b2)');
  assert.is(entry('struct S { [RootSignature("CBV(b0)")] void main() {} } s;\n[RootSignature("CBV(b3)")] void main() {}\n'), 'CBV(b3)');
});

test('R4: overloads of the entry are refused (ambiguous entry point function), whichever carries the attribute', () => {
  refused('float4 main(float2 p : A) : SV_Target { return p.xyxy; }\n[RootSignature("CBV(b1)")]\nfloat4 main(float4 p : A) : SV_Target { return p; }\n', 'hlsl-ambiguous', /ambiguous entry point function 'main': the declarations at e\.hlsl:1:8 and e\.hlsl:3:8 have different parameter lists/, 'e.hlsl:3:8');
  // an overload that is only declared is one too (DXC: ambiguous entry point function)
  refused('void main(int x);\n[RootSignature("CBV(b1)")]\nvoid main() {}\n', 'hlsl-ambiguous', /different parameter lists/);
  // one function defined twice
  refused('[RootSignature("CBV(b0)")] void main() {}\n[RootSignature("CBV(b1)")] void main() {}\n', 'hlsl-ambiguous', /redefinition of 'main' at e\.hlsl:2:33 \(first defined at e\.hlsl:1:33\)/, 'e.hlsl:2:33');
  // redeclarations that agree: names, semantics, defaults and (void) do not make an overload
  assert.is(entry('void main(uint a : SV_GroupIndex, const float2 b[2], in float c = 1.0);\n[RootSignature("CBV(b4)")]\nvoid main(uint i : SV_GroupIndex, const float2 q[2], in float r) {}\n'), 'CBV(b4)');
  assert.is(entry('void main(void);\n[RootSignature("CBV(b5)")] void main() {}\n'), 'CBV(b5)');
  assert.is(entry('void main(vector<float, 4> v, uint);\n[RootSignature("CBV(b6)")] void main(vector<float, 4> w, uint n) {}\n'), 'CBV(b6)');
});

test('R4: equal parameters and another return type are refused (clang: functions that differ only in their return type cannot be overloaded)', () => {
  refused('void main();\n[RootSignature("CBV(b1)")]\nfloat4 main() : SV_Target { return 0; }\n', 'hlsl-ambiguous', /the declarations at e\.hlsl:1:6 and e\.hlsl:3:8 differ only in their return type \("void" and "float4"\)/, 'e.hlsl:3:8');
  // the return type of a later declarator is the declaration's type
  refused('float x, main();\n[RootSignature("CBV(b1)")] uint main() { return 0; }\n', 'hlsl-ambiguous', /\("float" and "uint"\)/);
  refused('vector<float, 4> main();\n[RootSignature("CBV(b1)")] vector<float, 3> main() { return 0; }\n', 'hlsl-ambiguous', /differ only in their return type/);
  // storage and function specifiers are not the return type; `::main` names the same function
  assert.is(entry('static float4 main();\n[RootSignature("CBV(b2)")] inline float4 main() { return 0; }\n'), 'CBV(b2)');
  assert.is(entry('float a, main();\n[RootSignature("CBV(b3)")] float main() { return 0; }\n'), 'CBV(b3)');
  assert.is(entry('void main();\n[RootSignature("CBV(b4)")] void ::main() {}\n'), 'CBV(b4)');
  // the return type a message shows is quoted and cut, whatever its length
  const long = `S${'x'.repeat(5000)}`;
  const e = refused(`${long} main();\n[RootSignature("CBV(b1)")] void main() {}\n`, 'hlsl-ambiguous', /differ only in their return type/);
  assert.ok(e.message.length < 600, `${e.message.length} characters`);
});

test('R5: a prototype only is no definition (missing entry point definition)', () => {
  refused('[RootSignature("CBV(b0)")]\nvoid main();\n', 'hlsl-missing', /missing entry point definition: 'main' is declared at e\.hlsl:2:6 but never defined/, 'e.hlsl:2:6');
});

test('R6: used before its definition under another attribute: refused, which one DXC uses is not settled', () => {
  refused('[RootSignature("CBV(b0)")] void main();\nvoid f() { main(); }\n[RootSignature("CBV(b1)")] void main() {}\n', 'hlsl-ambiguous', /used at e\.hlsl:2:12 before its definition at e\.hlsl:3:33, while the \[RootSignature\(\.\.\.\)\] at e\.hlsl:1:1 was in force/, 'e.hlsl:2:12');
  // under the same attribute (inherited) there is nothing to tell apart
  assert.is(entry('[RootSignature("CBV(b0)")] void main();\nvoid f() { main(); }\nvoid main() {}\n'), 'CBV(b0)');
});

test('R7: one type spelled two ways is refused with the overloads, saying so', () => {
  refused('void main(float4 p);\n[RootSignature("CBV(b0)")] void main(vector<float, 4> p) {}\n', 'hlsl-ambiguous', /one type spelled two ways is refused too/);
});

test('R8: an unclosed namespace or struct, a stray }, deep nesting: a typed error at the place, never a guess', () => {
  refused('namespace N {\n[RootSignature("CBV(b0)")]\nvoid main() {}\n', 'hlsl-syntax', /expected '}': this '\{' is never closed/, 'e.hlsl:1:13');
  refused('struct S {\n[RootSignature("CBV(b0)")] void main() {}\n', 'hlsl-syntax', /never closed/, 'e.hlsl:1:10');
  refused('[RootSignature("CBV(b0)")] void main() {}\n}\n', 'hlsl-syntax', /extraneous closing brace/, 'e.hlsl:2:1');
  const depth = 100_000;
  refused(`void f() ${'{'.repeat(depth)}\n`, 'hlsl-syntax', /never closed/, 'e.hlsl:1:10');
  assert.is(entry(`void f() ${'{'.repeat(depth)}${'}'.repeat(depth)}\n[RootSignature("CBV(b7)")] void main() {}\n`), 'CBV(b7)');
  assert.is(entry(`${'namespace n { '.repeat(20_000)}void main() {}${' }'.repeat(20_000)}\n[RootSignature("CBV(b8)")] void main() {}\n`), 'CBV(b8)');
});

test('R8: any soup of declaration tokens gives an answer or an HlslError, nothing else', () => {
  const pieces = ['{', '}', '(', ')', '[', ']', ';', ',', '::', ':', '=', 'namespace N', 'struct S', 'template<typename T>', 'void', 'float4', 'main', 'main(', '[RootSignature("CBV(b0)")]', '[RootSignature(', 'SV_Target', '\n'];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (words) => {
      const text = words.join(' ');
      try {
        const rs = new HlslFile(text, 'soup.hlsl').entryText('main');
        assert.type(rs.text, 'string');
      } catch (e) {
        if (!(e instanceof HlslError)) throw e;
      }
    }),
    { numRuns: 3000, seed: 20261203 },
  );
});

test('R9: a linkage specification (extern "C" block or declaration) is refused, typed, at its extern: DXC\'s take on it is not read', () => {
  refused('extern "C" {\n[RootSignature("CBV(b0)")]\nvoid main() {}\n}\n', 'hlsl-syntax', /linkage specification/, 'e.hlsl:1:1');
  refused('[RootSignature("CBV(b1)")]\nextern "C" void main() {}\n', 'hlsl-syntax', /linkage specification/, 'e.hlsl:2:1');
  refused('extern "C" [RootSignature("CBV(b2)")] void main() {}\n', 'hlsl-syntax', /linkage specification/, 'e.hlsl:1:1');
  refused('void f() {}\nextern "C++" { int x; }\n[RootSignature("CBV(b3)")] void main() {}\n', 'hlsl-syntax', /linkage specification/, 'e.hlsl:2:1');
  // `extern` as HLSL's storage class is no linkage specification
  assert.is(entry('extern float4 g;\n[RootSignature("CBV(b4)")] void main() {}\n'), 'CBV(b4)');
});

test('R10: void ::main() redeclares the global function after a declaration; without one it is refused, as clang refuses it', () => {
  assert.is(entry('void main();\n[RootSignature("CBV(b0)")]\nvoid ::main() {}\n'), 'CBV(b0)');
  assert.is(entry('[RootSignature("CBV(b1)")] float main(float4 p : A);\nfloat ::main(float4 q : A) : SV_Target { return q.x; }\n'), 'CBV(b1)');
  refused('[RootSignature("CBV(b0)")]\nvoid ::main() {}\n', 'hlsl-syntax', /out-of-line definition of 'main' does not match any declaration in the global namespace: '::main' at e\.hlsl:2:8/, 'e.hlsl:2:8');
  // a name that may be a scope before `::` makes a qualified name, not the global function
  refused('[RootSignature("CBV(b0)")]\nuint ::main() { return 0; }\n', 'hlsl-missing', /the 'main' at e\.hlsl:2:8 is not one/);
  // a redefinition through the qualified name is one
  refused('void main() {}\nvoid ::main() {}\n', 'hlsl-ambiguous', /redefinition of 'main'/);
});

test('the CLI route: rootsig compile --file F -E main follows the same rules', async () => {
  const work = mkdtempSync(join(tmpdir(), 'dxbin-entry-'));
  const cli = async (...args: string[]) => {
    const s = captureStreams();
    const status = await run(args, s);
    return { status, stdout: s.stdout(), stderr: s.stderr() };
  };
  const method = join(work, 'method.hlsl');
  writeFileSync(method, 'struct S { [RootSignature("CBV(b0)")] void main() {} };\n');
  const r = await cli('rootsig', 'compile', '--file', method, '-E', 'main', '--version', '1.1', '-o', join(work, 'm.dxbc'));
  assert.is(r.status, 1);
  assert.match(r.stderr, 'missing entry point definition');
  const two = join(work, 'two.hlsl');
  writeFileSync(two, '[RootSignature("CBV(b0)")]\n[RootSignature("CBV(b1)")]\nvoid main() {}\n');
  const ok = await cli('rootsig', 'compile', '--file', two, '-E', 'main', '--version', '1.1', '-o', join(work, 't.dxbc'));
  assert.is(ok.status, 0, ok.stderr);
  const printed = await cli('rootsig', 'decompile', join(work, 't.dxbc'));
  assert.is(printed.status, 0, printed.stderr);
  assert.match(printed.stdout, /CBV\(b1/);
  assert.not.match(printed.stdout, /CBV\(b0/);
});

test.run();
