// The interface every sampler in a chain implements: a name, typed parameters with documented
// ranges, apply() on the candidate array, and reset()/clone() for stages with state or randomness.
// A stage is built for one semantics preset, whose rules (boundaries, ties, validation) it follows.
#pragma once

#include "engine/rng/rng.h"
#include "engine/sampler/arithmetic.h"
#include "engine/sampler/candidate_array.h"
#include "engine/sampler/sampler_context.h"
#include "engine/sampler/semantics.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

enum class ParameterKind {
    Real,       // a double
    Integer,    // a whole number, stored as a double
    TokenList,  // token ids separated by '/', e.g. "13/198"
    BiasList,   // id@value pairs separated by '/', e.g. "5@-1.5/7@2"
};

struct ParameterSpec {
    std::string name;  // e.g. "k", "min-keep"
    ParameterKind kind = ParameterKind::Real;
    double defaultValue = 0.0;  // Real and Integer
    std::string range;          // the documented range, in words
};

struct Parameter {
    ParameterSpec spec;
    double number = 0.0;  // Real and Integer
    std::string text;     // TokenList and BiasList, in their compact spelling
};

class SamplerStage {
public:
    explicit SamplerStage(Semantics semantics) : m_semantics(semantics) {}
    virtual ~SamplerStage() = default;

    virtual std::string name() const = 0;
    Semantics semantics() const { return m_semantics; }
    Arithmetic arithmetic() const { return m_arithmetic; }
    // A chain passes its arithmetic to every stage it holds.
    virtual void setArithmetic(Arithmetic arithmetic) { m_arithmetic = arithmetic; }

    const std::vector<Parameter>& parameters() const { return m_parameters; }
    const Parameter* findParameter(std::string_view name) const;
    // Parses `text` by the parameter's kind; the error names the stage and the parameter.
    std::optional<std::string> setParameter(std::string_view name, std::string_view text);
    std::optional<std::string> setNumber(std::string_view name, double value);
    double number(std::string_view name) const;
    const std::string& text(std::string_view name) const;

    // The preset's range check. A value the preset's library rejects is an error naming the
    // stage and the parameter; a value it treats as "off" makes active() false instead.
    virtual std::optional<std::string> validate() const { return std::nullopt; }
    virtual bool active() const { return true; }

    virtual void apply(CandidateArray& candidates, SamplerContext& context) = 0;
    // Called after a draw picked `index` of the final array (stateful stages update here).
    virtual void accept(const CandidateArray& /*final*/, std::size_t /*index*/, SamplerContext& /*context*/) {}
    virtual void reset() {}
    // Random stages take their own engine, a copy of `prototype` (llama.cpp seeds each of its
    // random samplers with the same seed but separate engines).
    virtual void setRng(const Rng& /*prototype*/) {}
    virtual std::unique_ptr<SamplerStage> clone() const = 0;
    // History tokens the stage keeps a copy of (DRY's automaton): what one copy of it costs
    // beyond its parameters. A copy never duplicates this; it rebuilds it from the history when
    // it runs, so a loop's per-step snapshots stay small (docs/reliability.md).
    virtual std::size_t heldHistoryTokens() const { return 0; }

protected:
    void declare(ParameterSpec spec);
    // min_keep where the preset's library has it on this sampler: llama.cpp (default 0, >= 0)
    // and hf (default 1, >= 1). checkMinKeep() is the range check; minKeep() is 0 without one.
    void declareMinKeep(bool inLlamaCpp, bool inHf);
    std::optional<std::string> checkMinKeep() const;
    std::size_t minKeep() const;
    std::string problem(std::string_view parameter, const std::string& message) const;
    virtual void parametersChanged() {}
    // The stage computes as its library does (float32); the lesson has only its own arithmetic.
    bool libraryArithmetic() const { return m_arithmetic == Arithmetic::Library && m_semantics != Semantics::Lesson; }

private:
    Parameter* mutableParameter(std::string_view name);

    Semantics m_semantics;
    Arithmetic m_arithmetic = Arithmetic::Exact;
    std::vector<Parameter> m_parameters;
};

// Gives a stage its clone() by copy construction.
template <class Derived>
class StageBase : public SamplerStage {
public:
    using SamplerStage::SamplerStage;
    std::unique_ptr<SamplerStage> clone() const override
    {
        return std::make_unique<Derived>(static_cast<const Derived&>(*this));
    }
};

}  // namespace logitlab::engine
