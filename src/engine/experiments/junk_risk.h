// The junk-token risk experiment: how likely an N-token reply is to contain at least one junk
// token, per decoding setting, analytically (1 - (1 - q)^N) and by Monte Carlo that samples
// real token ids through the setting's candidates.
//
// A pure computation split into fixed-size work items. Item i's replies come from their own
// stream, seeded streamSeed(streamSeed(seed, setting), block), so neither the thread count nor
// the other settings in the run change a setting's numbers. Each reply is drawn at the longest
// length and observed at every requested length (its prefixes), so all lengths cost one pass.
#pragma once

#include "engine/core/result.h"
#include "engine/experiments/decoder.h"
#include "engine/experiments/junk_definition.h"
#include "engine/rng/alias_table.h"

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace logitlab::engine {

struct JunkRiskParameters {
    Eigen::ArrayXd logits;            // the per-step distribution, the same at every step
    std::vector<std::string> tokens;  // optional names, one per logit (only for naming junk tokens)
    JunkDefinition junk;
    std::vector<Decoder> decoders;      // at least one
    std::vector<std::int64_t> lengths;  // reply lengths N: ascending, distinct, 1..kMaxLength
    std::uint64_t replies = 10000;      // Monte Carlo replies per setting (0: analytic only)
    std::uint64_t seed = 42;
    std::string rng = "mt19937_64";  // one of rngNames()
};

struct JunkRiskRow {
    std::string setting;         // the decoder's label
    std::string chain;           // the decoder's description
    std::int64_t length = 0;     // N
    double qBefore = 0.0;        // junk mass per step in the model's distribution (T = 1, no filter)
    double qAfter = 0.0;         // junk mass per step after the decoding chain
    double analytic = 0.0;       // 1 - (1 - qAfter)^N
    double expectedCount = 0.0;  // N * qAfter
    std::uint64_t replies = 0;
    std::uint64_t repliesWithJunk = 0;
    double monteCarlo = 0.0;  // repliesWithJunk / replies (NaN without replies)
    double low = 0.0;         // 95% Wilson interval of monteCarlo
    double high = 1.0;
    double meanCount = 0.0;  // junk tokens per reply in the samples (NaN without replies)
};

// The lesson's two numbers for one setting at one reply length N: the chance of at least one
// junk token and of none, from the setting's per-token junk probability q (analytic).
struct JunkRiskHighlight {
    std::string setting;
    double q = 0.0;
    std::int64_t length = 0;
    double atLeastOne = 0.0;  // 1 - (1 - q)^N
    double none = 1.0;        // (1 - q)^N, computed directly so its digits survive
    // The Monte Carlo estimate when the table holds N (NaN otherwise or without replies).
    double monteCarlo = 0.0;
};

// One highlight per setting of `rows` (in their order), at `length`.
std::vector<JunkRiskHighlight> junkRiskHighlights(const std::vector<JunkRiskRow>& rows, std::int64_t length);

// Integer tallies, indexed [setting][length]: exact, so any merge order gives the same sums.
struct JunkRiskCounts {
    std::vector<std::vector<std::uint64_t>> firstJunk;   // replies whose first junk falls in (N[j-1], N[j]]
    std::vector<std::vector<std::uint64_t>> junkTokens;  // junk tokens at positions in (N[j-1], N[j]]
    std::uint64_t draws = 0;

    void add(const JunkRiskCounts& other);
    // Zero tallies for `settings` settings of `lengths` lengths (or steps) each.
    static JunkRiskCounts zeros(std::size_t settings, std::size_t lengths);
};

// Work item `index` of a junk-risk run: its setting, how many replies it draws and the seed of
// its own stream, streamSeed(streamSeed(seed, setting), block). Shared by the one-distribution
// and the along-a-reply runs, so both split and seed their replies the same way.
struct JunkRiskItem {
    std::size_t setting = 0;
    std::uint64_t replies = 0;
    std::uint64_t seed = 0;
};
JunkRiskItem junkRiskItem(std::size_t index, std::size_t itemsPerSetting, std::uint64_t repliesPerItem,
                          std::uint64_t replies, std::uint64_t seed);

class JunkRiskExperiment {
public:
    static constexpr std::int64_t kMaxLength = 1'000'000;
    static constexpr std::uint64_t kMaxReplies = 1'000'000'000;
    // Draws per work item: small enough that an item takes well under a millisecond optimised and
    // a few in a Debug + ASan build (cancellation is checked between items),
    // large enough that scheduling costs nothing. Part of the output's definition: changing it
    // changes which replies come from which stream.
    static constexpr std::uint64_t kDrawsPerItem = std::uint64_t{1} << 16;

    // Validates, picks the junk tokens and builds each setting's alias table. `cancelled` is
    // polled between settings (a large vocabulary costs tens of ms per setting); a cancelled
    // preparation returns an error saying so.
    static Result<JunkRiskExperiment> prepare(JunkRiskParameters parameters,
                                              const std::function<bool()>& cancelled = {});

    const JunkRiskParameters& parameters() const { return m_parameters; }
    std::size_t itemCount() const { return m_itemsPerSetting * m_settings.size(); }
    std::uint64_t repliesPerItem() const { return m_repliesPerItem; }
    std::uint64_t totalDraws() const;

    JunkRiskCounts emptyCounts() const;
    // Pure: adds item `index`'s tallies to `into`. Safe to call concurrently on one experiment.
    void runItem(std::size_t index, JunkRiskCounts& into) const;
    // One row per (setting, length), settings in input order, lengths ascending.
    std::vector<JunkRiskRow> rows(const JunkRiskCounts& counts) const;

    // Per setting: the junk mass after the chain and before it (the same for every setting).
    double qAfter(std::size_t setting) const { return m_settings[setting].qAfter; }
    double qBefore() const { return m_qBefore; }
    // The junk tokens' ids, ascending (the mask the junk definition gives on this distribution).
    const std::vector<std::int32_t>& junkIds() const { return m_junkIds; }

private:
    struct Setting {
        AliasTable table;               // over the candidates, junk ones first
        std::vector<std::int32_t> ids;  // token id of each table index
        std::uint32_t junkCount = 0;    // table indices below this are junk tokens
        double qAfter = 0.0;
    };
    JunkRiskExperiment(JunkRiskParameters parameters, std::vector<Setting> settings, double qBefore,
                       std::vector<std::int32_t> junkIds);

    JunkRiskParameters m_parameters;
    std::vector<Setting> m_settings;
    double m_qBefore = 0.0;
    std::vector<std::int32_t> m_junkIds;
    std::uint64_t m_repliesPerItem = 1;
    std::size_t m_itemsPerSetting = 0;
};

}  // namespace logitlab::engine
