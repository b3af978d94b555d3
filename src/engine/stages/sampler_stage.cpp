#include "engine/stages/sampler_stage.h"

#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace logitlab::engine {

namespace {

// "13/198" or "5@-1.5/7@2": checks the spelling; the stage itself turns it into data.
std::optional<std::string> checkList(ParameterKind kind, std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    for (std::string_view item : detail::splitOn(text, '/')) {
        std::string_view idText = item;
        if (kind == ParameterKind::BiasList) {
            const std::size_t at = item.find('@');
            if (at == std::string_view::npos)
                return "'" + std::string(item) + "' is not id@value";
            idText = item.substr(0, at);
            const auto value = parseDouble(item.substr(at + 1));
            if (!value || std::isnan(*value) || *value == std::numeric_limits<double>::infinity())
                return "'" + std::string(item.substr(at + 1)) + "' is not a bias (a number or -inf)";
        }
        const auto id = parseDouble(idText);
        if (!id || *id < 0 || *id != std::floor(*id) || *id > 2147483647.0)
            return "'" + std::string(idText) + "' is not a token id";
    }
    return std::nullopt;
}

}  // namespace

void SamplerStage::declare(ParameterSpec spec)
{
    Parameter p{std::move(spec), 0.0, {}};
    p.number = p.spec.defaultValue;
    m_parameters.push_back(std::move(p));
}

void SamplerStage::declareMinKeep(bool inLlamaCpp, bool inHf)
{
    if (inLlamaCpp && m_semantics == Semantics::LlamaCpp)
        declare({"min-keep", ParameterKind::Integer, 0, "llama.cpp: >= 0 (one token is kept regardless)"});
    if (inHf && m_semantics == Semantics::Hf)
        declare({"min-keep", ParameterKind::Integer, 1, "hf: >= 1"});
}

std::optional<std::string> SamplerStage::checkMinKeep() const
{
    const Parameter* p = findParameter("min-keep");
    if (!p)
        return std::nullopt;
    if (m_semantics == Semantics::Hf && p->number < 1)
        return problem("min-keep", "hf requires min_tokens_to_keep >= 1, got " + formatDouble(p->number));
    if (p->number < 0)
        return problem("min-keep", "must be >= 0, got " + formatDouble(p->number));
    return std::nullopt;
}

std::size_t SamplerStage::minKeep() const
{
    const Parameter* p = findParameter("min-keep");
    return p ? static_cast<std::size_t>(p->number) : 0;
}

const Parameter* SamplerStage::findParameter(std::string_view name) const
{
    for (const auto& p : m_parameters)
        if (p.spec.name == name)
            return &p;
    return nullptr;
}

Parameter* SamplerStage::mutableParameter(std::string_view name) { return const_cast<Parameter*>(findParameter(name)); }

std::string SamplerStage::problem(std::string_view parameter, const std::string& message) const
{
    return name() + ": " + std::string(parameter) + ": " + message;
}

std::optional<std::string> SamplerStage::setParameter(std::string_view name, std::string_view text)
{
    Parameter* p = mutableParameter(name);
    if (!p)
        return this->name() + ": unknown parameter '" + std::string(name) + "'";
    if (p->spec.kind == ParameterKind::TokenList || p->spec.kind == ParameterKind::BiasList) {
        if (auto bad = checkList(p->spec.kind, text))
            return problem(name, *bad);
        p->text = std::string(text);
        parametersChanged();
        return std::nullopt;
    }
    const auto value = parseDouble(text);
    if (!value)
        return problem(name, "'" + std::string(text) + "' is not a number");
    return setNumber(name, *value);
}

std::optional<std::string> SamplerStage::setNumber(std::string_view name, double value)
{
    Parameter* p = mutableParameter(name);
    if (!p)
        return this->name() + ": unknown parameter '" + std::string(name) + "'";
    if (std::isnan(value))
        return problem(name, "NaN is not allowed");
    if (p->spec.kind == ParameterKind::Integer &&
        (!std::isfinite(value) || value != std::floor(value) || std::fabs(value) > 2147483647.0))
        return problem(name, "must be a whole number, got " + formatDouble(value));
    if (p->spec.kind != ParameterKind::Real && p->spec.kind != ParameterKind::Integer)
        return problem(name, "takes a list, not a number");
    p->number = value;
    parametersChanged();
    return std::nullopt;
}

double SamplerStage::number(std::string_view name) const
{
    const Parameter* p = findParameter(name);
    if (!p)
        throw std::logic_error("no parameter " + std::string(name));
    return p->number;
}

const std::string& SamplerStage::text(std::string_view name) const
{
    const Parameter* p = findParameter(name);
    if (!p)
        throw std::logic_error("no parameter " + std::string(name));
    return p->text;
}

}  // namespace logitlab::engine
