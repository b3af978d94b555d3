// The load a request meets: the batch size at each decode step. Seeded traces are a bounded
// random walk with bursts (a server's batch drifts as requests come and go, and now and then
// jumps); a trace file is one batch size per line, and run r meets it from line r on
// (cyclically): every run is the same request arriving at another moment of the same load.
#pragma once

#include "engine/core/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

inline constexpr std::int64_t kMaxBatch = 256;

// Run `run`'s batch sizes for `steps` steps, each in 1..maxBatch, from the run's own stream.
std::vector<std::int64_t> seededLoadTrace(std::uint64_t seed, std::uint64_t run, std::int64_t steps,
                                          std::int64_t maxBatch);

// Run `run`'s view of a trace file's sizes.
std::vector<std::int64_t> fileLoadTrace(const std::vector<std::int64_t>& trace, std::uint64_t run, std::int64_t steps);

// A trace file's text: one whole batch size in 1..kMaxBatch per line, blank lines and lines
// starting with '#' skipped. Errors name the line: "line 3: batch size 0: must be 1..256".
Result<std::vector<std::int64_t>> parseLoadTrace(const std::string& text);

}  // namespace logitlab::engine
