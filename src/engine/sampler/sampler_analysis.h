// Everything the Explorer shows about one (logits, settings) pair, from one pass of the engine:
// the probabilities at T, the survivors, the information measures, and which rule made the cut
// and where, so the UI can say "cumulative 0.918 > 0.9 after 'items'" without computing.
#pragma once

#include "engine/sampler/candidate.h"
#include "engine/sampler/sampler_settings.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

enum class CutRule {
    None,    // every token survives
    Greedy,  // T = 0: the argmax alone
    TopK,    // the k most likely were kept
    TopP,    // the running total passed p
    Chain,   // a semantics preset's chain (see explorer_chain.h) cut the vocabulary
};

struct SamplerAnalysis {
    std::vector<double> probabilities;  // softmax at T by id; one-hot on the argmax at T = 0
    CandidateList survivors;            // candidates(logits, settings)
    double entropyNats = 0.0;           // of the probabilities at T, over the whole vocabulary
    double entropyBits = 0.0;
    double perplexity = 1.0;   // exp(entropy): the effective number of choices
    double massKept = 1.0;     // probability at T of the survivors, before renormalising
    double massRemoved = 0.0;  // 1 - massKept: what the filters threw away
    double outsideTop1 = 0.0;  // chance the drawn token is not the most likely one
    CutRule rule = CutRule::None;
    double cutThreshold = 0.0;  // p for TopP, k for TopK
    // The Explorer's marks at the cuts: tokens whose fate depends on rounding (exact vs float32)
    // and tokens tied across a cut (cut_report.h), one line each; empty for analyse().
    std::vector<std::string> cutMarks;
};

// Preconditions: validateLogits(logits) and validateSettings(settings) passed.
SamplerAnalysis analyse(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& settings);

// The same result, faster when only the settings change: `order` is
// idsByDescendingLogit(logits), sorted once per set of logits (see candidates_from_order.h).
SamplerAnalysis analyse(const Eigen::Ref<const Eigen::ArrayXd>& logits, const SamplerSettings& settings,
                        const std::vector<std::int32_t>& order);

}  // namespace logitlab::engine
