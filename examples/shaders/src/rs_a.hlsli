#include <common.hlsli>
#define RS_A "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT), " COMMON_CBV ", DescriptorTable(SRV(t0, numDescriptors = 4))"
