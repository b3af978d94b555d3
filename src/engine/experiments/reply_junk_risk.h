// Junk risk along a reply: the distribution changes at every step, so the chance of at least
// one junk token in the first n tokens is 1 - prod_{t<=n} (1 - q_t), where q_t is the
// probability that step t's sampled token is junk under a decoding setting (after its chain).
// Analytic, and by Monte Carlo: replies drawn step by step, each step junk with its q_t.
//
// The reply is given (teacher-forced: an imported dump's steps, or a reply the built-in model
// already generated), so step t's distribution does not depend on what the Monte Carlo draws and
// its junk event is a Bernoulli(q_t). Each step is drawn from a two-entry alias table {junk q_t,
// the rest 1 - q_t}, the same draw the one-distribution experiment (junk_risk.h) makes from its
// junk-first table; with the same q at every step both give the same numbers, bit for bit.
//
// Work items and streams as in junk_risk.h: item i's replies come from streamSeed(streamSeed(
// seed, setting), block), tallies are integers, so any thread count gives the same result.
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/decoder.h"
#include "engine/experiments/junk_definition.h"
#include "engine/experiments/junk_risk.h"
#include "engine/experiments/step_distributions.h"
#include "engine/rng/alias_table.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct ReplyJunkRiskParameters {
    JunkDefinition junk;            // judged on each step's own T = 1 distribution
    std::vector<Decoder> decoders;  // at least one (stateless chains)
    std::uint64_t replies = 10000;  // Monte Carlo replies per setting (0: analytic only)
    std::uint64_t seed = 42;
    std::string rng = "mt19937_64";  // one of rngNames()
};

struct ReplyJunkRiskRow {
    std::string setting;           // the decoder's label
    std::string chain;             // the decoder's description
    std::int64_t step = 0;         // n: the first n tokens of the reply (1-based)
    std::uint64_t sourceStep = 0;  // the source's number for this step (a file's row)
    std::string token;             // the reply's token at this step, when known
    double qBefore = 0.0;          // junk mass at this step in the model's distribution
    double qAfter = 0.0;           // q_t: junk mass at this step after the setting's chain
    double analytic = 0.0;         // 1 - prod_{t<=n} (1 - q_t)
    double expectedCount = 0.0;    // sum_{t<=n} q_t
    std::uint64_t replies = 0;
    std::uint64_t repliesWithJunk = 0;  // replies with junk among their first n tokens
    double monteCarlo = 0.0;            // repliesWithJunk / replies (NaN without replies)
    double low = 0.0;                   // 95% Wilson interval of monteCarlo
    double high = 1.0;
};

class ReplyJunkRiskExperiment {
public:
    static constexpr std::size_t kMaxSteps = 100'000;

    // Reads every step once, in order (`steps.logits`), computes q_t per setting and keeps only
    // those numbers. `progress(done)` after each step; `cancelled` polled between steps (an
    // error "cancelled" then). Errors name the step: "step 3: ...".
    static Result<ReplyJunkRiskExperiment> prepare(ReplyJunkRiskParameters parameters, const StepDistributions& steps,
                                                   const std::function<bool()>& cancelled = {},
                                                   const std::function<void(std::size_t)>& progress = {});

    const ReplyJunkRiskParameters& parameters() const { return m_parameters; }
    std::size_t stepCount() const { return m_qBefore.size(); }
    std::size_t itemCount() const { return m_itemsPerSetting * m_settings.size(); }
    std::uint64_t totalDraws() const;

    // Indexed [setting][step]: firstJunk counts replies whose first junk token is at that step.
    JunkRiskCounts emptyCounts() const;
    // Pure: adds item `index`'s tallies to `into`. Safe to call concurrently.
    void runItem(std::size_t index, JunkRiskCounts& into) const;
    // One row per (setting, step), settings in input order, steps ascending.
    std::vector<ReplyJunkRiskRow> rows(const JunkRiskCounts& counts) const;

    double qAfter(std::size_t setting, std::size_t step) const { return m_settings[setting].q[step]; }
    double qBefore(std::size_t step) const { return m_qBefore[step]; }

private:
    struct Setting {
        std::vector<double> q;           // q_t per step
        std::vector<AliasTable> tables;  // per step: index 0 junk (q_t), 1 the rest
    };
    ReplyJunkRiskExperiment(ReplyJunkRiskParameters parameters, std::vector<Setting> settings,
                            std::vector<double> qBefore, std::vector<std::uint64_t> sourceSteps,
                            std::vector<std::string> chosen);

    ReplyJunkRiskParameters m_parameters;
    std::vector<Setting> m_settings;
    std::vector<double> m_qBefore;
    std::vector<std::uint64_t> m_sourceSteps;
    std::vector<std::string> m_chosen;
    std::uint64_t m_repliesPerItem = 1;
    std::size_t m_itemsPerSetting = 0;
};

// The cumulative risk 1 - prod (1 - q_t) after each step, in log space so tiny q keep their
// digits. Runs of equal q are multiplied out as n * log1p(-q), so a constant q gives exactly
// probabilityAtLeastOnce(q, n).
std::vector<double> cumulativeRisk(const std::vector<double>& q);

}  // namespace logitlab::engine
