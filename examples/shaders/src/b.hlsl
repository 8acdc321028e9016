// a compute shader; its root signature uses <other.hlsli> only
#include <other.hlsli>

[RootSignature(RS_B)]
[numthreads(8, 8, 1)]
void main() {}
