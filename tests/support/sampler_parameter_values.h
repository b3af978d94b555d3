// For the suites that round-trip every sampler parameter: a preset that accepts each setting of
// engine::samplerParameters() and a value of it that preset runs (not the "not set" value), so
// a data-driven test has one row per parameter and fails for a parameter the table gains.
#pragma once

#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/sampler_parameters.h"

#include <QTest>

#include <cmath>
#include <string>

namespace logitlab::test {

inline engine::Semantics presetFor(const engine::SamplerParameter& p)
{
    if (p.choice)
        return engine::Semantics::LlamaCpp;  // the arithmetic: a preset whose library arithmetic is its own
    for (engine::Semantics s : engine::allSemantics())
        if (engine::presetAccepts(p, s))
            return s;
    return engine::Semantics::Lesson;
}

// A quarter of the way into the table's range (half way where that is the "not set" value),
// rounded to the decimals the Explorer shows; token lists name tokens of a three-token
// vocabulary.
inline double valueFor(const engine::SamplerParameter& p)
{
    const double scale = std::pow(10.0, engine::isWholeNumber(p) ? 0 : p.decimals);
    const auto at = [&](double fraction) {
        return std::round((p.minimum + (p.maximum - p.minimum) * fraction) * scale) / scale;
    };
    return at(0.25) == engine::notSetValue(p) ? at(0.5) : at(0.25);
}

inline std::string listFor(const engine::SamplerParameter& p)
{
    return p.list == &engine::ChainSettings::logitBias ? "1@0.5/2@-inf" : "0/2";
}

// A choice other than the default: the last one ("library" for the arithmetic).
inline std::string choiceFor(const engine::SamplerParameter& p) { return p.choices.back(); }

// The settings with `p` alone set.
inline engine::ChainSettings settingsWith(const engine::SamplerParameter& p)
{
    engine::ChainSettings s;
    if (p.choice)
        s.*p.choice = choiceFor(p);
    else if (p.list)
        s.*p.list = listFor(p);
    else
        s.*p.field = valueFor(p);
    return s;
}

// The Explorer's chain with `p` alone set, under a preset that has it.
inline engine::ExplorerChain explorerChainWith(const engine::SamplerParameter& p)
{
    return engine::fromChainSettings(settingsWith(p), presetFor(p));
}

// A data-driven test with one row per parameter: addParameterRows() in the _data function,
// currentParameter() in the test.
inline void addParameterRows()
{
    QTest::addColumn<QString>("name");
    for (const engine::SamplerParameter& p : engine::samplerParameters())
        QTest::newRow(p.name) << QString::fromLatin1(p.name);
}

inline const engine::SamplerParameter& currentParameter()
{
    QFETCH(QString, name);
    return *engine::findSamplerParameter(name.toStdString());
}

}  // namespace logitlab::test
