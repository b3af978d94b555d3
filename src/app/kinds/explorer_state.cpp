#include "app/kinds/explorer_state.h"

#include "app/kinds/explorer_run.h"

#include "app/io/experiment_file.h"
#include "app/io/json_duplicate_keys.h"
#include "app/io/json_object_reader.h"
#include "app/text/sampler_settings_json.h"
#include "engine/core/input_limits.h"
#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "engine/rng/rng_factory.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QObject>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace logitlab::app {

namespace {

const QString kFormat = QString::fromLatin1(kExplorerFormat);
constexpr qint64 kMaxSeedNumber = qint64(1) << 53;  // doubles hold whole numbers exactly up to here

engine::Error fail(const QString& source, const QString& message)
{
    return engine::Error{(source + QStringLiteral(": ") + message).toStdString()};
}

QJsonObject samplerJson(const engine::ExplorerChain& chain)
{
    // The lesson's three and every stage's values, by the one table's names.
    QJsonObject sampler = samplerSettingsToJson(engine::toChainSettings(chain));
    sampler[QStringLiteral("semantics")] = QString::fromStdString(engine::semanticsName(chain.semantics));
    if (!chain.stages.order.empty()) {
        QJsonArray order;
        for (const auto& stage : chain.stages.order)
            order.append(QString::fromStdString(stage));
        sampler[QStringLiteral("order")] = order;
    }
    if (!chain.context.empty()) {
        QJsonArray context;
        for (std::int32_t id : chain.context)
            context.append(id);
        sampler[QStringLiteral("context")] = context;
    }
    return sampler;
}

// Every value is checked for its type and for the range the Explorer's controls hold, so what
// the page shows is exactly what the file says (nothing is clamped or replaced by a default).
engine::ExplorerChain samplerFromJson(JsonObjectReader& r)
{
    const engine::Semantics semantics = *engine::parseSemantics(
        r.string(QStringLiteral("semantics"), QStringLiteral("lesson"), semanticsNames()).toStdString());
    engine::ChainSettings settings;
    for (const engine::SamplerParameter& p : engine::samplerParameters()) {
        const QString key = readSamplerSetting(r, p, settings);
        // A spin box keeps `decimals` places: a value with more would change when shown.
        if (!key.isEmpty() && p.field &&
            QString::number(*(settings.*p.field), 'f', p.decimals).toDouble() != *(settings.*p.field))
            throw JsonFieldError{r.keyPath(key),
                                 QStringLiteral("has more than the %1 decimals the Explorer holds, got %2")
                                     .arg(p.decimals)
                                     .arg(QString::fromStdString(engine::formatDouble(*(settings.*p.field))))};
    }
    engine::ExplorerChain chain = engine::fromChainSettings(std::move(settings), semantics);
    if (r.has(QStringLiteral("order"))) {
        const QJsonArray order = r.array(QStringLiteral("order"));
        for (qsizetype i = 0; i < order.size(); ++i) {
            if (!order[i].isString())
                throw JsonFieldError{r.keyPath(QStringLiteral("order[%1]").arg(i)),
                                     QStringLiteral("must be a stage name")};
            chain.stages.order.push_back(order[i].toString().toStdString());
        }
    }
    if (r.has(QStringLiteral("context"))) {
        const QJsonArray context = r.array(QStringLiteral("context"));
        for (qsizetype i = 0; i < context.size(); ++i)
            chain.context.push_back(static_cast<std::int32_t>(JsonObjectReader::integerAt(
                context[i], r.keyPath(QStringLiteral("context[%1]").arg(i)), 0, 2147483647)));
    }
    r.finish();
    return chain;
}

ExplorerState stateFromJson(const QJsonObject& root)
{
    JsonObjectReader r(root, QString());
    r.value(QStringLiteral("format"));  // both checked before reading
    r.value(QStringLiteral("version"));

    ExplorerState state;
    const QJsonArray tokens = r.array(QStringLiteral("tokens"));
    const QJsonArray logits = r.array(QStringLiteral("logits"));
    if (logits.isEmpty())
        throw JsonFieldError{QStringLiteral("logits"), QStringLiteral("missing or empty")};
    if (static_cast<std::size_t>(logits.size()) > engine::kMaxValues)  // the limit every reader applies
        throw JsonFieldError{
            QStringLiteral("logits"),
            QStringLiteral("%1 values; the limit is %2")
                .arg(QString::fromStdString(engine::groupedNumber(static_cast<std::size_t>(logits.size()))),
                     QString::fromStdString(engine::groupedNumber(engine::kMaxValues)))};
    if (tokens.size() != logits.size())
        throw JsonFieldError{QStringLiteral("tokens"),
                             QStringLiteral("%1 names for %2 logits").arg(tokens.size()).arg(logits.size())};
    state.distribution.logits.resize(logits.size());
    for (qsizetype i = 0; i < logits.size(); ++i) {
        const QJsonValue v = logits[i];
        if (v.isDouble())
            state.distribution.logits[i] = v.toDouble();
        else if (v.toString() == QLatin1String("-inf"))
            state.distribution.logits[i] = -std::numeric_limits<double>::infinity();
        else
            throw JsonFieldError{QStringLiteral("logits[%1]").arg(i), QStringLiteral("not a number")};
        const QString name = tokens[i].toString();
        if (name.isEmpty())
            throw JsonFieldError{QStringLiteral("tokens[%1]").arg(i), QStringLiteral("a token needs a name")};
        state.distribution.tokens.push_back(name.toStdString());
        if (auto problem = engine::tokenNameProblem(state.distribution.tokens.back()))
            throw JsonFieldError{QStringLiteral("tokens[%1]").arg(i), QString::fromStdString(*problem)};
    }

    if (r.has(QStringLiteral("sampler"))) {
        JsonObjectReader sampler(r.object(QStringLiteral("sampler")), QStringLiteral("sampler"));
        state.chain = samplerFromJson(sampler);
    }

    if (r.has(QStringLiteral("draw"))) {
        JsonObjectReader draw(r.object(QStringLiteral("draw")), QStringLiteral("draw"));
        state.rng = draw.string(QStringLiteral("rng"), state.rng, rngNameList());
        // The seed is written as a string, as JSON numbers lose 64-bit integers; a number is read too.
        const QString seedKey = draw.keyPath(QStringLiteral("seed"));
        if (draw.has(QStringLiteral("seed"))) {
            const QJsonValue seed = draw.value(QStringLiteral("seed"));
            bool ok = true;
            state.seed = seed.isString()
                             ? seed.toString().toULongLong(&ok)
                             : static_cast<quint64>(JsonObjectReader::integerAt(seed, seedKey, 0, kMaxSeedNumber));
            if (!ok)
                throw JsonFieldError{seedKey,
                                     QStringLiteral("must be a whole number, got \"%1\"").arg(seed.toString())};
        }
        if (state.seed > ExplorerState::kMaxSeed)
            throw JsonFieldError{seedKey,
                                 QStringLiteral("must be in 0..%1 (what the Explorer's seed box holds), got %2")
                                     .arg(ExplorerState::kMaxSeed)
                                     .arg(state.seed)};
        state.draws = draw.integer(QStringLiteral("count"), state.draws, 1, ExplorerState::kMaxDraws);
        draw.finish();
    }
    if (r.has(QStringLiteral("chart"))) {
        JsonObjectReader chart(r.object(QStringLiteral("chart")), QStringLiteral("chart"));
        state.bars = static_cast<int>(chart.integer(QStringLiteral("bars"), state.bars, 1, ExplorerState::kMaxBars));
        chart.finish();
    }
    r.finish();
    return state;
}

}  // namespace

