/**
 * State-object verification of DXIL libraries (docs/formats/rdat.md, "State objects"): the rules
 * the runtime applies in CreateStateObject, one row each, with the DXR spec section they come from
 * (microsoft/DirectX-Specs d3d/Raytracing.md) and the message ({placeholders} filled per case).
 */

/** Stable codes of the state-object rules. */
export type StateObjectViolationCode =
  | 'duplicate-export'
  | 'duplicate-subobject'
  | 'unresolved-subobject'
  | 'unresolved-export'
  | 'conflicting-associations'
  | 'conflicting-defaults'
  | 'hit-group-mismatch'
  | 'hit-group-member-missing'
  | 'hit-group-member-kind'
  | 'hit-group-intersection'
  | 'global-root-signature-is-local'
  | 'local-root-signature-not-local'
  | 'root-signature-undecodable'
  | 'binding-not-covered'
  | 'binding-covered-twice'
  | 'root-descriptor-refuses'
  | 'resource-heap-not-indexable'
  | 'sampler-heap-not-indexable'
  | 'no-shader-config'
  | 'payload-too-large'
  | 'attributes-too-large'
  | 'attribute-limit'
  | 'shader-configs-differ'
  | 'local-root-arguments-without-local-root-signature';

export const STATE_OBJECT_RULES: readonly { readonly code: StateObjectViolationCode; readonly spec: string; readonly message: string }[] = [
  { code: 'duplicate-export', spec: 'State object creation', message: 'export {export} is defined in {other} (function {otherIndex}) and again in {library} (function {index})' },
  { code: 'duplicate-subobject', spec: 'Subobjects', message: 'subobject {subobject} is defined in {other} (SubobjectTable[{otherIndex}], {otherKind}) and again in {library} (SubobjectTable[{index}], {kind})' },
  { code: 'unresolved-subobject', spec: 'Explicit associations', message: 'association {association} names subobject {subobject}, which no library of the state object defines' },
  { code: 'unresolved-export', spec: 'Explicit associations', message: 'association {association} names export {export}, which no library of the state object defines' },
  { code: 'conflicting-associations', spec: 'Conflicting subobject associations', message: 'export {export} is explicitly associated with {type} subobjects {subobjects}' },
  { code: 'conflicting-defaults', spec: 'Default associations', message: 'export {export} gets {type} subobjects {subobjects} by default association in {library}' },
  { code: 'hit-group-mismatch', spec: 'Subobject associations for hit groups', message: 'hit group {hitGroup} has {type} {subobject} but its member {export} has {other}' },
  { code: 'hit-group-member-missing', spec: 'Hit groups', message: 'hit group {hitGroup} names {role} shader {export}, which no library of the state object defines' },
  { code: 'hit-group-member-kind', spec: 'Hit groups', message: 'hit group {hitGroup} names {export} as its {role} shader, but it is a {kind} shader' },
  { code: 'hit-group-intersection', spec: 'Hit groups', message: 'hit group {hitGroup}: {detail}' },
  { code: 'global-root-signature-is-local', spec: 'D3D12_GLOBAL_ROOT_SIGNATURE', message: 'global root signature {subobject} has the LOCAL_ROOT_SIGNATURE flag' },
  { code: 'local-root-signature-not-local', spec: 'D3D12_LOCAL_ROOT_SIGNATURE', message: 'local root signature {subobject} lacks the LOCAL_ROOT_SIGNATURE flag' },
  { code: 'root-signature-undecodable', spec: 'D3D12_GLOBAL_ROOT_SIGNATURE', message: 'root signature {subobject} does not decode: {detail}' },
  {
    code: 'binding-not-covered',
    spec: 'D3D12_GLOBAL_ROOT_SIGNATURE',
    message: 'export {export}: {binding} is not bound by its global root signature {global} nor its local root signature {local}',
  },
  { code: 'binding-covered-twice', spec: 'D3D12_GLOBAL_ROOT_SIGNATURE', message: 'export {export}: {binding} is bound by both its global root signature {global} ({globalPath}) and its local root signature {local} ({localPath})' },
  { code: 'root-descriptor-refuses', spec: 'Root signature (DXC verifier)', message: 'export {export}: {binding} ({kind}) is on root descriptor {path} of {subobject}; SRV or UAV root descriptors can only be raw or structured buffers' },
  { code: 'resource-heap-not-indexable', spec: 'Root signature (runtime verifier)', message: 'export {export} (global root signature {global}): {message}' },
  { code: 'sampler-heap-not-indexable', spec: 'Root signature (runtime verifier)', message: 'export {export} (global root signature {global}): {message}' },
  { code: 'no-shader-config', spec: 'D3D12_RAYTRACING_SHADER_CONFIG', message: 'export {export} ({kind}) has no RaytracingShaderConfig' },
  { code: 'payload-too-large', spec: 'D3D12_RAYTRACING_SHADER_CONFIG', message: 'export {export} uses a {size}-byte payload, more than MaxPayloadSizeInBytes = {max} of {subobject}' },
  { code: 'attributes-too-large', spec: 'D3D12_RAYTRACING_SHADER_CONFIG', message: 'export {export} uses {size} bytes of attributes, more than MaxAttributeSizeInBytes = {max} of {subobject}' },
  { code: 'attribute-limit', spec: 'D3D12_RAYTRACING_SHADER_CONFIG', message: 'shader config {subobject}: MaxAttributeSizeInBytes = {max} exceeds D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES = 32' },
  { code: 'shader-configs-differ', spec: 'D3D12_RAYTRACING_SHADER_CONFIG', message: 'exports use shader configs that do not match: {subobjects}' },
  {
    code: 'local-root-arguments-without-local-root-signature',
    spec: 'Work graphs: local root arguments',
    message: 'node {export} reads local root arguments (table index {index}) but has no local root signature',
  },
];

/** D3D12_RAYTRACING_MAX_ATTRIBUTE_SIZE_IN_BYTES. */
export const MAX_ATTRIBUTE_SIZE = 32;

/** The associable subobject kinds, grouped as association conflicts count them (config and config1 are one type). */
export const ASSOCIATION_TYPE: Readonly<Record<string, string>> = {
  StateObjectConfig: 'StateObjectConfig',
  GlobalRootSignature: 'GlobalRootSignature',
  LocalRootSignature: 'LocalRootSignature',
  RaytracingShaderConfig: 'RaytracingShaderConfig',
  RaytracingPipelineConfig: 'RaytracingPipelineConfig',
  RaytracingPipelineConfig1: 'RaytracingPipelineConfig',
};

/** Hit group members: the field, the role's name, and the shader kind it must name. */
export const HIT_GROUP_MEMBERS = [
  { field: 'AnyHit', role: 'any-hit', kind: 'AnyHit' },
  { field: 'ClosestHit', role: 'closest-hit', kind: 'ClosestHit' },
  { field: 'Intersection', role: 'intersection', kind: 'Intersection' },
] as const;

/** Ray-tracing shader kinds (they need a shader config), and which of them carry a payload and attributes within it. */
export const RAY_TRACING_KINDS: Readonly<Record<string, { payload: boolean; attributes: boolean }>> = {
  RayGeneration: { payload: false, attributes: false },
  Intersection: { payload: false, attributes: true },
  AnyHit: { payload: true, attributes: true },
  ClosestHit: { payload: true, attributes: true },
  Miss: { payload: true, attributes: false },
  Callable: { payload: false, attributes: false },
};
