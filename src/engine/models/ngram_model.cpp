#include "engine/models/ngram_model.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

namespace {

class ByteReader {
public:
    explicit ByteReader(std::span<const std::uint8_t> bytes) : m_bytes(bytes) {}
    bool u32(std::uint32_t& v)
    {
        if (m_bytes.size() - m_at < 4)
            return false;
        v = 0;
        for (int i = 0; i < 4; ++i)
            v |= static_cast<std::uint32_t>(m_bytes[m_at + static_cast<std::size_t>(i)]) << (8 * i);
        m_at += 4;
        return true;
    }
    bool text(std::string& s)
    {
        std::uint32_t n = 0;
        if (!u32(n) || m_bytes.size() - m_at < n)
            return false;
        s.assign(reinterpret_cast<const char*>(m_bytes.data() + m_at), n);
        m_at += n;
        return true;
    }
    bool array(std::vector<std::uint32_t>& values)
    {
        std::uint32_t n = 0;
        if (!u32(n) || (m_bytes.size() - m_at) / 4 < n)
            return false;
        values.resize(n);
        for (std::uint32_t& v : values)
            u32(v);
        return true;
    }
    bool atEnd() const { return m_at == m_bytes.size(); }

private:
    std::span<const std::uint8_t> m_bytes;
    std::size_t m_at = 0;
};

// Modified Kneser-Ney discounts D1, D2, D3+ from the counts of counts n1..n4 (Chen and Goodman
// 1998, eq. 26), each kept in [0, k] so that a tiny corpus cannot give a negative probability.
std::array<double, 3> discountsOf(const std::vector<std::uint32_t>& counts)
{
    std::array<double, 5> n{};
    for (std::uint32_t c : counts)
        if (c >= 1 && c <= 4)
            n[c] += 1.0;
    if (n[1] == 0.0 || n[2] == 0.0)
        return {0.5, 1.0, 1.5};  // too few counts to estimate: the usual textbook values
    const double y = n[1] / (n[1] + 2.0 * n[2]);
    std::array<double, 3> d{1.0 - 2.0 * y * n[2] / n[1], n[3] > 0.0 ? 2.0 - 3.0 * y * n[3] / n[2] : 1.0,
                            n[3] > 0.0 && n[4] > 0.0 ? 3.0 - 4.0 * y * n[4] / n[3] : 1.5};
    for (std::size_t k = 0; k < 3; ++k)
        d[k] = std::clamp(d[k], 0.0, static_cast<double>(k + 1));
    return d;
}

double discountFor(const std::array<double, 3>& d, std::uint32_t count)
{
    return d[std::min<std::size_t>(count, 3) - 1];
}

bool ascendingOffsets(const std::vector<std::uint32_t>& offsets, std::size_t entries)
{
    return !offsets.empty() && offsets.front() == 0 && offsets.back() == entries &&
           std::is_sorted(offsets.begin(), offsets.end());
}

}  // namespace