QByteArray explorerStateToJson(const ExplorerState& state)
{
    QJsonArray tokens;
    QJsonArray logits;
    for (Eigen::Index i = 0; i < state.distribution.logits.size(); ++i) {
        tokens.append(QString::fromStdString(state.distribution.tokenName(i)));
        const double l = state.distribution.logits[i];
        logits.append(std::isinf(l) ? QJsonValue(QStringLiteral("-inf")) : QJsonValue(l));
    }
    QJsonObject sampler = samplerJson(state.chain);
    QJsonObject root{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("version"), ExplorerState::kVersion},
        {QStringLiteral("tokens"), tokens},
        {QStringLiteral("logits"), logits},
        {QStringLiteral("sampler"), sampler},
        {QStringLiteral("draw"), QJsonObject{{QStringLiteral("rng"), state.rng},
                                             {QStringLiteral("seed"), QString::number(state.seed)},
                                             {QStringLiteral("count"), state.draws}}},
    };
    // Only when chosen: files saved before the choice existed keep their bytes.
    if (state.bars != ExplorerState::kDefaultBars)
        root.insert(QStringLiteral("chart"), QJsonObject{{QStringLiteral("bars"), state.bars}});
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

engine::Result<ExplorerState> explorerStateFromJson(const QByteArray& json, const QString& source)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        return fail(source, QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        return fail(source, QStringLiteral("the file must hold one JSON object"));
    if (const auto duplicate = duplicateJsonKeyProblem(json))
        return fail(source, *duplicate);
    const QJsonObject root = doc.object();
    // The format and version decide how the rest is read: they are checked first.
    if (root.value(QStringLiteral("format")).toString() != kFormat)
        return fail(source, QStringLiteral("format: expected \"%1\"").arg(kFormat));
    const QJsonValue version = root.value(QStringLiteral("version"));
    if (!version.isDouble() || version.toDouble() < 1 || version.toDouble() > ExplorerState::kVersion ||
        version.toDouble() != std::floor(version.toDouble()))
        return fail(source,
                    QStringLiteral("version: %1 is not one this LogitLab reads (1..%2)")
                        .arg(version.isDouble() ? QString::number(version.toDouble()) : QStringLiteral("missing"))
                        .arg(ExplorerState::kVersion));

    auto state = readStrictly<ExplorerState>(stateFromJson, root, source);
    if (!state)
        return state;
    if (auto problem = engine::validateLogits(state->distribution.logits))
        return fail(source, QString::fromStdString(*problem));
    if (auto problem = engine::validateExplorerChain(state->chain, state->distribution.tokens.size()))
        return fail(source, QStringLiteral("sampler: ") + QString::fromStdString(*problem));
    return state;
}

