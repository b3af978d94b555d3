#include "compare_command.h"

#include "candidates_command.h"
#include "chain_divergences.h"
#include "chain_evaluation.h"
#include "chain_json.h"
#include "chain_text.h"
#include "cut_report.h"
#include "number_format.h"
#include "sampler_options.h"
#include "temperature_stage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <map>
#include <set>

namespace logitlab::cli {

namespace {

using engine::Semantics;

struct PresetOutcome {
    QString error;  // set when the preset rejects the settings
    engine::CandidateList survivors;
    QJsonArray chain;
    QString chainText;
    QStringList warnings;  // llama.cpp's own divergences this chain reaches (chain_divergences.h)
    QStringList rounding;  // tokens whose fate depends on the arithmetic (cut_report.h)
};

QString name(Semantics s)
{
    return QString::fromStdString(engine::semanticsName(s));
}

bool temperatureLast(Semantics s)
{
    return s == Semantics::LlamaCpp;
}

// True when the k-th largest logit is tied with a logit just outside the top k.
bool tieAtCut(const Eigen::ArrayXd& logits, double k)
{
    if (k < 1 || k >= static_cast<double>(logits.size()))
        return false;
    std::vector<double> sorted(logits.begin(), logits.end());
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const auto i = static_cast<std::size_t>(k);
    return sorted[i - 1] == sorted[i];
}

std::map<std::int32_t, double> byId(const engine::CandidateList& list)
{
    std::map<std::int32_t, double> out;
    for (const auto& c : list)
        out[c.id] = c.p;
    return out;
}

bool sameSurvivors(const PresetOutcome& a, const PresetOutcome& b)
{
    const auto x = byId(a.survivors);
    const auto y = byId(b.survivors);
    if (x.size() != y.size())
        return false;
    for (const auto& [id, p] : x) {
        const auto found = y.find(id);
        if (found == y.end() || std::abs(found->second - p) > 1e-9)
            return false;
    }
    return true;
}

}  // namespace

QStringList explainDifference(Semantics a, Semantics b, const ChainRequest& request, const Eigen::ArrayXd& logits)
{
    const auto& s = request.settings;
    const auto involves = [&](Semantics x) { return a == x || b == x; };
    QStringList rules;
    if (s.temperature && *s.temperature == 0.0)
        rules << QStringLiteral("D2 temperature 0: greedy over the survivors (llama.cpp), the lesson's greedy, "
                                "vllm's greedy, rejected (hf)");
    if (s.temperature && *s.temperature > 0.0 && *s.temperature < engine::TemperatureStage::kVllmMinTemperature
        && involves(Semantics::Vllm))
        rules << QStringLiteral("vllm temperature floor: vLLM raises a temperature in (0, 0.01) to 0.01");
    const bool shapeFilters = s.topP || s.minP || s.typical || s.epsilon || s.eta || s.xtcProbability;
    if (s.temperature && *s.temperature != 1.0 && shapeFilters && temperatureLast(a) != temperatureLast(b))
        rules << QStringLiteral("D1 temperature placement: llama.cpp applies it last, after the filters; the "
                                "others apply it first, so the filters see the tempered distribution");
    if (s.topK && tieAtCut(logits, *s.topK)
        && ((a == Semantics::Hf || a == Semantics::Vllm) != (b == Semantics::Hf || b == Semantics::Vllm)))
        rules << QStringLiteral("D3 top-k ties: hf and vllm keep every token tied with the k-th logit; the "
                                "lesson and llama.cpp keep exactly k");
    if (s.topP && involves(Semantics::Lesson))
        rules << QStringLiteral("top-p boundary: the lesson needs the running total to exceed p, the libraries "
                                "stop as soon as it reaches p");
    if (s.topP && s.topK && involves(Semantics::Lesson))
        rules << QStringLiteral("top-p after top-k: the lesson sums the probabilities from before top-k, the "
                                "libraries renormalise over the top k first");
    if (s.minP && s.topK && involves(Semantics::Vllm))
        rules << QStringLiteral("vllm order: min-p runs before top-k and top-p");
    if (s.typical && a != Semantics::Vllm && b != Semantics::Vllm)
        rules << QStringLiteral("D4 typical boundary: llama.cpp stops at a total > p, hf at >= p and keeps ties "
                                "on the boundary score");
    if ((s.repeatPenalty || s.frequencyPenalty || s.presencePenalty) && !request.history.isEmpty())
        rules << QStringLiteral("D7 penalty scope: llama.cpp looks at the last penalty-last-n tokens, hf and vllm "
                                "at the whole history");
    if (s.minKeep && (involves(Semantics::Hf) || involves(Semantics::LlamaCpp)))
        rules << QStringLiteral("min_keep: llama.cpp and hf apply it to different samplers");
    if (request.defaults)
        rules << QStringLiteral("--defaults: each library has its own default values");
    return rules;
}

int runCompare(CommandContext& context, const QCommandLineParser& parser, const ChainRequest& request, bool json)
{
    std::map<Semantics, PresetOutcome> outcomes;
    engine::Distribution distribution;
    bool haveDistribution = false;
    for (Semantics s : engine::allSemantics()) {
        PresetOutcome& o = outcomes[s];
        try {
            PreparedChain prepared = prepareChain(parser, request, s);
            engine::SamplerContext samplerContext;
            samplerContext.history = prepared.history;
            o.survivors = engine::evaluateChain(prepared.chain, prepared.distribution.logits, samplerContext);
            o.chain = app::chainToJson(prepared.chain, true);
            o.chainText = QString::fromStdString(engine::formatChain(prepared.chain, true));
            for (const std::string& w : engine::llamaCppDivergences(prepared.chain))
                o.warnings << QString::fromStdString(w);
            const auto namer = [&prepared](std::int32_t id) { return prepared.distribution.tokenName(id); };
            for (const auto& note : engine::roundingDependence(prepared.chain, prepared.distribution.logits, prepared.history))
                o.rounding << QString::fromStdString(engine::describeRounding(note, namer));
            if (!haveDistribution) {
                distribution = prepared.distribution;
                haveDistribution = true;
            }
        } catch (const UsageError& e) {
            o.error = e.message;
        }
    }
    if (!haveDistribution)
        distribution = readDistributionOptions(parser);  // throws the input's own error, if that was it

    struct Difference {
        Semantics a, b;
        QStringList rules;
    };
    std::vector<Difference> differences;
    const auto& all = engine::allSemantics();
    for (std::size_t i = 0; i < all.size(); ++i)
        for (std::size_t j = i + 1; j < all.size(); ++j) {
            const PresetOutcome& x = outcomes[all[i]];
            const PresetOutcome& y = outcomes[all[j]];
            if (x.error.isEmpty() != y.error.isEmpty()) {
                differences.push_back({all[i], all[j],
                                       {QStringLiteral("D5/D8 validation and availability: %1 rejects these settings")
                                            .arg(name(x.error.isEmpty() ? all[j] : all[i]))}});
                continue;
            }
            if (!x.error.isEmpty() || sameSurvivors(x, y))
                continue;
            QStringList rules = explainDifference(all[i], all[j], request, distribution.logits);
            if (rules.isEmpty())
                rules << QStringLiteral("order or float rounding (see docs/semantics.md)");
            differences.push_back({all[i], all[j], rules});
        }

    if (json) {
        QJsonObject presets;
        for (Semantics s : all) {
            const PresetOutcome& o = outcomes[s];
            if (!o.error.isEmpty())
                presets.insert(name(s), QJsonObject{{QStringLiteral("error"), o.error}});
            else {
                QJsonObject preset{{QStringLiteral("survivors"), survivorsJson(o.survivors, distribution)},
                                   {QStringLiteral("chain"), o.chain}};
                if (!o.warnings.isEmpty())
                    preset.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(o.warnings));
                if (!o.rounding.isEmpty())
                    preset.insert(QStringLiteral("rounding"), QJsonArray::fromStringList(o.rounding));
                presets.insert(name(s), preset);
            }
        }
        QJsonArray diffs;
        for (const auto& d : differences)
            diffs.append(QJsonObject{{QStringLiteral("presets"), QJsonArray{name(d.a), name(d.b)}},
                                     {QStringLiteral("rules"), QJsonArray::fromStringList(d.rules)}});
        context.out << QJsonDocument(QJsonObject{{QStringLiteral("presets"), presets},
                                                 {QStringLiteral("differences"), diffs}})
                           .toJson(QJsonDocument::Compact)
                    << '\n';
        return 0;
    }

