#include "app/kinds/explorer_run.h"

#include "app/kinds/explorer_provenance.h"

#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/sampler_settings.h"
#include "engine/sampler/semantics.h"
#include "engine/stats/pooled_fit_test.h"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace logitlab::app {

namespace {

QString number(double v) { return QString::fromStdString(engine::formatDouble(v)); }

// The `count` most likely ids (ties: lower id first).
std::vector<std::int32_t> topIds(const engine::PreparedDistribution& table, int count)
{
    const auto n = std::min<std::size_t>(table.byLogit.size(), static_cast<std::size_t>(count));
    return {table.byLogit.begin(), table.byLogit.begin() + static_cast<std::ptrdiff_t>(n)};
}

QString tokenName(const engine::PreparedDistribution& table, std::int32_t id)
{
    return QString::fromStdString(table.distribution.tokens[static_cast<std::size_t>(id)]);
}

}  // namespace

QString explorerChainText(const engine::ExplorerChain& c)
{
    if (!c.lessonOnly()) {
        QString text =
            QString::fromStdString(engine::semanticsName(c.semantics) + ": " + engine::describeExplorerChain(c)) +
            QObject::tr(" → renormalise → draw");
        if (c.xtcAtRandom())
            text += QObject::tr(" (XTC fires with probability %1: shown firing)").arg(number(*c.stages.xtcProbability));
        return text;
    }
    const auto& s = c.lesson;
    if (s.temperature == 0.0)
        return QObject::tr("temperature 0 → argmax (top-k and top-p have nothing to cut)");
    QStringList stages{QObject::tr("temperature %1").arg(number(s.temperature))};
    if (s.topK)
        stages << QObject::tr("top-k %1").arg(*s.topK);
    if (s.topP)
        stages << QObject::tr("top-p %1").arg(number(*s.topP));
    stages << QObject::tr("renormalise") << QObject::tr("draw");
    return stages.join(QStringLiteral(" → "));
}

QString explorerSweepFilters(const engine::ExplorerChain& chain)
{
    QStringList filters;
    const auto& swept = chain.lesson;
    if (!chain.lessonOnly())
        filters << QString::fromStdString(engine::semanticsName(chain.semantics));
    if (swept.topK)
        filters << QObject::tr("top-k %1").arg(*swept.topK);
    if (swept.topP)
        filters << QObject::tr("top-p %1").arg(number(*swept.topP));
    for (const auto& field : engine::chainSettingFields())
        if (const auto& value = chain.stages.*field.field)
            filters << QStringLiteral("%1 %2").arg(QString::fromLatin1(field.name), number(*value));
    if (!chain.stages.arithmetic.empty())
        filters << QObject::tr("%1 arithmetic").arg(QString::fromStdString(chain.stages.arithmetic));
    return filters.isEmpty() ? QObject::tr("no filter") : filters.join(QObject::tr(", "));
}

engine::Result<ExplorerRun> runExplorer(ExplorerState state, const QString& source, const WorkControl& control)
{
    const auto fail = [&source](const std::string& message) {
        return engine::Error{(source + QStringLiteral(": ")).toStdString() + message};
    };
    const auto stop = [&control] { return control.isCancelled && control.isCancelled(); };
    ExplorerRun run;
    auto table = std::make_shared<engine::PreparedDistribution>(engine::prepareDistribution(state.distribution));
    if (table->problem)
        return fail("logits: " + *table->problem);
    if (auto problem =
            engine::validateExplorerChain(state.chain, static_cast<std::size_t>(table->distribution.logits.size())))
        return fail("sampler: " + *problem);
    const auto& logits = table->distribution.logits;
    if (control.started)
        control.started(4);
    run.analysis = std::make_shared<const engine::SamplerAnalysis>(
        engine::analyseExplorerChain(logits, state.chain, table->byLogit));
    if (control.progress)
        control.progress(1);

    // The sweep varies T itself; the rest of the chain stays.
    engine::ExplorerChain atOne = state.chain;
    atOne.lesson.temperature = 1.0;
    run.tracked = topIds(*table, kExplorerTrackedTokens);
    run.sweep = engine::explorerChainSweep(logits, atOne, engine::sweepTemperatures(), run.tracked, stop);
    if (control.progress)
        control.progress(2);

    if (!run.analysis->survivors.empty() && state.draws > 0) {
        auto draws = engine::explorerDraws(logits, state.chain, static_cast<std::uint64_t>(state.draws),
                                           state.rng.toStdString(), state.seed, stop);
        if (!draws)
            return fail(draws.error());
        run.draws = std::move(draws).value();
        std::vector<double> expected;
        for (const auto& c : run.draws.expected)
            expected.push_back(c.p);
        const engine::PooledFit fit = engine::pooledChiSquare(run.draws.counts.counts, expected);
        if (fit.test)
            run.drawsPValue = fit.test->pValue;
        run.drawsTest = QString::fromStdString(fit.describe());
    }
    if (control.progress)
        control.progress(3);

    run.compared = topIds(*table, kExplorerComparedTokens);
    run.compare = engine::compareSemantics(logits, state.chain);
    if (control.progress)
        control.progress(4);
    run.table = std::move(table);
    run.state = std::move(state);
    return run;
}

