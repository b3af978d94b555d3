// Internal: a histogram of the exps e = exp(l/T - max) of the lesson's softmax, by quarter octave,
// for candidates(): it bounds the top-k / top-p prefix so only the few ids that can survive are
// divided and sorted. candidates() fills it from a sample of the exps, then from the ids that
// sample points to (and from every exp only when that does not bound the cut).
//
// p = e / sum orders like e, and the bit pattern of a positive double orders like its value, so
// dropping low mantissa bits gives monotone buckets of a quarter octave each: bucket 0 holds the
// largest exps (the largest is exp(0) = 1), the last everything below 2^-64 of it.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace logitlab::engine::detail {

struct ExpHistogram {
    static constexpr int kBucketShift = 50;  // keep the exponent and the top two mantissa bits
    static constexpr std::size_t kBuckets = 256;
    static constexpr std::uint64_t kTopKey = std::bit_cast<std::uint64_t>(1.0) >> kBucketShift;
    // Four interleaved histograms: consecutive ids often share a bucket, and one histogram would
    // chain every update on the previous one through memory.
    static constexpr std::size_t kWays = 4;

    std::array<std::array<double, kBuckets>, kWays> mass{};
    std::array<std::array<std::uint32_t, kBuckets>, kWays> count{};

    static std::size_t bucketOf(double e)
    {
        const std::uint64_t key = std::bit_cast<std::uint64_t>(e) >> kBucketShift;
        return static_cast<std::size_t>(std::min<std::uint64_t>(kTopKey - key, kBuckets - 1));
    }

    // The smallest exp bucket `b` holds.
    static double lowerBound(std::size_t b) { return std::bit_cast<double>((kTopKey - b) << kBucketShift); }

    // Adds exps e[0..n); the way is the id's position in its group of four.
    void add(const double* e, std::size_t n)
    {
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t w = i % kWays;
            const std::size_t b = bucketOf(e[i]);
            mass[w][b] += e[i];
            ++count[w][b];
        }
    }
};

}  // namespace logitlab::engine::detail
