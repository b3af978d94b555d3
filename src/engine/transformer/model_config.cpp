#include "engine/transformer/model_config.h"

#include "engine/gguf/gguf_file.h"

#include <cmath>

namespace logitlab::engine::transformer {

std::string architectureName(Architecture arch)
{
    switch (arch) {
    case Architecture::Llama:
        return "llama";
    case Architecture::Qwen2:
        return "qwen2";
    case Architecture::Gpt2:
        return "gpt2";
    }
    return "?";
}

RopeOrdering ModelConfig::rope() const
{
    switch (arch) {
    case Architecture::Llama:
        return RopeOrdering::Normal;
    case Architecture::Qwen2:
        return RopeOrdering::Neox;
    case Architecture::Gpt2:
        return RopeOrdering::None;
    }
    return RopeOrdering::None;
}

std::string ModelConfig::problem() const
{
    auto outside = [](std::int64_t v, std::int64_t most) { return v < 1 || v > most; };
    if (outside(embedding, kMaxDimension))
        return "embedding_length " + std::to_string(embedding) + " is outside 1.." + std::to_string(kMaxDimension);
    if (outside(layers, kMaxLayers))
        return "block_count " + std::to_string(layers) + " is outside 1.." + std::to_string(kMaxLayers);
    if (outside(heads, kMaxDimension) || outside(kvHeads, heads))
        return "attention.head_count " + std::to_string(heads) + " and head_count_kv " + std::to_string(kvHeads) +
               " are impossible (need 1 <= head_count_kv <= head_count)";
    if (heads % kvHeads != 0)
        return "attention.head_count " + std::to_string(heads) + " is not a multiple of head_count_kv " +
               std::to_string(kvHeads);
    if (outside(headDim, kMaxDimension) || outside(qDim(), kMaxDimension))
        return "the head size " + std::to_string(headDim) + " is impossible";
    if (outside(feedForward, kMaxDimension))
        return "feed_forward_length " + std::to_string(feedForward) + " is outside 1.." + std::to_string(kMaxDimension);
    if (outside(context, kMaxContext))
        return "context_length " + std::to_string(context) + " is outside 1.." + std::to_string(kMaxContext);
    if (outside(vocabulary, 1 << 24))
        return "the vocabulary of " + std::to_string(vocabulary) + " tokens is outside 1..16777216";
    if (arch == Architecture::Gpt2 && qDim() != embedding)
        return "gpt2's heads (" + std::to_string(heads) + " x " + std::to_string(headDim) +
               ") do not make up embedding_length " + std::to_string(embedding);
    if (rope() != RopeOrdering::None && (ropeDims < 2 || ropeDims > headDim || ropeDims % 2 != 0))
        return "rope.dimension_count " + std::to_string(ropeDims) + " must be even and within 2.." +
               std::to_string(headDim);
    if (rope() != RopeOrdering::None && !(std::isfinite(ropeScale) && ropeScale > 0.0))
        return "the RoPE scale " + std::to_string(ropeScale) + " must be positive and finite";
    if (rope() != RopeOrdering::None && !(std::isfinite(ropeBase) && ropeBase > 1.0))
        return "rope.freq_base " + std::to_string(ropeBase) + " must be finite and above 1";
    if (!(std::isfinite(normEpsilon) && normEpsilon >= 0.0 && normEpsilon < 1.0))
        return "the norm epsilon " + std::to_string(normEpsilon) + " must lie in [0, 1)";
    return {};
}

Result<ModelConfig> ModelConfig::fromGguf(const gguf::GgufFile& file)
{
    const std::string& what = file.what();
    auto fail = [&](const std::string& message) { return Error{what + ": " + message}; };

    auto archName = file.string("general.architecture");
    if (!archName)
        return Error{archName.error()};
    ModelConfig c;
    const std::string& name = archName.value();
    if (name == "llama")
        c.arch = Architecture::Llama;
    else if (name == "qwen2")
        c.arch = Architecture::Qwen2;
    else if (name == "gpt2")
        c.arch = Architecture::Gpt2;
    else
        return fail("the architecture \"" + name + "\" is not supported (LogitLab runs llama, qwen2 and gpt2)");

    std::string firstError;
    auto integer = [&](const std::string& key, std::int64_t fallback, bool required) -> std::int64_t {
        if (!required && file.find(name + "." + key) == nullptr)
            return fallback;
        auto v = file.unsignedInteger(name + "." + key);
        if (!v) {
            if (firstError.empty())
                firstError = v.error();
            return 0;
        }
        return v.value() > static_cast<std::uint64_t>(kMaxContext) * 64 ? -1 : static_cast<std::int64_t>(v.value());
    };
    auto real = [&](const std::string& key, double fallback, bool required) -> double {
        if (!required && file.find(name + "." + key) == nullptr)
            return fallback;
        auto v = file.number(name + "." + key);
        if (!v) {
            if (firstError.empty())
                firstError = v.error();
            return 0.0;
        }
        return v.value();
    };
    c.embedding = integer("embedding_length", 0, true);
    c.layers = integer("block_count", 0, true);
    c.heads = integer("attention.head_count", 0, true);
    c.kvHeads = integer("attention.head_count_kv", c.heads, false);
    c.feedForward = integer("feed_forward_length", 0, true);
    c.context = integer("context_length", 0, true);
    if (c.heads > 0)
        c.headDim = integer("attention.key_length", c.embedding / c.heads, false);
    if (c.arch == Architecture::Gpt2) {
        c.normEpsilon = real("attention.layer_norm_epsilon", 1e-5, true);
    } else {
        c.normEpsilon = real("attention.layer_norm_rms_epsilon", 1e-5, true);
        c.ropeBase = real("rope.freq_base", 10000.0, false);
        c.ropeDims = integer("rope.dimension_count", c.headDim, false);
        // As llama.cpp reads them: the factor (or the older rope.scale_linear) applies whatever
        // the type says, 0 meaning none; yarn and longrope change more than the angles.
        if (file.find(name + ".rope.scaling.type") != nullptr) {
            auto type = file.string(name + ".rope.scaling.type");
            if (!type)
                return Error{type.error()};
            if (type.value() != "none" && type.value() != "linear")
                return fail("RoPE scaling \"" + type.value() + "\" is not supported (LogitLab applies none or linear)");
        }
        const bool hasFactor = file.find(name + ".rope.scaling.factor") != nullptr;
        const double factor = real(hasFactor ? "rope.scaling.factor" : "rope.scale_linear", 0.0, false);
        c.ropeScale = factor == 0.0 ? 1.0 : 1.0 / factor;
    }
    if (!firstError.empty())
        return Error{firstError};
    if (const gguf::TensorInfo* embd = file.tensor("token_embd.weight"); embd != nullptr && embd->ne.size() == 2)
        c.vocabulary = embd->ne[1] > (1u << 24) ? -1 : static_cast<std::int64_t>(embd->ne[1]);
    else
        return fail("the tensor token_embd.weight is missing or not two-dimensional (expected [" +
                    std::to_string(c.embedding) + ", vocabulary])");
    if (std::string p = c.problem(); !p.empty())
        return fail(name + ": " + p);
    return c;
}

}  // namespace logitlab::engine::transformer
