// Internal: what the processor running the build can do, checked once, for the kernels that have
// an AVX2 version next to the SSE2 baseline every x86-64 has (the build itself targets only SSE2).
#pragma once

namespace logitlab::engine::detail {

inline bool hasAvx2()
{
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

}  // namespace logitlab::engine::detail
