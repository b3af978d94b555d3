#include "engine/stages/logit_bias_stage.h"

#include "engine/io/logits_parser.h"
#include "engine/stages/stage_support.h"

namespace logitlab::engine {

LogitBiasStage::LogitBiasStage(Semantics semantics) : StageBase(semantics)
{
    declare({"bias", ParameterKind::BiasList, 0.0, "id@value pairs separated by '/'; value finite or -inf"});
}

void LogitBiasStage::parametersChanged()
{
    // The text was checked by setParameter; repeated ids add up, as repeated calls would.
    m_bias.clear();
    if (text("bias").empty())
        return;
    for (std::string_view item : detail::splitOn(text("bias"), '/')) {
        const std::size_t at = item.find('@');
        auto& bias = m_bias[static_cast<std::int32_t>(*parseDouble(item.substr(0, at)))];
        const double value = *parseDouble(item.substr(at + 1));
        bias = value == detail::kNegInf || bias == detail::kNegInf ? detail::kNegInf : detail::saturated(bias + value);
    }
}

std::optional<std::string> LogitBiasStage::checkVocabulary(std::size_t vocabSize) const
{
    for (const auto& [id, value] : m_bias)
        if (static_cast<std::size_t>(id) >= vocabSize)
            return problem("bias", "token id " + std::to_string(id) + " is outside the vocabulary of " +
                                       std::to_string(vocabSize));
    return std::nullopt;
}

void LogitBiasStage::apply(CandidateArray& candidates, SamplerContext& context)
{
    for (auto& t : candidates.data()) {
        const auto found = m_bias.find(t.id);
        if (found == m_bias.end())
            continue;
        // -inf bans; a finite bias on a finite logit stays finite (1e308 + 1e308 is DBL_MAX, not
        // +inf, whose softmax would be inf - inf = NaN).
        if (found->second == detail::kNegInf || detail::masked(t))
            t.logit = detail::kNegInf;
        else
            t.logit = detail::saturated(t.logit + found->second);
        context.noteAdjusted(t.id, t.logit);
    }
    candidates.setSorted(false);
}

}  // namespace logitlab::engine
