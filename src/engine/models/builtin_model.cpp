#include "engine/models/builtin_model.h"

#include <cstdlib>
#include <iostream>
#include <span>

namespace logitlab::engine {

// Defined in the generated builtin_model_data.cpp.
extern const unsigned char kBuiltinModelBytes[];
extern const std::size_t kBuiltinModelSize;
extern const char* const kBuiltinModelSources;

std::shared_ptr<const NgramModel> builtinModel()
{
    static const std::shared_ptr<const NgramModel> model = [] {
        auto loaded = NgramModel::fromBytes(std::span(kBuiltinModelBytes, kBuiltinModelSize));
        if (!loaded) {
            // The trainer checked these bytes when it wrote them: this is a broken build.
            std::cerr << loaded.error() << '\n';
            std::abort();
        }
        return std::make_shared<const NgramModel>(std::move(loaded).value());
    }();
    return model;
}

std::string builtinModelSources() { return kBuiltinModelSources; }

}  // namespace logitlab::engine
