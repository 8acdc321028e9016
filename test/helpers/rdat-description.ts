/** A small RDAT library description for the hostile-input tests: one resource, one function, a hit group, each part editable. */
import type { RdatDescription } from '../../src/rdat/index.js';

export type Rec = Record<string, unknown>;
export type Parts = { strings: Rec; resource: Rec; fn: Rec; hitGroup: Rec; parts: Rec[] };

/** The description, `edit` given each part to change first. */
export function described(edit: (p: Parts) => void = () => {}): RdatDescription {
  const strings: Rec = { type: 'StringBuffer', strings: ['', 'tex', 'rg', 'ch', ''] };
  const resource: Rec = { Class: 1, Kind: 2, ID: 0, Space: 0, LowerBound: 3, UpperBound: 3, Name: 'tex', Flags: 0 };
  const fn: Rec = { Name: 'rg', UnmangledName: 'rg', Resources: [0], FunctionDependencies: null, ShaderKind: 7, PayloadSizeInBytes: 0, AttributeSizeInBytes: 0, FeatureInfo1: 0, FeatureInfo2: 0, ShaderStageFlag: 0, MinShaderTarget: 0x70063 };
  const hitGroup: Rec = { Kind: 11, Name: 'hg', Type: 0, AnyHit: '', ClosestHit: 'ch', Intersection: '' };
  const parts: Rec[] = [
    strings,
    { type: 'ResourceTable', stride: 32, records: [resource] },
    { type: 'FunctionTable', stride: 44, records: [fn] },
    { type: 'SubobjectTable', stride: 24, records: [hitGroup] },
  ];
  edit({ strings, resource, fn, hitGroup, parts });
  return { version: 16, parts } as unknown as RdatDescription;
}
