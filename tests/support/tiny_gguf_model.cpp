#include "support/tiny_gguf_model.h"

#include "engine/transformer/transformer.h"
#include "transformer/random_model.h"

#include <fstream>
#include <iterator>
#include <span>

namespace logitlab::test {

const std::vector<std::string> kTinyTokens = {"<unk>", "<s>", "</s>",          "\xe2\x96\x81",
                                              "h",     "i",   "\xe2\x96\x81h", "\xe2\x96\x81hi",
                                              "hi",    "!",   "\xe2\x96\x81!", "x"};

namespace {

void addTinyTokenizer(GgufWriter& w)
{
    w.addString("tokenizer.ggml.model", "llama");
    w.addStringArray("tokenizer.ggml.tokens", kTinyTokens);
    w.addFloatArray("tokenizer.ggml.scores", {0, 0, 0, -5, -6, -6, -1, 0, -2, -6, -3, -6});
    w.addInt32Array("tokenizer.ggml.token_type", {2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    w.addUint32("tokenizer.ggml.bos_token_id", 1);
    w.addUint32("tokenizer.ggml.eos_token_id", 2);
    w.addUint32("tokenizer.ggml.unknown_token_id", 0);
    w.addBool("tokenizer.ggml.add_bos_token", true);
}

}  // namespace

GgufWriter tinyLlama(GgmlType matrices, bool withTokenizer, std::uint32_t context)
{
    GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addUint32("llama.embedding_length", 32);
    w.addUint32("llama.block_count", 1);
    w.addUint32("llama.attention.head_count", 2);
    w.addUint32("llama.attention.head_count_kv", 1);
    w.addUint32("llama.feed_forward_length", 64);
    w.addUint32("llama.context_length", context);
    w.addUint32("llama.rope.dimension_count", 16);
    w.addFloat32("llama.rope.freq_base", 10000.0f);
    w.addFloat32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    if (withTokenizer)
        addTinyTokenizer(w);
    std::uint32_t seed = 1;
    const auto tensor = [&](const std::string& name, GgmlType type, std::vector<std::uint64_t> ne, float scale) {
        std::uint64_t n = 1;
        for (const auto d : ne)
            n *= d;
        w.addTensor(name, type, std::move(ne), randomWeights(n, seed++, scale));
    };
    const auto norm = [&](const std::string& name) {
        std::vector<float> ones(32, 1.0f);
        w.addTensor(name, GgmlType::F32, {32}, ones);
    };
    tensor("token_embd.weight", matrices, {32, kTinyTokens.size()}, 1.0f);
    norm("blk.0.attn_norm.weight");
    norm("blk.0.ffn_norm.weight");
    tensor("blk.0.attn_q.weight", matrices, {32, 32}, 0.3f);
    tensor("blk.0.attn_k.weight", matrices, {32, 16}, 0.3f);
    tensor("blk.0.attn_v.weight", matrices, {32, 16}, 0.3f);
    tensor("blk.0.attn_output.weight", GgmlType::F16, {32, 32}, 0.3f);
    tensor("blk.0.ffn_gate.weight", matrices, {32, 64}, 0.3f);
    tensor("blk.0.ffn_up.weight", matrices, {32, 64}, 0.3f);
    tensor("blk.0.ffn_down.weight", matrices, {64, 32}, 0.2f);
    norm("output_norm.weight");
    return w;
}

// The metadata llama.cpp writes for the shape (the writer's file, before any tensor).
void addModelMetadata(GgufWriter& w, const engine::transformer::ModelConfig& c, const std::string& arch)
{
    w.addString("general.architecture", arch);
    w.addUint32(arch + ".embedding_length", static_cast<std::uint32_t>(c.embedding));
    w.addUint32(arch + ".block_count", static_cast<std::uint32_t>(c.layers));
    w.addUint32(arch + ".attention.head_count", static_cast<std::uint32_t>(c.heads));
    w.addUint32(arch + ".attention.head_count_kv", static_cast<std::uint32_t>(c.kvHeads));
    w.addUint32(arch + ".feed_forward_length", static_cast<std::uint32_t>(c.feedForward));
    w.addUint32(arch + ".context_length", static_cast<std::uint32_t>(c.context));
    if (c.arch == engine::transformer::Architecture::Gpt2) {
        w.addFloat32(arch + ".attention.layer_norm_epsilon", static_cast<float>(c.normEpsilon));
    } else {
        w.addFloat32(arch + ".attention.layer_norm_rms_epsilon", static_cast<float>(c.normEpsilon));
        w.addFloat32(arch + ".rope.freq_base", static_cast<float>(c.ropeBase));
        w.addUint32(arch + ".rope.dimension_count", static_cast<std::uint32_t>(c.ropeDims));
        if (c.ropeScale != 1.0) {
            w.addString(arch + ".rope.scaling.type", "linear");
            w.addFloat32(arch + ".rope.scaling.factor", static_cast<float>(1.0 / c.ropeScale));
        }
    }
}

GgufWriter tinyModel(engine::transformer::Architecture arch, GgmlType matrices, std::uint32_t context)
{
    engine::transformer::ModelConfig c = smallConfig(arch);
    c.vocabulary = static_cast<std::int64_t>(kTinyTokens.size());
    c.context = context;
    return modelOfShape(c, matrices);
}

GgufWriter modelOfShape(const engine::transformer::ModelConfig& c, GgmlType matrices)
{
    using engine::transformer::Architecture;
    const Architecture arch = c.arch;
    GgufWriter w;
    addModelMetadata(w, c, engine::transformer::architectureName(arch));
    addTinyTokenizer(w);
    RandomModelOptions o;
    o.matrixType = matrices;
    o.tiedOutput = arch != Architecture::Qwen2;
    o.valuesOnly = true;
    o.write = [&w](const std::string& name, GgmlType type, const std::vector<std::uint64_t>& ne,
                   const std::vector<double>& values) {
        const std::vector<float> floats(values.begin(), values.end());
        w.addTensor(name, type, ne, floats);
        return std::vector<double>{};
    };
    randomModel(c, o);
    return w;
}

std::vector<float> freshLogits(const std::string& path, const std::vector<std::int32_t>& ids)
{
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && !in.eof())
        return {};
    const auto gguf = engine::gguf::GgufFile::parse(std::as_bytes(std::span(chars.data(), chars.size())), path);
    if (!gguf)
        return {};
    engine::transformer::TransformerOptions options;
    options.context = static_cast<std::int64_t>(ids.size());
    auto model = engine::transformer::Transformer::load(*gguf, options);
    if (!model)
        return {};
    const auto logits = model.value().evaluate(ids);
    if (!logits)
        return {};
    return {logits->begin(), logits->end()};
}

}  // namespace logitlab::test
