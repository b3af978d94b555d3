// The most work one request may ask for, counted before any of it starts. A request above a
// limit is refused with a message naming the estimate and the limit, instead of running for
// hours (docs/experiments.md, "Work limits"). The unit is a step: one token looked at once
// (a draw from a table, one position of a history scanned, one logit of a vocabulary).
// Roughly 10^8 to 10^9 steps take a second on one core.
#pragma once

#include "sampler_chain.h"

#include <cstdint>
#include <optional>
#include <string>

namespace logitlab::engine {

// `logitlab-cli sample`: draws times what each draw costs (see sampleSteps).
inline constexpr double kMaxSampleSteps = 1e10;
// A junk-risk run: replies x the longest length x settings draws from alias tables.
inline constexpr double kMaxJunkRiskDraws = 1e11;
// A seed sweep: seeds x draws per seed draws (a binary search each).
inline constexpr double kMaxSeedSweepDraws = 1e10;

// Steps `draws` draws cost. A chain without state runs once and each draw searches its
// `survivors` (log2); a stateful chain (penalties, DRY, n-gram bans, XTC, mirostat) runs again
// over the whole vocabulary before every draw, and its penalties, DRY and n-gram bans scan the
// history, which grows by one token per draw from `historyLength`.
double sampleSteps(const SamplerChain& chain, std::size_t vocabSize, std::size_t survivors, double draws,
                   std::size_t historyLength);

// "draws: about 3.2e+10 steps of work is more than the limit of 1e+10 (...)", or nothing.
std::optional<std::string> checkWork(const std::string& what, double steps, double limit, const std::string& advice);

}  // namespace logitlab::engine