Result<NgramModel> NgramModel::fromBytes(std::span<const std::uint8_t> bytes)
{
    const auto bad = [](const std::string& what) { return Error{"built-in model: " + what}; };
    ByteReader in(bytes);
    std::uint32_t magic = 0;
    std::uint32_t version = 0;
    std::uint32_t v = 0;
    if (!in.u32(magic) || magic != kMagic)
        return bad("not a LogitLab n-gram model");
    if (!in.u32(version) || version != kVersion)
        return bad("unknown format version " + std::to_string(version));
    if (!in.u32(v) || v == 0 || v > (1u << 24))
        return bad("vocabulary size out of range");
    NgramModel m;
    m.m_tokens.resize(v);
    for (std::string& token : m.m_tokens)
        if (!in.text(token))
            return bad("truncated vocabulary");
    std::vector<std::uint32_t> keyFirst;
    std::vector<std::uint32_t> keySecond;
    if (!in.array(m.m_unigramCounts) || !in.array(m.m_bigramOffsets) || !in.array(m.m_bigramFollowers) ||
        !in.array(m.m_bigramCounts) || !in.array(keyFirst) || !in.array(keySecond) || !in.array(m.m_trigramOffsets) ||
        !in.array(m.m_trigramFollowers) || !in.array(m.m_trigramCounts) || !in.atEnd())
        return bad("truncated or trailing data");
    const std::uint64_t contexts = std::uint64_t{v} + 2;
    const auto inVocabulary = [v](std::uint32_t id) { return id < v; };
    const auto positive = [](std::uint32_t c) { return c > 0; };
    if (m.m_unigramCounts.size() != v || m.m_bigramOffsets.size() != contexts + 1 ||
        m.m_bigramCounts.size() != m.m_bigramFollowers.size() ||
        !ascendingOffsets(m.m_bigramOffsets, m.m_bigramFollowers.size()) ||
        !std::all_of(m.m_bigramFollowers.begin(), m.m_bigramFollowers.end(), inVocabulary) ||
        !std::all_of(m.m_bigramCounts.begin(), m.m_bigramCounts.end(), positive))
        return bad("inconsistent bigram tables");
    if (keyFirst.size() != keySecond.size() || m.m_trigramOffsets.size() != keyFirst.size() + 1 ||
        m.m_trigramCounts.size() != m.m_trigramFollowers.size() ||
        !ascendingOffsets(m.m_trigramOffsets, m.m_trigramFollowers.size()) ||
        !std::all_of(m.m_trigramFollowers.begin(), m.m_trigramFollowers.end(), inVocabulary) ||
        !std::all_of(m.m_trigramCounts.begin(), m.m_trigramCounts.end(), positive))
        return bad("inconsistent trigram tables");
    for (std::size_t i = 0; i < keyFirst.size(); ++i) {
        if (keyFirst[i] >= contexts || keySecond[i] >= contexts)
            return bad("trigram context out of range");
        m.m_trigramKeys.push_back(std::uint64_t{keyFirst[i]} * contexts + keySecond[i]);
    }
    if (!std::is_sorted(m.m_trigramKeys.begin(), m.m_trigramKeys.end()) ||
        std::adjacent_find(m.m_trigramKeys.begin(), m.m_trigramKeys.end()) != m.m_trigramKeys.end())
        return bad("trigram contexts not in order");
    if (std::none_of(m.m_unigramCounts.begin(), m.m_unigramCounts.end(), positive))
        return bad("no unigram counts");
    m.finishLoad();
    return m;
}

void NgramModel::finishLoad()
{
    for (std::size_t i = 0; i < m_tokens.size(); ++i)
        m_ids.emplace(m_tokens[i], static_cast<std::int32_t>(i));
    m_discounts[0] = discountsOf(m_unigramCounts);
    m_discounts[1] = discountsOf(m_bigramCounts);
    m_discounts[2] = discountsOf(m_trigramCounts);
    // P1(w) = max(N1+(. w) - D, 0) / total + gamma / V: every token keeps some probability.
    double total = 0.0;
    std::array<double, 3> buckets{};
    for (std::uint32_t c : m_unigramCounts) {
        total += c;
        if (c > 0)
            buckets[std::min<std::size_t>(c, 3) - 1] += 1.0;
    }
    const auto& d = m_discounts[0];
    const double gamma = (d[0] * buckets[0] + d[1] * buckets[1] + d[2] * buckets[2]) / total;
    const double uniform = 1.0 / static_cast<double>(m_tokens.size());
    m_unigram.resize(m_tokens.size());
    for (std::size_t w = 0; w < m_tokens.size(); ++w) {
        const std::uint32_t c = m_unigramCounts[w];
        m_unigram[w] = (c > 0 ? std::max(c - discountFor(d, c), 0.0) / total : 0.0) + gamma * uniform;
        m_logUnigram.push_back(std::log(m_unigram[w]));
    }
}

std::optional<std::int32_t> NgramModel::tokenId(std::string_view token) const
{
    const auto found = m_ids.find(std::string(token));
    if (found == m_ids.end())
        return std::nullopt;
    return found->second;
}

