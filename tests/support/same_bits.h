// Bit-for-bit equality, as "the same bits" means it in LogitLab's claims: +0 and -0 differ, and
// NaNs are the same only with the same payload. Shared by the kernel, transformer and format
// suites.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

namespace logitlab::test {

inline bool sameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
inline bool sameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

template <class T>
bool sameBits(std::span<const T> a, std::span<const T> b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace logitlab::test
