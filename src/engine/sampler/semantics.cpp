#include "engine/sampler/semantics.h"

namespace logitlab::engine {

std::string semanticsName(Semantics semantics)
{
    switch (semantics) {
    case Semantics::Lesson:
        return "lesson";
    case Semantics::LlamaCpp:
        return "llama.cpp";
    case Semantics::Hf:
        return "hf";
    case Semantics::Vllm:
        return "vllm";
    }
    return "lesson";
}

std::optional<Semantics> parseSemantics(std::string_view name)
{
    for (Semantics s : allSemantics())
        if (semanticsName(s) == name)
            return s;
    return std::nullopt;
}

const std::vector<Semantics>& allSemantics()
{
    static const std::vector<Semantics> all{Semantics::Lesson, Semantics::LlamaCpp, Semantics::Hf, Semantics::Vllm};
    return all;
}

}  // namespace logitlab::engine