std::vector<std::int32_t> NgramModel::contextIds(const std::vector<std::string>& words) const
{
    std::vector<std::int32_t> ids;
    ids.reserve(words.size());
    for (const std::string& word : words)
        ids.push_back(tokenId(word).value_or(unknownId()));
    return ids;
}

NgramModel::Level NgramModel::levelOf(std::size_t begin, std::size_t end, const std::vector<std::uint32_t>& counts,
                                      int level) const
{
    // gamma = the discounts taken / the context's total: the weight of the lower order.
    const auto& d = m_discounts[static_cast<std::size_t>(level)];
    double total = 0.0;
    double taken = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
        total += counts[i];
        taken += discountFor(d, counts[i]);
    }
    return {begin, end, total, taken / total};
}

double NgramModel::discounted(const std::vector<std::uint32_t>& counts, std::size_t i, const Level& level,
                              int order) const
{
    const auto& d = m_discounts[static_cast<std::size_t>(order)];
    return std::max(counts[i] - discountFor(d, counts[i]), 0.0) / level.total;
}

void NgramModel::logits(std::span<const std::int32_t> context, double* out) const
{
    // P(w | u v) = a3(w) + g3 (a2(w) + g2 P1(w)), with a the discounted counts of the followers
    // seen after the context (zero for the rest). A token no context has seen gets
    // ln(g3 g2) + ln P1(w): one addition per token, and logarithms only for the few followers.
    const std::size_t n = m_tokens.size();
    const auto contexts = static_cast<std::uint64_t>(n) + 2;
    const auto idAt = [&](std::size_t back) -> std::uint64_t {
        if (context.size() < back)
            return static_cast<std::uint64_t>(beginId());
        const std::int32_t id = context[context.size() - back];
        return id >= 0 && static_cast<std::uint64_t>(id) < contexts ? static_cast<std::uint64_t>(id)
                                                                    : static_cast<std::uint64_t>(unknownId());
    };
    const std::uint64_t u = idAt(2);
    const std::uint64_t v = idAt(1);
    const std::uint32_t b0 = m_bigramOffsets[v];
    const std::uint32_t b1 = m_bigramOffsets[v + 1];
    if (b1 == b0) {
        std::copy(m_logUnigram.begin(), m_logUnigram.end(), out);
        return;
    }
    const Level bigram = levelOf(b0, b1, m_bigramCounts, 1);
    std::optional<Level> trigram;
    const std::uint64_t key = u * contexts + v;
    if (const auto found = std::lower_bound(m_trigramKeys.begin(), m_trigramKeys.end(), key);
        found != m_trigramKeys.end() && *found == key) {
        const auto k = static_cast<std::size_t>(found - m_trigramKeys.begin());
        trigram = levelOf(m_trigramOffsets[k], m_trigramOffsets[k + 1], m_trigramCounts, 2);
    }
    const double g3 = trigram ? trigram->gamma : 1.0;
    const double unseen = std::log(g3 * bigram.gamma);
    for (std::size_t w = 0; w < n; ++w)
        out[w] = unseen + m_logUnigram[w];
    // Both follower lists are sorted by id, and every trigram follower is a bigram follower.
    std::size_t t = trigram ? trigram->begin : 0;
    const std::size_t tEnd = trigram ? trigram->end : 0;
    for (std::size_t i = bigram.begin; i < bigram.end; ++i) {
        const std::uint32_t w = m_bigramFollowers[i];
        double p = g3 * (discounted(m_bigramCounts, i, bigram, 1) + bigram.gamma * m_unigram[w]);
        if (t < tEnd && m_trigramFollowers[t] == w) {
            p += discounted(m_trigramCounts, t, *trigram, 2);
            ++t;
        }
        out[w] = std::log(p);
    }
}

Distribution NgramModel::distributionAfter(std::span<const std::int32_t> context) const
{
    Distribution d;
    d.tokens = m_tokens;
    d.logits.resize(static_cast<Eigen::Index>(m_tokens.size()));
    logits(context, d.logits.data());
    return d;
}

}  // namespace logitlab::engine
