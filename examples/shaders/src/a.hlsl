// a pixel shader whose root signature comes from two headers (rs_a.hlsli, then <common.hlsli> via -I)
#include "rs_a.hlsli"

[RootSignature(RS_A)]
float4 main() : SV_Target { return 0; }
