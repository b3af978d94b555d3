#include "engine/experiments/reply_junk_risk.h"

#include "engine/core/number_format.h"
#include "engine/core/work_limits.h"
#include "engine/io/logits_parser.h"
#include "engine/rng/rng_factory.h"
#include "engine/rng/uniform_bits.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/wilson_interval.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace logitlab::engine {

namespace {

// Tables hold index 0 for junk; a reply's first junk step is what the risk needs, the later
// junk tokens are not counted (junkTokens stays for the shared tally type's sake).
template <class Engine>
void simulateReplies(Engine& engine, const std::vector<AliasTable>& tables, std::uint64_t replies,
                     std::vector<std::uint64_t>& firstJunk, std::vector<std::uint64_t>& junkTokens)
{
    for (std::uint64_t r = 0; r < replies; ++r) {
        bool seen = false;
        for (std::size_t t = 0; t < tables.size(); ++t) {
            // Every step is drawn, junk or not, so the stream's position does not depend on the
            // outcome (as in junk_risk.cpp).
            const bool junk = tables[t].draw(nextU64(engine)) == 0;
            junkTokens[t] += junk;
            if (junk && !seen) {
                ++firstJunk[t];
                seen = true;
            }
        }
    }
}

std::optional<std::string> validate(const ReplyJunkRiskParameters& p, const StepDistributions& steps)
{
    if (steps.count == 0)
        return "steps: the reply has no steps";
    if (steps.count > ReplyJunkRiskExperiment::kMaxSteps)
        return "steps: " + std::to_string(steps.count) + " steps, at most " +
               std::to_string(ReplyJunkRiskExperiment::kMaxSteps);
    if (!steps.logits)
        return "steps: no source of distributions";
    if (p.decoders.empty())
        return "settings: at least one decoding setting is needed";
    if (p.replies > JunkRiskExperiment::kMaxReplies)
        return "replies: at most " + std::to_string(JunkRiskExperiment::kMaxReplies);
    const double draws =
        static_cast<double>(p.replies) * static_cast<double>(steps.count) * static_cast<double>(p.decoders.size());
    if (auto tooMuch = checkWork("replies", draws, kMaxJunkRiskDraws,
                                 "use fewer replies or a shorter reply (replies x steps x settings draws)", "draws"))
        return tooMuch;
    const auto& names = rngNames();
    if (std::find(names.begin(), names.end(), p.rng) == names.end())
        return "rng: unknown generator '" + p.rng + "'";
    return std::nullopt;
}

AliasTable junkTable(double q)
{
    // Both weights 0 cannot happen (q in [0, 1]); a table needs one positive weight.
    return AliasTable(std::vector<double>{q, 1.0 - q});
}

}  // namespace

std::vector<double> cumulativeRisk(const std::vector<double>& q)
{
    std::vector<double> out;
    out.reserve(q.size());
    double closed = 0.0;  // sum of log1p(-q) over finished runs of equal q
    bool anyClosed = false;
    double runQ = 0.0;
    double runLength = 0.0;
    for (double x : q) {
        if (runLength > 0.0 && x != runQ) {
            closed += runLength * std::log1p(-runQ);
            anyClosed = true;
            runLength = 0.0;
        }
        runQ = x;
        runLength += 1.0;
        // The first run alone is exactly probabilityAtLeastOnce's expression (0.0 + -0.0 would
        // turn its +0 risk into -0).
        const double run = runLength * std::log1p(-runQ);
        out.push_back(-std::expm1(anyClosed ? closed + run : run));
    }
    return out;
}

ReplyJunkRiskExperiment::ReplyJunkRiskExperiment(ReplyJunkRiskParameters parameters, std::vector<Setting> settings,
                                                 std::vector<double> qBefore, std::vector<std::uint64_t> sourceSteps,
                                                 std::vector<std::string> chosen)
    : m_parameters(std::move(parameters)), m_settings(std::move(settings)), m_qBefore(std::move(qBefore)),
      m_sourceSteps(std::move(sourceSteps)), m_chosen(std::move(chosen))
{
    // The same split as the one-distribution experiment with lengths 1..steps.
    const auto longest = static_cast<std::uint64_t>(m_qBefore.size());
    m_repliesPerItem = std::max<std::uint64_t>(1, JunkRiskExperiment::kDrawsPerItem / longest);
    m_itemsPerSetting = static_cast<std::size_t>((m_parameters.replies + m_repliesPerItem - 1) / m_repliesPerItem);
}