const std::vector<ResultColumn>& explorerTokenColumns()
{
    using Kind = ResultColumn::Kind;
    static const std::vector<ResultColumn> columns{
        {QStringLiteral("token_id"), QObject::tr("id"), Kind::Integer, {}, QObject::tr("The token's id.")},
        {QStringLiteral("token"), QObject::tr("token"), Kind::Text, {}, QObject::tr("The token's text.")},
        {QStringLiteral("logit"), QObject::tr("logit"), Kind::Real, {}, QObject::tr("The model's raw score.")},
        {QStringLiteral("p"),
         QObject::tr("p at T"),
         Kind::Real,
         {},
         QObject::tr("Softmax of the logits divided by the temperature.")},
        {QStringLiteral("survivor"),
         QObject::tr("survivor"),
         Kind::Integer,
         {},
         QObject::tr("Whether the token survives the chain's filters (1: yes, 0: cut).")},
        {QStringLiteral("p_renormalised"),
         QObject::tr("renormalised p"),
         Kind::Real,
         {},
         QObject::tr("The survivor's share after the survivors are rescaled to sum to 1.")},
        {QStringLiteral("rank"),
         QObject::tr("rank"),
         Kind::Integer,
         {},
         QObject::tr("Position by probability, 1 = most likely.")},
    };
    return columns;
}

const ResultColumn& explorerTokenColumn(const QString& name)
{
    const auto& columns = explorerTokenColumns();
    const auto it =
        std::find_if(columns.begin(), columns.end(), [&name](const ResultColumn& c) { return c.name == name; });
    Q_ASSERT(it != columns.end());
    return *it;
}

ResultTable explorerTokenTable(std::shared_ptr<const engine::PreparedDistribution> table,
                               std::shared_ptr<const engine::SamplerAnalysis> analysis)
{
    // Position of each id among the survivors (-1: cut), so a cell is O(1).
    auto position = std::make_shared<std::vector<int>>(table->distribution.tokens.size(), -1);
    for (std::size_t i = 0; i < analysis->survivors.size(); ++i)
        (*position)[static_cast<std::size_t>(analysis->survivors[i].id)] = static_cast<int>(i);
    ResultTable t;
    t.title = QObject::tr("Tokens");
    t.rows = table->distribution.tokens.size();
    t.columns = explorerTokenColumns();
    // The cells, in the declaration's order.
    const std::vector<std::function<QVariant(std::size_t)>> cells{
        [](std::size_t i) { return QVariant(qint64(i)); },
        [table](std::size_t i) { return QVariant(QString::fromStdString(table->distribution.tokens[i])); },
        [table](std::size_t i) { return QVariant(table->distribution.logits[static_cast<Eigen::Index>(i)]); },
        [analysis](std::size_t i) { return QVariant(analysis->probabilities[i]); },
        [position](std::size_t i) { return QVariant(qint64((*position)[i] >= 0 ? 1 : 0)); },
        [position, analysis](std::size_t i) {
            const int s = (*position)[i];
            return QVariant(s >= 0 ? analysis->survivors[static_cast<std::size_t>(s)].p : 0.0);
        },
        [table](std::size_t i) { return QVariant(qint64(table->rank[i])); },
    };
    Q_ASSERT(cells.size() == t.columns.size());
    for (std::size_t c = 0; c < t.columns.size(); ++c)
        t.columns[c].cell = cells[c];
    return t;
}

ResultTable explorerSweepTable(const ExplorerRun& run)
{
    using Kind = ResultColumn::Kind;
    auto points = std::make_shared<const std::vector<engine::SweepPoint>>(run.sweep);
    ResultTable t;
    t.suffix = QStringLiteral("-sweep");
    t.title = QObject::tr("Temperature sweep");
    t.rows = points->size();
    t.columns = {
        columnOf(
            points, QStringLiteral("temperature"), QObject::tr("T"), Kind::Real,
            [](const engine::SweepPoint& p) { return p.temperature; }, QObject::tr("The temperature."), 2),
        columnOf(
            points, QStringLiteral("survivors"), QObject::tr("survivors"), Kind::Integer,
            [](const engine::SweepPoint& p) { return qint64(p.survivors); },
            QObject::tr("Tokens the chain keeps at this temperature.")),
    };
    for (std::size_t k = 0; k < run.tracked.size(); ++k) {
        const QString name = tokenName(*run.table, run.tracked[k]);
        t.columns.push_back({QStringLiteral("p:") + name, QObject::tr("p(%1)").arg(name), Kind::Real,
                             [points, k](std::size_t i) { return QVariant((*points)[i].tracked[k]); },
                             QObject::tr("Probability of '%1' at this temperature.").arg(name)});
    }
    return t;
}

