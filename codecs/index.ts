export * from './container.js';
export * from './root-signature.js';
export type { EnumTable, FlagTable } from './enum-table.js';
export * from './shader-flags.js';
