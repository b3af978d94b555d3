#include "app/text/chain_json.h"

#include "engine/stages/stage_factory.h"

#include <QJsonObject>

namespace logitlab::app {

QJsonArray chainToJson(const engine::SamplerChain& chain, bool activeOnly)
{
    QJsonArray out;
    for (const auto& stage : chain.stages()) {
        if (activeOnly && !stage->active())
            continue;
        QJsonObject item{{QStringLiteral("stage"), QString::fromStdString(stage->name())}};
        for (const auto& p : stage->parameters()) {
            const QString key = QString::fromStdString(p.spec.name);
            if (p.spec.kind == engine::ParameterKind::TokenList || p.spec.kind == engine::ParameterKind::BiasList)
                item.insert(key, QString::fromStdString(p.text));
            else
                item.insert(key, p.number);
        }
        out.append(item);
    }
    return out;
}

engine::Result<engine::SamplerChain> chainFromJson(const QJsonArray& json, engine::Semantics semantics)
{
    engine::SamplerChain chain(semantics);
    for (qsizetype i = 0; i < json.size(); ++i) {
        const QJsonObject item = json.at(i).toObject();
        const std::string name = item.value(QStringLiteral("stage")).toString().toStdString();
        if (name.empty())
            return engine::Error{"chain: item " + std::to_string(i + 1) + " has no \"stage\" name"};
        auto stage = engine::makeStage(name, semantics);
        if (!stage)
            return engine::Error{"chain: " + stage.error()};
        for (auto it = item.begin(); it != item.end(); ++it) {
            if (it.key() == QLatin1String("stage"))
                continue;
            const std::string key = it.key().toStdString();
            std::optional<std::string> bad;
            if (it.value().isDouble())
                bad = stage.value()->setNumber(key, it.value().toDouble());
            else if (it.value().isString())
                bad = stage.value()->setParameter(key, it.value().toString().toStdString());
            else
                bad = name + ": " + key + ": must be a number or a string";
            if (bad)
                return engine::Error{*bad};
        }
        if (auto bad = stage.value()->validate())
            return engine::Error{*bad};
        chain.add(std::move(stage).value());
    }
    return chain;
}

}  // namespace logitlab::app
