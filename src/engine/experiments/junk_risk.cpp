#include "engine/experiments/junk_risk.h"

#include "engine/core/number_format.h"
#include "engine/core/work_limits.h"
#include "engine/io/logits_parser.h"
#include "engine/rng/rng_factory.h"
#include "engine/rng/seed_split.h"
#include "engine/rng/uniform_bits.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/statistics.h"
#include "engine/stats/wilson_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

namespace {

// The hot loop, inlined per engine type: one 64-bit word and one alias-table read per token.
// The table lists junk candidates first, so "is it junk" is index < junkCount, with no second
// memory read. Tallies go to local counters; the caller's vectors are touched once per segment.
template <class Engine>
void simulateReplies(Engine& engine, const AliasTable& table, std::uint32_t junkCount,
                     const std::vector<std::int64_t>& lengths, std::uint64_t replies,
                     std::vector<std::uint64_t>& firstJunk, std::vector<std::uint64_t>& junkTokens)
{
    for (std::uint64_t r = 0; r < replies; ++r) {
        bool seen = false;
        std::int64_t position = 0;
        for (std::size_t j = 0; j < lengths.size(); ++j) {
            std::uint64_t count = 0;
            for (const std::int64_t end = lengths[j]; position < end; ++position)
                count += table.draw(nextU64(engine)) < junkCount;
            junkTokens[j] += count;
            if (!seen && count != 0) {
                ++firstJunk[j];
                seen = true;
            }
        }
    }
}

std::optional<std::string> validate(const JunkRiskParameters& p)
{
    if (p.logits.size() == 0)
        return "logits: the distribution is empty";
    if (p.logits.size() > std::numeric_limits<std::int32_t>::max())
        return "logits: too many tokens";
    if (auto message = validateLogits(p.logits))
        return message;
    if (!p.tokens.empty() && p.tokens.size() != static_cast<std::size_t>(p.logits.size()))
        return "tokens: " + std::to_string(p.tokens.size()) + " names for " + std::to_string(p.logits.size()) +
               " logits";
    if (p.decoders.empty())
        return "settings: at least one decoding setting is needed";
    if (p.lengths.empty())
        return "lengths: at least one reply length is needed";
    for (std::size_t i = 0; i < p.lengths.size(); ++i) {
        if (p.lengths[i] < 1 || p.lengths[i] > JunkRiskExperiment::kMaxLength)
            return "lengths: " + std::to_string(p.lengths[i]) + " is outside 1.." +
                   std::to_string(JunkRiskExperiment::kMaxLength);
        if (i > 0 && p.lengths[i] <= p.lengths[i - 1])
            return "lengths: must be ascending without repeats";
    }
    if (p.replies > JunkRiskExperiment::kMaxReplies)
        return "replies: at most " + std::to_string(JunkRiskExperiment::kMaxReplies);
    const double draws =
        static_cast<double>(p.replies) * static_cast<double>(p.lengths.back()) * static_cast<double>(p.decoders.size());
    if (auto tooMuch =
            checkWork("replies", draws, kMaxJunkRiskDraws,
                      "use fewer replies or shorter lengths (replies x longest length x settings draws)", "draws"))
        return tooMuch;
    const auto& names = rngNames();
    if (std::find(names.begin(), names.end(), p.rng) == names.end())
        return "rng: unknown generator '" + p.rng + "'";
    return std::nullopt;
}

}  // namespace

void JunkRiskCounts::add(const JunkRiskCounts& other)
{
    for (std::size_t s = 0; s < firstJunk.size(); ++s)
        for (std::size_t j = 0; j < firstJunk[s].size(); ++j) {
            firstJunk[s][j] += other.firstJunk[s][j];
            junkTokens[s][j] += other.junkTokens[s][j];
        }
    draws += other.draws;
}

JunkRiskCounts JunkRiskCounts::zeros(std::size_t settings, std::size_t lengths)
{
    const std::vector<std::uint64_t> zero(lengths, 0);
    return JunkRiskCounts{std::vector(settings, zero), std::vector(settings, zero), 0};
}

JunkRiskItem junkRiskItem(std::size_t index, std::size_t itemsPerSetting, std::uint64_t repliesPerItem,
                          std::uint64_t replies, std::uint64_t seed)
{
    JunkRiskItem item;
    item.setting = index / itemsPerSetting;
    const std::uint64_t block = index % itemsPerSetting;
    item.replies = std::min(repliesPerItem, replies - block * repliesPerItem);
    item.seed = streamSeed(streamSeed(seed, item.setting), block);
    return item;
}

JunkRiskExperiment::JunkRiskExperiment(JunkRiskParameters parameters, std::vector<Setting> settings, double qBefore,
                                       std::vector<std::int32_t> junkIds)
    : m_parameters(std::move(parameters)), m_settings(std::move(settings)), m_qBefore(qBefore),
      m_junkIds(std::move(junkIds))
{
    const auto longest = static_cast<std::uint64_t>(m_parameters.lengths.back());
    m_repliesPerItem = std::max<std::uint64_t>(1, kDrawsPerItem / longest);
    m_itemsPerSetting = static_cast<std::size_t>((m_parameters.replies + m_repliesPerItem - 1) / m_repliesPerItem);
}

