// The arguments tst_fdlibm_exp feeds to exp(): the same integer steps as tests/node/exp_arguments.js,
// so the test and node see the same doubles without passing them through a pipe. Eight kinds in
// turn: any bit pattern, uniform over the finite range, the reduction bands' and thresholds' edges,
// the edges where k = (int)(x / ln2 +- 0.5) changes, denormal results, |x| < 2^-28, the softmax
// range [-60, 0], and a list of specials (+-0, +-inf, NaN, 1, the thresholds and their neighbours).
#pragma once

#include "engine/rng/mulberry32.h"

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

namespace logitlab::test {

inline std::vector<double> expArguments(std::size_t count, std::uint32_t seed)
{
    constexpr double ln2 = 0.6931471805599453;
    constexpr double inf = std::numeric_limits<double>::infinity();
    static constexpr std::array boundaries{
        0.34657359027997264,
        0.3465735902799727,
        1.0397207708399179,
        1.03972077083991796,
        3.725290298461914e-9,
        709.782712893384,
        745.1332191019411,
        708.3964185322641,
        707.7032713517042,
        709.0895657128241,
        744.4400719213812,
        1.0,
        2.0,
        0.5,
    };
    static const std::array specials{
        0.0,
        -0.0,
        inf,
        -inf,
        std::numeric_limits<double>::quiet_NaN(),
        1.0,
        -1.0,
        709.782712893384,
        709.7827128933841,
        -745.1332191019411,
        -745.1332191019412,
        709.0,
        709.78,
        -708.3964185322641,
        -708.39641853226420,
        -1021.5 * ln2,
        -1022 * ln2,
        -1075 * ln2,
        5e-324,
        -5e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
        -1.7976931348623157e308,
        1e-300,
        -1e-300,
    };
    constexpr std::int64_t span = 1 << 20;

    engine::Mulberry32 rng(seed);
    const auto next = [&rng]() { return rng.nextU32(); };
    const auto fromWords = [](std::uint32_t hi, std::uint32_t lo) {
        return std::bit_cast<double>((std::uint64_t{hi} << 32) | lo);
    };
    const auto addUlps = [](double x, std::int64_t ulps) {
        return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) + static_cast<std::uint64_t>(ulps));
    };
    const auto uniform = [&next](double a, double b) {
        const std::uint32_t high = next() >> 5;
        const std::uint32_t low = next() >> 6;
        const double u = (high * 67108864.0 + low) / 9007199254740992.0;
        const volatile double scaled = u * (b - a);  // rounded on its own, as in JavaScript
        return a + scaled;
    };
    const auto offset = [&next]() { return static_cast<std::int64_t>(next() % (2 * span)) - span; };

    std::vector<double> out(count);
    for (std::size_t i = 0; i < count; ++i) {
        double x = 0.0;
        switch (i % 8) {
        case 0: {
            const std::uint32_t hi = next();
            x = fromWords(hi, next());
            break;
        }
        case 1:
            x = uniform(-745.5, 710.0);
            break;
        case 2: {
            const double b = boundaries[next() % boundaries.size()];
            x = addUlps(b, offset());
            if (next() & 1)
                x = -x;
            break;
        }
        case 3: {
            const int j = static_cast<int>(next() % 2100) - 1076;
            const double base = (j + 0.5) * ln2;
            x = addUlps(base, offset());
            break;
        }
        case 4:
            x = uniform(-745.2, -708.0);
            break;
        case 5: {
            const std::uint32_t hi = (next() % 0x3e300000u);
            const std::uint32_t sign = next() & 0x80000000u;
            x = fromWords(hi | sign, next());
            break;
        }
        case 6:
            x = uniform(-60.0, 0.0);
            break;
        default:
            x = specials[(i >> 3) % specials.size()];
            break;
        }
        out[i] = x;
    }
    return out;
}

}  // namespace logitlab::test
