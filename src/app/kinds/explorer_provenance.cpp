#include "app/kinds/explorer_provenance.h"

#include "engine/core/number_format.h"
#include "engine/models/token_reference.h"
#include "engine/sampler/arithmetic.h"
#include "engine/sampler/chain_settings.h"
#include "engine/sampler/sampler_settings.h"
#include "engine/sampler/semantics.h"

#include <QCoreApplication>
#include <QStringList>

namespace logitlab::app {

namespace {

QString number(double v) { return QString::fromStdString(engine::formatDouble(v)); }

}  // namespace

Provenance explorerProvenance(const ExplorerState& state, const QString& chainText, const QString& source)
{
    const auto& chain = state.chain;
    const auto& names = state.distribution.tokens;
    Provenance p(explorerKind().id());
    p.add(QStringLiteral("semantics"), QString::fromStdString(engine::semanticsName(chain.semantics)));
    p.add(QStringLiteral("settings"), QString::fromStdString(engine::describeSettings(chain.lesson)));
    p.add(QStringLiteral("arithmetic"), QString::fromStdString(engine::arithmeticName(
                                            engine::resolveArithmetic(chain.stages.arithmetic, chain.semantics))));
    for (const auto& field : engine::chainSettingFields())
        if (const auto& value = chain.stages.*field.field)
            p.add(QString::fromLatin1(field.name), *value);
    if (!chain.stages.logitBias.empty())
        p.add(QStringLiteral("logit-bias"),
              QString::fromStdString(engine::formatBiasReferences(chain.stages.logitBias, names)));
    if (!chain.stages.dryBreakers.empty())
        p.add(QStringLiteral("dry-breakers"), QString::fromStdString(engine::formatTokenReferences(
                                                  engine::idsFromStageList(chain.stages.dryBreakers), names)));
    if (!chain.context.empty())
        p.add(QStringLiteral("context"), QString::fromStdString(engine::formatTokenReferences(chain.context, names)));
    const auto& order = chain.stages.order.empty() ? engine::presetOrder(chain.semantics) : chain.stages.order;
    QStringList stages;
    for (const auto& stage : order)
        stages << QString::fromStdString(stage);
    p.add(QStringLiteral("order"),
          (chain.stages.order.empty() ? QCoreApplication::translate("Provenance", "preset: ")
                                      : QCoreApplication::translate("Provenance", "custom: ")) +
              stages.join(QStringLiteral(", ")));
    p.add(QStringLiteral("chain"), chainText);
    p.add(QStringLiteral("source"), source);
    const auto& logits = state.distribution.logits;
    p.add(QStringLiteral("vocabulary size"), QString::number(logits.size()));
    if (logits.size() <= 64) {
        QStringList values;
        for (Eigen::Index i = 0; i < logits.size(); ++i)
            values << number(logits[i]);
        p.add(QStringLiteral("logits"), values.join(QLatin1Char(',')));
    }
    p.add(QStringLiteral("rng"), state.rng);
    p.add(QStringLiteral("seed"), QString::number(state.seed));
    p.add(QStringLiteral("draws"), QString::number(state.draws));
    return p;
}

}  // namespace logitlab::app
