#define RS_B "RootConstants(num32BitConstants = 4, b0), UAV(u0)"