namespace {

// The kind: state files run by `logitlab-cli run`.

engine::Result<ExplorerState> parseState(const QJsonObject& root, const QString& source)
{
    return explorerStateFromJson(QJsonDocument(root).toJson(QJsonDocument::Compact), source);
}

// State files carry no "name": the outputs are named after the file ("lesson.json" ->
// "lesson"), with anything but letters, digits, '.', '_' and '-' replaced.
QString outputName(const QString& source)
{
    QString name = QFileInfo(source).completeBaseName();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return name.isEmpty() ? QStringLiteral("explorer") : name;
}

ExperimentResult runState(const ExplorerState& state, const RunContext& context)
{
    auto run = runExplorer(state, context.source, context.control);
    if (context.control.isCancelled && context.control.isCancelled()) {
        ExperimentResult cancelled;
        cancelled.kind = explorerKind().id();
        cancelled.status = {RunStatus::State::Cancelled, QObject::tr("cancelled")};
        return cancelled;
    }
    if (!run)
        return badInputResult(explorerKind().id(), QString::fromStdString(run.error()));
    return explorerResult(std::move(run).value(), outputName(context.source), context.source);
}

}  // namespace

const ExperimentKind& explorerKind()
{
    static const SpecKind<ExplorerState> kind(QStringLiteral("explorer"), QObject::tr("Explorer"), parseState,
                                              runState);
    return kind;
}

}  // namespace logitlab::app
