#include "engine/sampler/arithmetic.h"

namespace logitlab::engine {

std::string arithmeticName(Arithmetic arithmetic) { return arithmetic == Arithmetic::Library ? "library" : "exact"; }

std::optional<Arithmetic> parseArithmetic(std::string_view name)
{
    for (Arithmetic a : allArithmetics())
        if (arithmeticName(a) == name)
            return a;
    return std::nullopt;
}

const std::vector<Arithmetic>& allArithmetics()
{
    static const std::vector<Arithmetic> all{Arithmetic::Exact, Arithmetic::Library};
    return all;
}

Arithmetic defaultArithmetic(Semantics /*semantics*/)
{
    // Exact everywhere: the answer that does not depend on the library's summation order (which
    // its GPU kernels change again), and the one every result LogitLab wrote before had.
    return Arithmetic::Exact;
}

Arithmetic resolveArithmetic(const std::string& choice, Semantics semantics)
{
    return parseArithmetic(choice).value_or(defaultArithmetic(semantics));
}

}  // namespace logitlab::engine
