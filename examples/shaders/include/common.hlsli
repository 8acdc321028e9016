#define COMMON_CBV "CBV(b0)"
