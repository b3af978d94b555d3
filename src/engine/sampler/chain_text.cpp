#include "engine/sampler/chain_text.h"

#include "engine/core/number_format.h"
#include "engine/stages/stage_factory.h"
#include "engine/stages/stage_support.h"

namespace logitlab::engine {

namespace {

std::string valueText(const Parameter& p)
{
    if (p.spec.kind == ParameterKind::TokenList || p.spec.kind == ParameterKind::BiasList)
        return p.text;
    return formatDouble(p.number);
}

bool isDefault(const Parameter& p)
{
    if (p.spec.kind == ParameterKind::TokenList || p.spec.kind == ParameterKind::BiasList)
        return p.text.empty();
    return p.number == p.spec.defaultValue;
}

}  // namespace

Result<SamplerChain> parseChain(std::string_view text, Semantics semantics)
{
    SamplerChain chain(semantics);
    if (detail::trimSpaces(text).empty())
        return chain;  // the empty chain: plain softmax
    for (std::string_view item : detail::splitOn(text, ',')) {
        item = detail::trimSpaces(item);
        const auto pieces = detail::splitOn(item, ':');
        std::string_view head = detail::trimSpaces(pieces.front());
        const std::size_t eq = head.find('=');
        const std::string name(detail::trimSpaces(head.substr(0, eq)));
        if (name.empty())
            return Error{"chain: empty stage name in '" + std::string(item) + "'"};
        auto stage = makeStage(name, semantics);
        if (!stage)
            return Error{"chain: " + stage.error()};
        auto& s = *stage.value();
        if (eq != std::string_view::npos) {
            if (s.parameters().empty())
                return Error{name + ": takes no parameters"};
            if (auto bad = s.setParameter(s.parameters().front().spec.name, detail::trimSpaces(head.substr(eq + 1))))
                return Error{*bad};
        }
        for (std::size_t i = 1; i < pieces.size(); ++i) {
            const std::string_view kv = detail::trimSpaces(pieces[i]);
            const std::size_t keq = kv.find('=');
            if (keq == std::string_view::npos)
                return Error{name + ": '" + std::string(kv) + "' is not key=value"};
            if (auto bad =
                    s.setParameter(detail::trimSpaces(kv.substr(0, keq)), detail::trimSpaces(kv.substr(keq + 1))))
                return Error{*bad};
        }
        if (auto bad = s.validate())
            return Error{*bad};
        chain.add(std::move(stage).value());
    }
    return chain;
}

std::string formatStage(const SamplerStage& stage)
{
    std::string out = stage.name();
    const auto& params = stage.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (i == 0)
            out += "=" + valueText(params[i]);
        else if (!isDefault(params[i]))
            out += ":" + params[i].spec.name + "=" + valueText(params[i]);
    }
    return out;
}

std::string formatChain(const SamplerChain& chain, bool activeOnly)
{
    std::string out;
    for (const auto& s : chain.stages()) {
        if (activeOnly && !s->active())
            continue;
        out += (out.empty() ? "" : ",") + formatStage(*s);
    }
    return out;
}

}  // namespace logitlab::engine
