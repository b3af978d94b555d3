#include "engine/stages/mirostat_v1_stage.h"

#include <algorithm>
#include <cmath>

namespace logitlab::engine {

MirostatV1Stage::MirostatV1Stage(Semantics semantics) : MirostatBase(semantics)
{
    declare({"m", ParameterKind::Integer, 100, ">= 2: tokens used to estimate the Zipf exponent"});
}

std::optional<std::string> MirostatV1Stage::validate() const
{
    if (number("m") < 2)
        return problem("m", "must be at least 2");
    return MirostatBase::validate();
}

void MirostatV1Stage::apply(CandidateArray& candidates, SamplerContext& context)
{
    if (candidates.empty())
        return;
    candidates.softmax();
    candidates.sortDescending();
    const std::size_t n = candidates.size();
    const auto m = static_cast<std::size_t>(number("m"));
    double sumTB = 0.0;
    double sumTT = 0.0;
    for (std::size_t i = 0; i + 1 < m && i + 1 < n; ++i) {
        if (candidates[i + 1].p <= 0.0)
            break;  // ln(p/0) is infinite: the estimate uses the positive part only
        const double t = std::log(double(i + 2) / double(i + 1));
        const double b = std::log(candidates[i].p / candidates[i + 1].p);
        sumTB += t * b;
        sumTT += t * t;
    }
    double k = static_cast<double>(n);
    if (sumTT > 0.0) {
        const double s = sumTB / sumTT;
        const double e = s - 1.0;
        const double vocab = static_cast<double>(std::max<std::size_t>(context.vocabSize, n));
        // k = (e 2^mu / (1 - V^-e))^(1/s); as e -> 0 the bracket tends to 2^mu / ln V.
        const double bracket = std::fabs(e) < 1e-12 ? std::exp2(m_mu) / std::log(vocab)
                                                    : e * std::exp2(m_mu) / (1.0 - std::pow(vocab, -e));
        const double candidateK = std::pow(bracket, 1.0 / s);
        if (std::isfinite(candidateK))
            k = candidateK;
    }
    const auto keep = static_cast<std::size_t>(std::clamp(k, 1.0, static_cast<double>(n)));
    candidates.truncate(keep);
    candidates.softmax();
}

}  // namespace logitlab::engine