Result<JunkRiskExperiment> JunkRiskExperiment::prepare(JunkRiskParameters parameters,
                                                       const std::function<bool()>& cancelled)
{
    if (auto message = validate(parameters))
        return Error{*message};
    const Eigen::ArrayXd model = softmax(parameters.logits, 1.0);
    auto mask = junkMask(model, parameters.junk);
    if (!mask)
        return Error{mask.error()};
    double qBefore = 0.0;
    std::vector<std::int32_t> junkIds;
    for (Eigen::Index i = 0; i < model.size(); ++i)
        if (mask.value()[static_cast<std::size_t>(i)]) {
            qBefore += model[i];
            junkIds.push_back(static_cast<std::int32_t>(i));
        }

    std::vector<Setting> settings;
    for (const Decoder& decoder : parameters.decoders) {
        if (cancelled && cancelled())
            return Error{"cancelled"};
        const CandidateList list = decoder.candidates(parameters.logits);
        if (list.empty())
            return Error{"settings: '" + decoder.label + "' keeps no token"};
        // An alias table over NaN weights draws garbage (a Monte Carlo of 20% junk where the truth
        // is 0): refuse rather than report it. The chain itself keeps probabilities finite.
        for (const Candidate& c : list)
            if (!(c.p >= 0.0 && c.p <= 1.0))
                return Error{"settings: '" + decoder.label + "' gives token #" + std::to_string(c.id) +
                             " a probability that is not in [0, 1]: " + formatDouble(c.p)};
        // Junk candidates first, then the rest, each in the chain's order: a relabelling that
        // leaves the distribution unchanged and makes the junk test a comparison.
        CandidateList ordered = list;
        const auto firstClean = std::stable_partition(ordered.begin(), ordered.end(), [&](const Candidate& c) {
            return mask.value()[static_cast<std::size_t>(c.id)] != 0;
        });
        const auto junkCount = static_cast<std::uint32_t>(firstClean - ordered.begin());
        std::vector<double> weights(ordered.size());
        std::vector<std::int32_t> ids(ordered.size());
        double qAfter = 0.0;
        for (std::size_t i = 0; i < ordered.size(); ++i) {
            weights[i] = ordered[i].p;
            ids[i] = ordered[i].id;
            if (i < junkCount)
                qAfter += ordered[i].p;
        }
        settings.push_back(Setting{AliasTable(weights), std::move(ids), junkCount, qAfter});
    }
    return JunkRiskExperiment(std::move(parameters), std::move(settings), qBefore, std::move(junkIds));
}

std::uint64_t JunkRiskExperiment::totalDraws() const
{
    return m_parameters.replies * static_cast<std::uint64_t>(m_parameters.lengths.back()) * m_settings.size();
}

JunkRiskCounts JunkRiskExperiment::emptyCounts() const
{
    return JunkRiskCounts::zeros(m_settings.size(), m_parameters.lengths.size());
}

void JunkRiskExperiment::runItem(std::size_t index, JunkRiskCounts& into) const
{
    const JunkRiskItem item =
        junkRiskItem(index, m_itemsPerSetting, m_repliesPerItem, m_parameters.replies, m_parameters.seed);
    const Setting& s = m_settings[item.setting];
    withEngine(m_parameters.rng, item.seed, [&](auto& engine) {
        simulateReplies(engine, s.table, s.junkCount, m_parameters.lengths, item.replies, into.firstJunk[item.setting],
                        into.junkTokens[item.setting]);
    });
    into.draws += item.replies * static_cast<std::uint64_t>(m_parameters.lengths.back());
}

std::vector<JunkRiskRow> JunkRiskExperiment::rows(const JunkRiskCounts& counts) const
{
    std::vector<JunkRiskRow> rows;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t s = 0; s < m_settings.size(); ++s) {
        std::uint64_t hits = 0;
        std::uint64_t tokens = 0;
        for (std::size_t j = 0; j < m_parameters.lengths.size(); ++j) {
            hits += counts.firstJunk[s][j];
            tokens += counts.junkTokens[s][j];
            JunkRiskRow row;
            row.setting = m_parameters.decoders[s].label;
            row.chain = m_parameters.decoders[s].description;
            row.length = m_parameters.lengths[j];
            row.qBefore = m_qBefore;
            row.qAfter = m_settings[s].qAfter;
            row.analytic = probabilityAtLeastOnce(row.qAfter, static_cast<double>(row.length));
            row.expectedCount = static_cast<double>(row.length) * row.qAfter;
            row.replies = m_parameters.replies;
            row.repliesWithJunk = hits;
            const double n = static_cast<double>(row.replies);
            row.monteCarlo = row.replies ? static_cast<double>(hits) / n : nan;
            const Interval interval = wilsonInterval(hits, row.replies);
            row.low = interval.low;
            row.high = interval.high;
            row.meanCount = row.replies ? static_cast<double>(tokens) / n : nan;
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

std::vector<JunkRiskHighlight> junkRiskHighlights(const std::vector<JunkRiskRow>& rows, std::int64_t length)
{
    std::vector<JunkRiskHighlight> out;
    const double n = static_cast<double>(length);
    std::int64_t previous = 0;
    for (const JunkRiskRow& row : rows) {
        // Lengths ascend within a setting, so a length that does not marks the next setting
        // (labels may repeat).
        const bool next = out.empty() || row.length <= previous;
        previous = row.length;
        if (next) {
            JunkRiskHighlight h;
            h.setting = row.setting;
            h.q = row.qAfter;
            h.length = length;
            h.atLeastOne = probabilityAtLeastOnce(row.qAfter, n);
            h.none = probabilityNever(row.qAfter, n);
            h.monteCarlo = std::numeric_limits<double>::quiet_NaN();
            out.push_back(std::move(h));
        }
        if (row.length == length && row.replies)
            out.back().monteCarlo = row.monteCarlo;
    }
    return out;
}

}  // namespace logitlab::engine
