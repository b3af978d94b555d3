// The Explorer's "Draw": N independent draws of the next token from the Explorer's chain, each by
// the preset's own draw rule (the lesson's walk, llama.cpp's dist, hf's multinomial, vLLM's
// exponential race), with the chain's state as it is before the step (the context stays as
// given, mirostat keeps its starting mu). XTC at random flips its own coin per draw from its own
// generator (seeded with randomStageSeed(seed), see seed_split.h), so the expected probabilities
// are the mixture of the steps where it fires and where it does not.
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/candidate.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/stats/draw_counts.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <string>

namespace logitlab::engine {

struct ExplorerDraws {
    static constexpr std::size_t kFirstDraws = 16;
    CandidateList expected;           // tokens a draw can give, most probable first; p = chance per draw
    DrawCounts counts;                // per position in `expected`
    std::vector<std::int32_t> first;  // the token ids of the first kFirstDraws draws, in order
};

// With the lesson's own chain the draws are sample(candidates(...), rng), draw for draw.
// `stop` is polled every 4,096 draws. Errors name the field (unknown generator, chain problems).
Result<ExplorerDraws> explorerDraws(const Eigen::Ref<const Eigen::ArrayXd>& logits, const ExplorerChain& chain,
                                    std::uint64_t n, const std::string& rng, std::uint64_t seed,
                                    const std::function<bool()>& stop = {});

}  // namespace logitlab::engine