Result<ReplyJunkRiskExperiment> ReplyJunkRiskExperiment::prepare(ReplyJunkRiskParameters parameters,
                                                                 const StepDistributions& steps,
                                                                 const std::function<bool()>& cancelled,
                                                                 const std::function<void(std::size_t)>& progress)
{
    if (auto message = validate(parameters, steps))
        return Error{*message};
    std::vector<Setting> settings(parameters.decoders.size());
    std::vector<double> qBefore;
    std::vector<std::uint64_t> sourceSteps;
    Eigen::Index vocabulary = -1;
    for (std::size_t t = 0; t < steps.count; ++t) {
        if (cancelled && cancelled())
            return Error{"cancelled"};
        const std::string where = "step " + std::to_string(steps.sourceStep(t)) + ": ";
        auto logits = steps.logits(t);
        if (!logits)
            return Error{logits.error()};
        const Eigen::ArrayXd& row = logits.value();
        if (vocabulary < 0)
            vocabulary = row.size();
        if (row.size() == 0 || row.size() != vocabulary)
            return Error{where + "holds " + std::to_string(row.size()) + " logits, step " +
                         std::to_string(steps.sourceStep(0)) + " " + std::to_string(vocabulary)};
        if (auto message = validateLogits(row))
            return Error{where + *message};
        const Eigen::ArrayXd model = softmax(row, 1.0);
        auto mask = junkMask(model, parameters.junk);
        if (!mask)
            return Error{where + mask.error()};
        double before = 0.0;
        for (Eigen::Index i = 0; i < model.size(); ++i)
            if (mask.value()[static_cast<std::size_t>(i)])
                before += model[i];
        qBefore.push_back(before);
        sourceSteps.push_back(steps.sourceStep(t));
        for (std::size_t s = 0; s < settings.size(); ++s) {
            const Decoder& decoder = parameters.decoders[s];
            const CandidateList list = decoder.candidates(row);
            if (list.empty())
                return Error{where + "settings: '" + decoder.label + "' keeps no token"};
            // Summed in the chain's order, as junk_risk.cpp sums its junk-first table.
            double q = 0.0;
            for (const Candidate& c : list) {
                if (!(c.p >= 0.0 && c.p <= 1.0))
                    return Error{where + "settings: '" + decoder.label + "' gives token #" + std::to_string(c.id) +
                                 " a probability that is not in [0, 1]: " + formatDouble(c.p)};
                if (mask.value()[static_cast<std::size_t>(c.id)])
                    q += c.p;
            }
            q = std::min(q, 1.0);
            settings[s].q.push_back(q);
            settings[s].tables.push_back(junkTable(q));
        }
        if (progress)
            progress(t + 1);
    }
    return ReplyJunkRiskExperiment(std::move(parameters), std::move(settings), std::move(qBefore),
                                   std::move(sourceSteps), steps.chosen);
}

std::uint64_t ReplyJunkRiskExperiment::totalDraws() const
{
    return m_parameters.replies * static_cast<std::uint64_t>(m_qBefore.size()) * m_settings.size();
}

JunkRiskCounts ReplyJunkRiskExperiment::emptyCounts() const
{
    return JunkRiskCounts::zeros(m_settings.size(), m_qBefore.size());
}

void ReplyJunkRiskExperiment::runItem(std::size_t index, JunkRiskCounts& into) const
{
    const JunkRiskItem item =
        junkRiskItem(index, m_itemsPerSetting, m_repliesPerItem, m_parameters.replies, m_parameters.seed);
    const Setting& s = m_settings[item.setting];
    withEngine(m_parameters.rng, item.seed, [&](auto& engine) {
        simulateReplies(engine, s.tables, item.replies, into.firstJunk[item.setting], into.junkTokens[item.setting]);
    });
    into.draws += item.replies * static_cast<std::uint64_t>(m_qBefore.size());
}

std::vector<ReplyJunkRiskRow> ReplyJunkRiskExperiment::rows(const JunkRiskCounts& counts) const
{
    std::vector<ReplyJunkRiskRow> rows;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t s = 0; s < m_settings.size(); ++s) {
        const std::vector<double> risk = cumulativeRisk(m_settings[s].q);
        std::uint64_t hits = 0;
        double expected = 0.0;
        for (std::size_t t = 0; t < m_qBefore.size(); ++t) {
            hits += counts.firstJunk[s][t];
            expected += m_settings[s].q[t];
            ReplyJunkRiskRow row;
            row.setting = m_parameters.decoders[s].label;
            row.chain = m_parameters.decoders[s].description;
            row.step = static_cast<std::int64_t>(t + 1);
            row.sourceStep = m_sourceSteps[t];
            row.token = t < m_chosen.size() ? m_chosen[t] : std::string();
            row.qBefore = m_qBefore[t];
            row.qAfter = m_settings[s].q[t];
            row.analytic = risk[t];
            row.expectedCount = expected;
            row.replies = m_parameters.replies;
            row.repliesWithJunk = hits;
            row.monteCarlo = row.replies ? static_cast<double>(hits) / static_cast<double>(row.replies) : nan;
            const Interval interval = wilsonInterval(hits, row.replies);
            row.low = interval.low;
            row.high = interval.high;
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

}  // namespace logitlab::engine
