// binary-parser ships types that its package.json "exports" does not expose under nodenext
// resolution; the tests use it untyped.
declare module 'binary-parser' {
  export const Parser: any;
  export type Parser = any;
}
