// Declarations of the import forms of dxbin/rollup, for TypeScript: add "dxbin/rollup-modules" to
// compilerOptions.types (or `/// <reference types="dxbin/rollup-modules" />`). TypeScript matches
// module names with one wildcard, so an HLSL import with parameters ends with `rootsig`:
//     import rs from './bindless.hlsl?define=BindlessRS&version=1.1&rootsig';

declare module '*.rs.hlsl' {
  const rootSignature: import('dxbin/rollup').RootSignatureModule;
  export default rootSignature;
  export const blob: Uint8Array;
  export const rawBlob: Uint8Array;
  export const json: unknown;
  export const hlsl: string;
  export const version: '1.0' | '1.1' | '1.2';
}
declare module '*&rootsig' {
  const rootSignature: import('dxbin/rollup').RootSignatureModule;
  export default rootSignature;
  export const blob: Uint8Array;
  export const rawBlob: Uint8Array;
  export const json: unknown;
  export const hlsl: string;
  export const version: '1.0' | '1.1' | '1.2';
}
declare module '*.cso?rootsig' {
  const shader: import('dxbin/rollup').ShaderModuleInfo;
  export default shader;
  export const parts: import('dxbin/rollup').ShaderModuleInfo['parts'];
  export const digest: import('dxbin/rollup').ShaderModuleInfo['digest'];
  export const rootSignature: import('dxbin/rollup').ShaderModuleInfo['rootSignature'];
}
declare module '*.dxil?rootsig' {
  const shader: import('dxbin/rollup').ShaderModuleInfo;
  export default shader;
  export const parts: import('dxbin/rollup').ShaderModuleInfo['parts'];
  export const digest: import('dxbin/rollup').ShaderModuleInfo['digest'];
  export const rootSignature: import('dxbin/rollup').ShaderModuleInfo['rootSignature'];
}
declare module '*.dxbc?rootsig' {
  const shader: import('dxbin/rollup').ShaderModuleInfo;
  export default shader;
  export const parts: import('dxbin/rollup').ShaderModuleInfo['parts'];
  export const digest: import('dxbin/rollup').ShaderModuleInfo['digest'];
  export const rootSignature: import('dxbin/rollup').ShaderModuleInfo['rootSignature'];
}
