// Internal: what the processor running the build can do, checked once, for the kernels that have
// an AVX2 version next to the SSE2 baseline every x86-64 has (the build itself targets only SSE2).
#pragma once

namespace logitlab::engine::detail {

inline bool hasAvx2()
{
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

// AVX2 with FMA: the exact quotient by a constant (constant_quotient.h) needs both.
inline bool hasAvx2Fma()
{
    static const bool has = hasAvx2() && __builtin_cpu_supports("fma");
    return has;
}

}  // namespace logitlab::engine::detail
