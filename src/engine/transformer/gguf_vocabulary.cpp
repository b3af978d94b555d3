#include "engine/transformer/gguf_vocabulary.h"

#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/tokenizer.h"

#include <limits>
#include <optional>
#include <utility>

namespace logitlab::engine::transformer {

Result<tokenizer::TokenizerVocabulary> vocabularyFromGguf(const gguf::GgufFile& file)
{
    tokenizer::TokenizerVocabulary v;
    auto model = file.string("tokenizer.ggml.model");
    if (!model)
        return Error{model.error()};
    v.model = *model;
    if (file.find("tokenizer.ggml.pre")) {
        auto pre = file.string("tokenizer.ggml.pre");
        if (!pre)
            return Error{pre.error()};
        v.pre = *pre;
    } else {
        v.pre = "default";
    }
    auto tokens = file.stringArray("tokenizer.ggml.tokens");
    if (!tokens)
        return Error{tokens.error()};
    v.tokens = std::move(tokens).value();
    if (file.find("tokenizer.ggml.scores")) {
        auto scores = file.floatArray("tokenizer.ggml.scores");
        if (!scores)
            return Error{scores.error()};
        v.scores = std::move(scores).value();
    }
    if (file.find("tokenizer.ggml.token_type")) {
        auto types = file.intArray("tokenizer.ggml.token_type");
        if (!types)
            return Error{types.error()};
        v.types = std::move(types).value();
    }
    if (file.find("tokenizer.ggml.merges")) {
        auto merges = file.stringArray("tokenizer.ggml.merges");
        if (!merges)
            return Error{merges.error()};
        v.merges = std::move(merges).value();
    }
    for (const auto& [key, field] :
         {std::pair{"tokenizer.ggml.bos_token_id", &v.bos}, std::pair{"tokenizer.ggml.eos_token_id", &v.eos},
          std::pair{"tokenizer.ggml.unknown_token_id", &v.unknown}}) {
        if (!file.find(key))
            continue;
        auto id = file.unsignedInteger(key);
        if (!id)
            return Error{id.error()};
        if (*id > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
            return Error{file.what() + ": metadata key '" + key + "' is " + std::to_string(*id) +
                         "; expected a token id"};
        *field = static_cast<std::int32_t>(*id);
    }
    const auto flag = [&](const char* key) -> Result<std::optional<bool>> {
        const gguf::GgufValue* value = file.find(key);
        if (!value)
            return std::optional<bool>{};
        if (const bool* b = std::get_if<bool>(value))
            return std::optional<bool>{*b};
        return Error{file.what() + ": metadata key '" + key + "' holds a " +
                     gguf::ggufTypeName(static_cast<std::uint32_t>(gguf::typeOf(*value))) + "; expected a bool"};
    };
    auto addBos = flag("tokenizer.ggml.add_bos_token");
    auto addEos = flag("tokenizer.ggml.add_eos_token");
    auto addSpacePrefix = flag("tokenizer.ggml.add_space_prefix");
    for (const auto* r : {&addBos, &addEos, &addSpacePrefix})
        if (!*r)
            return Error{r->error()};
    v.addBos = addBos->value_or(tokenizer::defaultAddBos(v.model, v.pre));
    v.addEos = addEos->value_or(false);
    v.addSpacePrefix = *addSpacePrefix;
    return v;
}

}  // namespace logitlab::engine::transformer