ResultTable explorerDrawsTable(const ExplorerRun& run)
{
    using Kind = ResultColumn::Kind;
    auto draws = std::make_shared<const engine::ExplorerDraws>(run.draws);
    auto table = run.table;
    const double n = static_cast<double>(draws->counts.draws);
    ResultTable t;
    t.suffix = QStringLiteral("-draws");
    t.title = QObject::tr("Draws");
    t.rows = draws->expected.size();
    t.columns = {
        {QStringLiteral("token_id"), QObject::tr("id"), Kind::Integer,
         [draws](std::size_t i) { return QVariant(qint64(draws->expected[i].id)); }, QObject::tr("The token's id.")},
        {QStringLiteral("token"), QObject::tr("token"), Kind::Text,
         [draws, table](std::size_t i) { return QVariant(tokenName(*table, draws->expected[i].id)); },
         QObject::tr("The token.")},
        {QStringLiteral("p"), QObject::tr("p per draw"), Kind::Real,
         [draws](std::size_t i) { return QVariant(draws->expected[i].p); },
         QObject::tr("The chance one draw gives the token.")},
        {QStringLiteral("expected"), QObject::tr("expected"), Kind::Real,
         [draws, n](std::size_t i) { return QVariant(n * draws->expected[i].p); }, QObject::tr("Draws times p."), 1},
        {QStringLiteral("drawn"), QObject::tr("drawn"), Kind::Integer,
         [draws](std::size_t i) { return QVariant(qint64(draws->counts.counts[i])); },
         QObject::tr("How often the seeded draws gave it.")},
    };
    return t;
}

ResultTable explorerCompareTable(const ExplorerRun& run)
{
    using Kind = ResultColumn::Kind;
    auto ids = std::make_shared<const std::vector<std::int32_t>>(run.compared);
    auto table = run.table;
    ResultTable t;
    t.suffix = QStringLiteral("-compare");
    t.title = QObject::tr("Compare presets");
    t.rows = ids->size();
    t.columns = {
        {QStringLiteral("token_id"), QObject::tr("id"), Kind::Integer,
         [ids](std::size_t i) { return QVariant(qint64((*ids)[i])); }, QObject::tr("The token's id.")},
        {QStringLiteral("token"), QObject::tr("token"), Kind::Text,
         [ids, table](std::size_t i) { return QVariant(tokenName(*table, (*ids)[i])); }, QObject::tr("The token.")},
    };
    const auto& presets = engine::allSemantics();
    for (std::size_t s = 0; s < presets.size() && s < run.compare.size(); ++s) {
        const QString preset = QString::fromStdString(engine::semanticsName(presets[s]));
        // Per id: the renormalised p under this preset, 0 when cut; no value when the preset
        // cannot run the values at all (the provenance says why).
        auto p = std::make_shared<std::vector<double>>(ids->size(), run.compare[s] ? 0.0 : NAN);
        if (run.compare[s])
            for (const auto& c : run.compare[s].value())
                for (std::size_t i = 0; i < ids->size(); ++i)
                    if ((*ids)[i] == c.id)
                        (*p)[i] = c.p;
        t.columns.push_back({QStringLiteral("p:") + preset, preset, Kind::Real,
                             [p](std::size_t i) { return QVariant((*p)[i]); },
                             QObject::tr("Renormalised p under the %1 preset (0: cut).").arg(preset)});
    }
    return t;
}

ExperimentResult explorerResult(ExplorerRun run, const QString& name, const QString& source)
{
    ExperimentResult result;
    result.kind = explorerKind().id();
    result.name = name;
    result.provenance = explorerProvenance(run.state, explorerChainText(run.state.chain), source);
    result.provenance.add(QStringLiteral("result: draws test"),
                          run.drawsTest.isEmpty() ? QObject::tr("no draws") : run.drawsTest);
    const auto& presets = engine::allSemantics();
    for (std::size_t s = 0; s < presets.size() && s < run.compare.size(); ++s)
        if (!run.compare[s])
            result.provenance.add(QStringLiteral("result: %1 cannot run these values")
                                      .arg(QString::fromStdString(engine::semanticsName(presets[s]))),
                                  QString::fromStdString(run.compare[s].error()));
    result.tables = {explorerTokenTable(run.table, run.analysis), explorerSweepTable(run), explorerDrawsTable(run),
                     explorerCompareTable(run)};
    result.summary = QObject::tr("%1: %L2 tokens, %L3 survivors; %L4 draws, %5")
                         .arg(name)
                         .arg(run.table->distribution.tokens.size())
                         .arg(run.analysis->survivors.size())
                         .arg(run.draws.counts.draws)
                         .arg(run.drawsTest.isEmpty() ? QObject::tr("no draws") : run.drawsTest);
    result.details = std::make_shared<const ExplorerRun>(std::move(run));
    return result;
}

}  // namespace logitlab::app
