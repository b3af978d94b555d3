// The most work one request may ask for, counted before any of it starts. A request above a
// limit is refused with a message naming the estimate and the limit, instead of running for
// hours (docs/experiments.md, "Work limits"). The unit is a step: one token looked at once
// (a draw from a table, one position of a history scanned, one logit of a vocabulary).
// Roughly 10^8 to 10^9 steps take a second on one core.
#pragma once

#include "engine/sampler/sampler_chain.h"

#include <cstdint>
#include <optional>
#include <string>

namespace logitlab::engine {

// `logitlab-cli sample`: draws times what each draw costs (see sampleSteps).
inline constexpr double kMaxSampleSteps = 1e10;
// A junk-risk run: replies x the longest length x settings draws from alias tables.
inline constexpr double kMaxJunkRiskDraws = 1e11;
// A seed sweep: seeds x draws per seed draws (a binary search each); over the steps of a file,
// steps x seeds x draws.
inline constexpr double kMaxSeedSweepDraws = 1e10;
// A summation-order run: terms summed, (methods + shuffles) x terms plus the spread's.
inline constexpr double kMaxSummationTerms = 1e10;
// A batch-invariance run: multiply-adds of the toy model's LM head, every kernel and run counted
// as if no state were shared (the most the trie can need).
inline constexpr double kMaxBatchInvarianceMultiplyAdds = 2e11;
// A loop: the chain over the vocabulary at every step (and the branch's), as sampleSteps counts.
inline constexpr double kMaxLoopWorkSteps = 1e10;

// One limit per resource beyond work, the same for every kind:
// memory a run plans to hold (its estimate, before it starts) ...
inline constexpr double kMaxRunMemoryBytes = 2.0 * 1024 * 1024 * 1024;  // 2 GiB
// ... the rows of its result tables together (each row is a CSV line and a table row in the GUI) ...
inline constexpr double kMaxOutputRows = 1'000'000;
// ... and the points of one chart (every point is laid out and drawn in each exported format).
inline constexpr double kMaxChartPoints = 50'000;

// What a run will cost, computed from its spec (and the shape of its input files) before any
// of it starts: work in the kind's own unit against the kind's limit, and the shared limits.
struct WorkEstimate {
    double work = 0.0;
    std::string unit = "steps";  // "draws", "terms summed", "multiply-adds", "model passes"
    double workLimit = 0.0;      // 0: work is not limited here (checked elsewhere)
    double memoryBytes = 0.0;
    double outputRows = 0.0;
    double chartPoints = 0.0;  // of the largest chart
};

// The first resource over its limit, as "<what>: about 5.0e13 draws of work, over the limit of
// 1.0e10 (docs/reliability.md, limits); <advice>", or nothing.
std::optional<std::string> checkEstimate(const std::string& what, const WorkEstimate& estimate,
                                         const std::string& advice);

// Numbers in those messages: below a million whole and grouped ("640,000"), above it with two
// significant digits ("5.0e13"); bytes in MiB or GiB ("4.2 GiB").
std::string readableCount(double value);
std::string readableBytes(double bytes);

// Steps `draws` draws cost. A chain without state runs once and each draw searches its
// `survivors` (log2); a stateful chain (penalties, DRY, n-gram bans, XTC, mirostat) runs again
// over the whole vocabulary before every draw, and its penalties, DRY and n-gram bans scan the
// history, which grows by one token per draw from `historyLength`.
double sampleSteps(const SamplerChain& chain, std::size_t vocabSize, std::size_t survivors, double draws,
                   std::size_t historyLength);

// "draws: about 3.2e10 steps of work, over the limit of 1.0e10 (...); advice", or nothing.
std::optional<std::string> checkWork(const std::string& what, double steps, double limit, const std::string& advice,
                                     const std::string& unit = "steps");

}  // namespace logitlab::engine