    // One row per token that survives anywhere, one column of p per preset.
    std::set<std::int32_t> ids;
    for (const auto& [s, o] : outcomes)
        for (const auto& c : o.survivors)
            ids.insert(c.id);
    for (Semantics s : all) {
        const PresetOutcome& o = outcomes[s];
        context.out << QStringLiteral("%1 chain: %2\n").arg(name(s), -10).arg(o.error.isEmpty() ? o.chainText
                                                                                           : QStringLiteral("error: ") + o.error);
    }
    context.out << QStringLiteral("%1  %2").arg(QStringLiteral("id"), 6).arg(QStringLiteral("token"), -16);
    for (Semantics s : all)
        context.out << QStringLiteral("  %1").arg(name(s), -20);
    context.out << '\n';
    for (std::int32_t id : ids) {
        context.out << QStringLiteral("%1  %2").arg(id, 6).arg(QString::fromStdString(distribution.tokenName(id)), -16);
        for (Semantics s : all) {
            const auto found = byId(outcomes[s].survivors);
            const auto it = found.find(id);
            context.out << QStringLiteral("  %1").arg(it == found.end() ? QStringLiteral("-")
                                                                        : QString::fromStdString(engine::formatDouble(it->second)),
                                                      -20);
        }
        context.out << '\n';
    }
    if (differences.empty())
        context.out << "all four presets agree\n";
    for (const auto& d : differences)
        context.out << QStringLiteral("%1 vs %2 differ: %3\n").arg(name(d.a), name(d.b), d.rules.join(QStringLiteral("; ")));
    for (Semantics s : all)
        for (const QString& w : outcomes[s].warnings)
            context.out << QStringLiteral("warning: %1: %2\n").arg(name(s), w);
    for (Semantics s : all)
        for (const QString& r : outcomes[s].rounding)
            context.out << QStringLiteral("rounding: %1: %2\n").arg(name(s), r);
    return 0;
}

}  // namespace logitlab::cli
