// The built-in language model: a word-level trigram model with interpolated modified Kneser-Ney
// smoothing (Chen and Goodman 1998), read from the bytes ngram_training.h writes. Given the tokens
// so far it gives the log-probability of every token of its vocabulary as the next one: a real
// next-token distribution with a long tail, computed in O(V) per step, the same bits for the same
// prefix on every run.
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/distribution.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace logitlab::engine {

class NgramModel {
public:
    // The format's first four bytes and version (ngram_training.cpp writes them).
    static constexpr std::uint32_t kMagic = 0x474e4c4c;  // "LLNG"
    static constexpr std::uint32_t kVersion = 1;
    static constexpr int kOrder = 3;

    // Checks every count and offset; an error says what is wrong with the bytes.
    static Result<NgramModel> fromBytes(std::span<const std::uint8_t> bytes);

    std::size_t vocabSize() const { return m_tokens.size(); }
    const std::vector<std::string>& tokens() const { return m_tokens; }
    std::optional<std::int32_t> tokenId(std::string_view token) const;
    // Context ids outside the vocabulary: the start of a text, and a word the model never saw.
    std::int32_t beginId() const { return static_cast<std::int32_t>(m_tokens.size()); }
    std::int32_t unknownId() const { return beginId() + 1; }
    // The prompt's words as context ids (unknown words as unknownId()).
    std::vector<std::int32_t> contextIds(const std::vector<std::string>& words) const;

    // ln P(w | the last two ids of `context`) for every w, into `out` (vocabSize() values).
    // Ids in the context may be vocabulary ids, beginId() or unknownId(); fewer than two are
    // padded with beginId().
    void logits(std::span<const std::int32_t> context, double* out) const;
    Distribution distributionAfter(std::span<const std::int32_t> context) const;

    // The discounts D1, D2, D3+ of each level (0: unigrams, 1: bigrams, 2: trigrams).
    const std::array<double, 3>& discounts(int level) const { return m_discounts[static_cast<std::size_t>(level)]; }
    std::size_t trigramContexts() const { return m_trigramKeys.size(); }
    std::size_t bigramEntries() const { return m_bigramFollowers.size(); }
    std::size_t trigramEntries() const { return m_trigramFollowers.size(); }

private:
    NgramModel() = default;
    // One context's followers [begin, end) in a level's tables, their total and gamma (the
    // weight left for the order below).
    struct Level {
        std::size_t begin = 0;
        std::size_t end = 0;
        double total = 0.0;
        double gamma = 0.0;
    };
    Level levelOf(std::size_t begin, std::size_t end, const std::vector<std::uint32_t>& counts, int level) const;
    double discounted(const std::vector<std::uint32_t>& counts, std::size_t i, const Level& level, int order) const;
    void finishLoad();

    std::vector<std::string> m_tokens;
    std::unordered_map<std::string, std::int32_t> m_ids;
    std::vector<std::uint32_t> m_unigramCounts;  // N1+(. w): distinct left neighbours
    std::vector<std::uint32_t> m_bigramOffsets;  // per context id (V + 2 of them) + 1
    std::vector<std::uint32_t> m_bigramFollowers;
    std::vector<std::uint32_t> m_bigramCounts;    // N1+(. v w)
    std::vector<std::uint64_t> m_trigramKeys;     // u * (V + 2) + v, ascending
    std::vector<std::uint32_t> m_trigramOffsets;  // per key + 1
    std::vector<std::uint32_t> m_trigramFollowers;
    std::vector<std::uint32_t> m_trigramCounts;  // c(u v w)
    std::array<std::array<double, 3>, 3> m_discounts{};
    std::vector<double> m_unigram;     // P1(w), interpolated with 1 / V
    std::vector<double> m_logUnigram;  // ln P1(w)
};

}  // namespace logitlab::engine
