#include "cli/compare_command.h"

#include "app/text/chain_json.h"
#include "app/text/one_line_text.h"
#include "cli/candidates_command.h"
#include "cli/sampler_options.h"
#include "engine/core/number_format.h"
#include "engine/sampler/chain_divergences.h"
#include "engine/sampler/chain_evaluation.h"
#include "engine/sampler/chain_text.h"
#include "engine/sampler/cut_report.h"
#include "engine/sampler/preset_differences.h"

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

QString name(Semantics s) { return QString::fromStdString(engine::semanticsName(s)); }

std::map<std::int32_t, double> byId(const engine::CandidateList& list)
{
    std::map<std::int32_t, double> out;
    for (const auto& c : list)
        out[c.id] = c.p;
    return out;
}

}  // namespace

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
            for (const auto& note :
                 engine::roundingDependence(prepared.chain, prepared.distribution.logits, prepared.history))
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
        distribution = readDistributionOptions(parser).distribution;  // throws the input's own error, if that was it

    // The same explanation the Explorer's Compare tab shows (engine/sampler/preset_differences.h).
    std::vector<engine::Result<engine::CandidateList>> results;
    const auto& all = engine::allSemantics();
    for (Semantics s : all) {
        const PresetOutcome& o = outcomes[s];
        results.push_back(o.error.isEmpty()
                              ? engine::Result<engine::CandidateList>(o.survivors)
                              : engine::Result<engine::CandidateList>(engine::Error{o.error.toStdString()}));
    }
    struct Difference {
        Semantics a, b;
        QStringList rules;
    };
    std::vector<Difference> differences;
    for (const auto& d : engine::presetDifferences(results, request.settings, distribution.logits,
                                                   !request.history.isEmpty(), request.defaults)) {
        QStringList rules;
        for (const auto& rule : d.rules)
            rules << QString::fromStdString(rule);
        differences.push_back({d.a, d.b, rules});
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
        context.out << QJsonDocument(
                           QJsonObject{{QStringLiteral("presets"), presets}, {QStringLiteral("differences"), diffs}})
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
        context.out << QStringLiteral("%1 chain: %2\n")
                           .arg(name(s), -10)
                           .arg(o.error.isEmpty() ? o.chainText : QStringLiteral("error: ") + o.error);
    }
    context.out << QStringLiteral("%1  %2").arg(QStringLiteral("id"), 6).arg(QStringLiteral("token"), -16);
    for (Semantics s : all)
        context.out << QStringLiteral("  %1").arg(name(s), -20);
    context.out << '\n';
    for (std::int32_t id : ids) {
        context.out << QStringLiteral("%1  %2").arg(id, 6).arg(
            app::terminalText(QString::fromStdString(distribution.tokenName(id))), -16);
        for (Semantics s : all) {
            const auto found = byId(outcomes[s].survivors);
            const auto it = found.find(id);
            context.out << QStringLiteral("  %1").arg(
                it == found.end() ? QStringLiteral("-") : QString::fromStdString(engine::formatDouble(it->second)),
                -20);
        }
        context.out << '\n';
    }
    if (differences.empty())
        context.out << "all four presets agree\n";
    for (const auto& d : differences)
        context.out
            << QStringLiteral("%1 vs %2 differ: %3\n").arg(name(d.a), name(d.b), d.rules.join(QStringLiteral("; ")));
    for (Semantics s : all)
        for (const QString& w : outcomes[s].warnings)
            context.out << QStringLiteral("warning: %1: %2\n").arg(name(s), w);
    for (Semantics s : all)
        for (const QString& r : outcomes[s].rounding)
            context.out << QStringLiteral("rounding: %1: %2\n").arg(name(s), app::terminalText(r));
    return 0;
}

}  // namespace logitlab::cli
