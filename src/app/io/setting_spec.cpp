#include "app/io/setting_spec.h"

#include "app/text/sampler_settings_json.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/arithmetic.h"
#include "engine/sampler/semantics.h"
#include "engine/sampler/stateless_chain.h"

namespace logitlab::app {

using engine::Error;

QStringList semanticsNames()
{
    QStringList names;
    for (engine::Semantics s : engine::allSemantics())
        names << QString::fromStdString(engine::semanticsName(s));
    return names;
}

QStringList arithmeticNames()
{
    QStringList names;
    for (engine::Arithmetic a : engine::allArithmetics())
        names << QString::fromStdString(engine::arithmeticName(a));
    return names;
}

void applyArithmetic(engine::SamplerChain& chain, const QString& choice)
{
    chain.setArithmetic(engine::resolveArithmetic(choice.toStdString(), chain.semantics()));
}

QString arithmeticUsed(const QString& semantics, const QString& choice)
{
    const auto preset = engine::parseSemantics(semantics.toStdString()).value_or(engine::Semantics::Lesson);
    return QString::fromStdString(engine::arithmeticName(engine::resolveArithmetic(choice.toStdString(), preset)));
}

QString SettingSpec::arithmeticUsed() const
{
    return isChain() ? app::arithmeticUsed(semantics, arithmetic) : app::arithmeticUsed(QStringLiteral("lesson"), {});
}

QString SettingSpec::describe() const
{
    return isChain() ? semantics + QStringLiteral(": ") + chain
                     : QString::fromStdString(engine::describeSettings(sampler));
}

engine::Result<engine::Decoder> settingDecoder(const SettingSpec& s)
{
    if (!s.isChain())
        return engine::decoderFromSettings(s.label.toStdString(), s.sampler);
    auto chain =
        engine::parseStatelessChain(s.semantics.toStdString(), s.chain.toStdString(),
                                    "a reply's risk at one fixed distribution per step needs a stateless chain");
    if (!chain)
        return Error{chain.error()};
    engine::SamplerChain built = std::move(chain).value();
    applyArithmetic(built, s.arithmetic);
    return engine::decoderFromChain(s.label.toStdString(), built);
}

QStringList rngNameList()
{
    QStringList names;
    for (const auto& n : engine::rngNames())
        names << QString::fromStdString(n);
    return names;
}

SettingSpec readSetting(JsonObjectReader& r)
{
    SettingSpec s;
    if (r.has(QStringLiteral("chain"))) {
        // Any stateless chain of the zoo, as in seed sweeps; the lesson's keys do not mix in.
        s.semantics = r.string(QStringLiteral("semantics"), QStringLiteral("lesson"), semanticsNames());
        s.chain = r.string(QStringLiteral("chain"), {});
        s.arithmetic = r.string(QStringLiteral("arithmetic"), QString(), arithmeticNames());
        if (s.chain.trimmed().isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("chain")), QStringLiteral("must not be empty")};
        if (auto decoder = settingDecoder(s); !decoder) {
            // Engine messages often start with the key already ("chain: ..."): say it once.
            QString message = QString::fromStdString(decoder.error());
            if (message.startsWith(QStringLiteral("chain: ")))
                message = message.mid(7);
            throw JsonFieldError{r.keyPath(QStringLiteral("chain")), message};
        }
        s.label = r.string(QStringLiteral("label"), s.describe());
        if (s.label.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("label")), QStringLiteral("must not be empty")};
        r.finish();  // temperature, top-k or top-p beside a chain is an unknown key here
        return s;
    }
    // The lesson's three by the one table of sampler parameters (older files' top_k, top_p too).
    engine::ChainSettings settings;
    for (const engine::SamplerParameter& p : engine::samplerParameters()) {
        if (p.group != engine::ParameterGroup::Lesson)
            continue;
        const QString key = readSamplerSetting(r, p, settings);
        if (p.field == &engine::ChainSettings::topP && settings.topP == 0.0)
            throw JsonFieldError{r.keyPath(key), QStringLiteral("must be in (0, 1], got 0")};
    }
    s.sampler.temperature = settings.temperature.value_or(1.0);
    if (settings.topK)
        s.sampler.topK = static_cast<int>(*settings.topK);
    s.sampler.topP = settings.topP;
    s.label = r.string(QStringLiteral("label"), QString::fromStdString(engine::describeSettings(s.sampler)));
    if (s.label.isEmpty())
        throw JsonFieldError{r.keyPath(QStringLiteral("label")), QStringLiteral("must not be empty")};
    r.finish();
    return s;
}

QJsonObject settingToJson(const SettingSpec& s)
{
    if (s.isChain()) {
        QJsonObject o{{QStringLiteral("label"), s.label},
                      {QStringLiteral("semantics"), s.semantics},
                      {QStringLiteral("chain"), s.chain}};
        if (!s.arithmetic.isEmpty())
            o.insert(QStringLiteral("arithmetic"), s.arithmetic);
        return o;
    }
    QJsonObject o = samplerSettingsToJson(s.sampler);
    o.insert(QStringLiteral("label"), s.label);
    return o;
}

}  // namespace logitlab::app
