// Whole replies under many seeds, counted: which distinct replies came out, how many seeds gave
// each (and which), where each seed's reply first differs from the reference reply, and how
// the number of distinct replies grows with the number of seeds. Descriptive counts only: no
// test statistic, so nothing here can be invalid for a small run.
//
// The reference is the most common reply (ties: the one whose first seed comes first in the
// sweep's order), not the first seed's: a first seed that happens to draw a rare reply would
// otherwise make every other seed "differ at step 0", which says nothing about the others.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace logitlab::engine {

struct DistinctReply {
    std::vector<std::int32_t> tokens;
    std::vector<std::uint64_t> seeds;            // in the sweep's order; the count is seeds.size()
    std::optional<std::size_t> firstDifference;  // from the reference; none for the reference itself
};

struct ReplyCensus {
    std::vector<DistinctReply> replies;  // most seeds first, ties by first seed; [0] is the reference
    std::vector<std::size_t> replyOf;    // per seed (sweep order): index into replies
    std::vector<std::optional<std::size_t>> firstDifference;  // per seed; none: identical to the reference
    std::vector<std::uint64_t> firstDifferenceHistogram;      // seeds per step 0..length-1 where they first differ
    std::vector<std::uint64_t> distinctAfter;                 // [k]: distinct replies among the first k + 1 seeds
};

// The first index where the two differ; the shorter length when one is a prefix of the other;
// none when equal.
std::optional<std::size_t> firstDifference(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b);

// `replies[i]` is the reply of `seeds[i]`; both non-empty and of the same size. `length` sizes
// the histogram (the reply length asked for).
ReplyCensus countReplies(const std::vector<std::uint64_t>& seeds, const std::vector<std::vector<std::int32_t>>& replies,
                         std::size_t length);

}  // namespace logitlab::engine
