// Where a chain's cuts hang on a hair: the tokens whose fate depends on rounding (kept by the
// library's float32 arithmetic and cut in exact arithmetic, or the reverse), with what each
// arithmetic compared, and the tokens tied with one on the other side of a cut (LogitLab keeps
// the lower ids; docs/semantics.md, "Arithmetic" and "Ties at a cut").
#pragma once

#include "engine/sampler/cut_note.h"
#include "engine/sampler/sampler_chain.h"

#include <Eigen/Core>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct RoundingNote {
    std::int32_t id = 0;
    bool keptByLibrary = false;  // kept by float32 and cut in exact arithmetic, or the reverse
    bool noted = false;          // a cut stage decided it (its notes below); else another stage did
    CutNote library;             // what each arithmetic compared at the stage that decided
    CutNote exact;
};

struct TieNote {
    std::string stage;
    double logit = 0.0;
    std::vector<std::int32_t> kept;  // the lower ids, by LogitLab's rule
    std::vector<std::int32_t> cut;
};

// Runs `chain` on `logits` in both arithmetics (the lesson has one: nothing differs) and lists
// the tokens that survive in one and not in the other, lowest id first.
std::vector<RoundingNote> roundingDependence(const SamplerChain& chain, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                             const std::vector<std::int32_t>& history = {});

// Ties across a cut in one run of `chain` (in its own arithmetic).
std::vector<TieNote> tiesAtCuts(const SamplerChain& chain, const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                const std::vector<std::int32_t>& history = {});

using TokenNamer = std::function<std::string(std::int32_t)>;

// "token 4 (b): kept by float32, cut in exact arithmetic: top-p running total float32
// 0.200000003 (cut 0.199999988), exact 0.2 (cut 0.2)".
std::string describeRounding(const RoundingNote& note, const TokenNamer& name);
// "top-p: tie at logit 1: kept 2 (c), cut 5 (f) (LogitLab keeps the lower ids)".
std::string describeTie(const TieNote& tie, const TokenNamer& name);

}  // namespace logitlab::engine
