#include "explorer_state.h"

#include "input_limits.h"
#include "json_duplicate_keys.h"
#include "logits_parser.h"
#include "rng_factory.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>
#include <limits>

namespace logitlab::app {

namespace {

const QString kFormat = QStringLiteral("logitlab-explorer");

engine::Error fail(const QString& source, const QString& message)
{
    return engine::Error{(source + QStringLiteral(": ") + message).toStdString()};
}

// Version 1 spelt min-p "minP" (and knew only it and typical beyond the lesson's three).
QString fieldKey(const engine::ChainSettingField& field, int version)
{
    if (version == 1 && field.field == &engine::ChainSettings::minP)
        return QStringLiteral("minP");
    return QString::fromLatin1(field.name);
}

QJsonObject samplerJson(const engine::ExplorerChain& chain)
{
    const auto& lesson = chain.lesson;
    QJsonObject sampler{{QStringLiteral("semantics"), QString::fromStdString(engine::semanticsName(chain.semantics))},
                        {QStringLiteral("temperature"), lesson.temperature}};
    if (lesson.topK)
        sampler[QStringLiteral("topK")] = *lesson.topK;
    if (lesson.topP)
        sampler[QStringLiteral("topP")] = *lesson.topP;
    for (const auto& field : engine::chainSettingFields())
        if (const auto& value = chain.stages.*field.field)
            sampler[fieldKey(field, ExplorerState::kVersion)] = *value;
    if (!chain.stages.logitBias.empty())
        sampler[QStringLiteral("logit-bias")] = QString::fromStdString(chain.stages.logitBias);
    if (!chain.stages.dryBreakers.empty())
        sampler[QStringLiteral("dry-breakers")] = QString::fromStdString(chain.stages.dryBreakers);
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

engine::Result<engine::ExplorerChain> samplerFromJson(const QJsonObject& sampler, int version)
{
    const auto bad = [](const QString& key, const QString& message) {
        return engine::Error{QStringLiteral("sampler.%1: %2").arg(key, message).toStdString()};
    };
    engine::ExplorerChain chain;
    QStringList known{QStringLiteral("semantics"), QStringLiteral("temperature"), QStringLiteral("topK"),
                      QStringLiteral("topP")};
    const QString semantics = sampler.value(QStringLiteral("semantics")).toString(QStringLiteral("lesson"));
    const auto parsed = engine::parseSemantics(semantics.toStdString());
    if (!parsed)
        return bad(QStringLiteral("semantics"), QStringLiteral("unknown preset '%1'").arg(semantics));
    chain.semantics = *parsed;
    chain.lesson.temperature = sampler.value(QStringLiteral("temperature")).toDouble(1.0);
    if (sampler.contains(QStringLiteral("topK")))
        chain.lesson.topK = sampler.value(QStringLiteral("topK")).toInt();
    if (sampler.contains(QStringLiteral("topP")))
        chain.lesson.topP = sampler.value(QStringLiteral("topP")).toDouble();
    for (const auto& field : engine::chainSettingFields()) {
        const QString key = fieldKey(field, version);
        known << key;
        if (!sampler.contains(key))
            continue;
        if (!sampler.value(key).isDouble())
            return bad(key, QStringLiteral("not a number"));
        chain.stages.*field.field = sampler.value(key).toDouble();
    }
    if (version >= 2) {
        known << QStringLiteral("logit-bias") << QStringLiteral("dry-breakers") << QStringLiteral("order")
              << QStringLiteral("context");
        chain.stages.logitBias = sampler.value(QStringLiteral("logit-bias")).toString().toStdString();
        chain.stages.dryBreakers = sampler.value(QStringLiteral("dry-breakers")).toString().toStdString();
        for (const QJsonValue v : sampler.value(QStringLiteral("order")).toArray())
            chain.stages.order.push_back(v.toString().toStdString());
        const QJsonArray context = sampler.value(QStringLiteral("context")).toArray();
        for (qsizetype i = 0; i < context.size(); ++i) {
            if (!context[i].isDouble() || context[i].toDouble() < 0 || context[i].toDouble() != context[i].toInt())
                return bad(QStringLiteral("context[%1]").arg(i), QStringLiteral("not a token id"));
            chain.context.push_back(context[i].toInt());
        }
    }
    for (const QString& key : sampler.keys())
        if (!known.contains(key))
            return bad(key, QStringLiteral("unknown key"));
    return chain;
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
    const QJsonObject root{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("version"), ExplorerState::kVersion},
        {QStringLiteral("tokens"), tokens},
        {QStringLiteral("logits"), logits},
        {QStringLiteral("sampler"), sampler},
        {QStringLiteral("draw"), QJsonObject{{QStringLiteral("rng"), state.rng},
                                            {QStringLiteral("seed"), QString::number(state.seed)},
                                            {QStringLiteral("count"), state.draws}}},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

engine::Result<ExplorerState> explorerStateFromJson(const QByteArray& json, const QString& source)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        return fail(source, QStringLiteral("not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset));
    if (const auto duplicate = duplicateJsonKeyProblem(json))
        return fail(source, *duplicate);
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != kFormat)
        return fail(source, QStringLiteral("format: expected \"%1\"").arg(kFormat));
    const int version = root.value(QStringLiteral("version")).toInt(-1);
    if (version < 1 || version > ExplorerState::kVersion)
        return fail(source, QStringLiteral("version: %1 is not one this LogitLab reads (1..%2)")
                                .arg(version)
                                .arg(ExplorerState::kVersion));

    ExplorerState state;
    const QJsonArray tokens = root.value(QStringLiteral("tokens")).toArray();
    const QJsonArray logits = root.value(QStringLiteral("logits")).toArray();
    if (logits.isEmpty())
        return fail(source, QStringLiteral("logits: missing or empty"));
    if (tokens.size() != logits.size())
        return fail(source, QStringLiteral("tokens: %1 names for %2 logits").arg(tokens.size()).arg(logits.size()));
    state.distribution.logits.resize(logits.size());
    for (qsizetype i = 0; i < logits.size(); ++i) {
        const QJsonValue v = logits[i];
        if (v.isDouble())
            state.distribution.logits[i] = v.toDouble();
        else if (v.toString() == QLatin1String("-inf"))
            state.distribution.logits[i] = -std::numeric_limits<double>::infinity();
        else
            return fail(source, QStringLiteral("logits[%1]: not a number").arg(i));
        const QString name = tokens[i].toString();
        if (name.isEmpty())
            return fail(source, QStringLiteral("tokens[%1]: a token needs a name").arg(i));
        state.distribution.tokens.push_back(name.toStdString());
        if (auto problem = engine::tokenNameProblem(state.distribution.tokens.back()))
            return fail(source, QStringLiteral("tokens[%1]: %2").arg(i).arg(QString::fromStdString(*problem)));
    }
    if (auto problem = engine::validateLogits(state.distribution.logits))
        return fail(source, QString::fromStdString(*problem));

    auto chain = samplerFromJson(root.value(QStringLiteral("sampler")).toObject(), version);
    if (!chain)
        return fail(source, QString::fromStdString(chain.error()));
    state.chain = std::move(chain).value();
    if (auto problem = engine::validateExplorerChain(state.chain, state.distribution.tokens.size()))
        return fail(source, QStringLiteral("sampler: ") + QString::fromStdString(*problem));

    const QJsonObject draw = root.value(QStringLiteral("draw")).toObject();
    state.rng = draw.value(QStringLiteral("rng")).toString(state.rng);
    if (!engine::makeRng(state.rng.toStdString(), 0))
        return fail(source, QStringLiteral("draw.rng: unknown generator '%1'").arg(state.rng));
    bool ok = true;
    state.seed = draw.value(QStringLiteral("seed")).toString(QStringLiteral("42")).toULongLong(&ok);
    if (!ok)
        return fail(source, QStringLiteral("draw.seed: not a whole number"));
    state.draws = static_cast<qint64>(draw.value(QStringLiteral("count")).toDouble(1000));
    if (state.draws < 1)
        return fail(source, QStringLiteral("draw.count: must be at least 1"));
    return state;
}

}  // namespace logitlab::app
