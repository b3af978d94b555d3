#include "engine/models/ngram_training.h"

#include "engine/models/ngram_model.h"
#include "engine/models/word_tokens.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace logitlab::engine {

namespace {

class ByteWriter {
public:
    void u32(std::uint32_t v)
    {
        for (int shift = 0; shift < 32; shift += 8)
            m_bytes.push_back(static_cast<std::uint8_t>(v >> shift));
    }
    void text(const std::string& s)
    {
        u32(static_cast<std::uint32_t>(s.size()));
        m_bytes.insert(m_bytes.end(), s.begin(), s.end());
    }
    void array(const std::vector<std::uint32_t>& values)
    {
        u32(static_cast<std::uint32_t>(values.size()));
        for (std::uint32_t v : values)
            u32(v);
    }
    std::vector<std::uint8_t> take() { return std::move(m_bytes); }

private:
    std::vector<std::uint8_t> m_bytes;
};

}  // namespace

std::vector<std::uint8_t> trainNgramModel(const std::vector<std::string>& documents)
{
    std::vector<std::vector<std::string>> tokenized;
    std::map<std::string, std::uint64_t> rawCounts;
    for (const std::string& document : documents) {
        tokenized.push_back(wordTokens(document));
        for (const std::string& token : tokenized.back())
            ++rawCounts[token];
    }
    std::vector<std::pair<std::string, std::uint64_t>> vocabulary(rawCounts.begin(), rawCounts.end());
    std::stable_sort(vocabulary.begin(), vocabulary.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::unordered_map<std::string, std::uint32_t> ids;
    for (std::size_t i = 0; i < vocabulary.size(); ++i)
        ids.emplace(vocabulary[i].first, static_cast<std::uint32_t>(i));

    const auto v = static_cast<std::uint64_t>(vocabulary.size());
    const std::uint64_t contexts = v + 2;  // the vocabulary, begin-of-text, unknown
    const auto begin = static_cast<std::uint32_t>(v);
    // Trigram counts keyed (u * C + v) * C + w, so the map's order groups them by context.
    std::map<std::uint64_t, std::uint32_t> trigrams;
    for (const auto& tokens : tokenized) {
        std::uint32_t a = begin;
        std::uint32_t b = begin;
        for (const std::string& token : tokens) {
            const std::uint32_t w = ids.at(token);
            ++trigrams[(a * contexts + b) * contexts + w];
            a = b;
            b = w;
        }
    }
    // Kneser-Ney's lower orders count distinct left neighbours, not occurrences.
    std::map<std::uint64_t, std::uint32_t> bigrams;  // v * C + w -> N1+(. v w)
    for (const auto& [key, count] : trigrams)
        ++bigrams[key % (contexts * contexts)];
    std::vector<std::uint32_t> unigramCounts(v, 0);
    for (const auto& [key, count] : bigrams)
        ++unigramCounts[key % contexts];

    std::vector<std::uint32_t> bigramOffsets(contexts + 1, 0);
    std::vector<std::uint32_t> bigramFollowers;
    std::vector<std::uint32_t> bigramCounts;
    for (const auto& [key, count] : bigrams) {
        ++bigramOffsets[key / contexts + 1];
        bigramFollowers.push_back(static_cast<std::uint32_t>(key % contexts));
        bigramCounts.push_back(count);
    }
    for (std::size_t i = 1; i < bigramOffsets.size(); ++i)
        bigramOffsets[i] += bigramOffsets[i - 1];

    std::vector<std::uint32_t> keyFirst;
    std::vector<std::uint32_t> keySecond;
    std::vector<std::uint32_t> trigramOffsets{0};
    std::vector<std::uint32_t> trigramFollowers;
    std::vector<std::uint32_t> trigramCounts;
    for (const auto& [key, count] : trigrams) {
        const std::uint64_t context = key / contexts;
        const auto u = static_cast<std::uint32_t>(context / contexts);
        const auto w1 = static_cast<std::uint32_t>(context % contexts);
        if (keyFirst.empty() || keyFirst.back() != u || keySecond.back() != w1) {
            if (!keyFirst.empty())
                trigramOffsets.push_back(static_cast<std::uint32_t>(trigramFollowers.size()));
            keyFirst.push_back(u);
            keySecond.push_back(w1);
        }
        trigramFollowers.push_back(static_cast<std::uint32_t>(key % contexts));
        trigramCounts.push_back(count);
    }
    trigramOffsets.push_back(static_cast<std::uint32_t>(trigramFollowers.size()));
    if (keyFirst.empty())
        trigramOffsets = {0};

    ByteWriter out;
    out.u32(NgramModel::kMagic);
    out.u32(NgramModel::kVersion);
    out.u32(static_cast<std::uint32_t>(v));
    for (const auto& [token, count] : vocabulary)
        out.text(token);
    out.array(unigramCounts);
    out.array(bigramOffsets);
    out.array(bigramFollowers);
    out.array(bigramCounts);
    out.array(keyFirst);
    out.array(keySecond);
    out.array(trigramOffsets);
    out.array(trigramFollowers);
    out.array(trigramCounts);
    return out.take();
}

}  // namespace logitlab::engine
