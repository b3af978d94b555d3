// What mirostat v1 and v2 share: the target surprise tau, the learning rate eta, and the running
// mu (2 tau at the start and after reset()), moved after each draw by eta * (surprise - tau).
#pragma once

#include "engine/stages/sampler_stage.h"
#include "engine/stages/stage_support.h"

#include <cmath>

namespace logitlab::engine {

template <class Derived>
class MirostatBase : public StageBase<Derived> {
public:
    explicit MirostatBase(Semantics semantics) : StageBase<Derived>(semantics)
    {
        this->declare({"tau", ParameterKind::Real, 5.0, "target surprise in bits, finite"});
        this->declare({"eta", ParameterKind::Real, 0.1, "learning rate, finite"});
        MirostatBase::reset();
    }

    std::optional<std::string> validate() const override
    {
        if (this->semantics() == Semantics::Hf || this->semantics() == Semantics::Vllm)
            return this->name() + ": " + semanticsName(this->semantics()) + " has no mirostat sampler (llama.cpp only)";
        for (const char* p : {"tau", "eta"})
            if (!std::isfinite(this->number(p)))
                return this->name() + ": " + p + ": must be finite";
        return std::nullopt;
    }

    // mu <- mu - eta * (-log2 p - tau), with p the renormalised probability of the pick; a pick of
    // probability 0 (a zero draw can land on one) leaves mu alone instead of making it -inf.
    void accept(const CandidateArray& final, std::size_t index, SamplerContext& /*context*/) override
    {
        const double p = final[index].p;
        // Kept finite so that tau or eta near DBL_MAX cannot turn mu into inf - inf = NaN.
        if (p > 0.0)
            m_mu = detail::saturated(m_mu -
                                     detail::saturated(this->number("eta") * (-std::log2(p) - this->number("tau"))));
    }

    void reset() override { m_mu = detail::saturated(2.0 * this->number("tau")); }
    double mu() const { return m_mu; }

protected:
    void parametersChanged() override { reset(); }
    double m_mu = 10.0;
};

}  // namespace logitlab::engine
