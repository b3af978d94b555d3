#include "engine/transformer/model_weights.h"

#include <map>

namespace logitlab::engine::transformer {

namespace {

using gguf::GgmlType;

std::string shapeText(const std::vector<std::uint64_t>& ne)
{
    std::string text = "[";
    for (std::size_t i = 0; i < ne.size(); ++i)
        text += (i ? ", " : "") + std::to_string(ne[i]);
    return text + "]";
}

class Binder {
public:
    Binder(std::span<const gguf::TensorInfo> tensors, const std::string& what) : m_what(what)
    {
        for (const gguf::TensorInfo& t : tensors)
            m_byName.emplace(t.name, &t);
    }

    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    bool has(const std::string& name) const { return m_byName.count(name) != 0; }

    // A matrix of `rows` rows of `cols`; `required` false: an empty view when absent.
    WeightView matrix(const std::string& name, std::int64_t cols, std::int64_t rows, bool required = true)
    {
        const gguf::TensorInfo* t = find(name, {std::uint64_t(cols), std::uint64_t(rows)}, required);
        if (t == nullptr)
            return {};
        WeightView w{t->type, t->data.data(), cols, rows};
        if (cols % static_cast<std::int64_t>(gguf::blockWeights(t->type)) != 0)
            fail("the tensor " + name + " (" + std::string(gguf::ggmlTypeName(t->type)) + ") has rows of " +
                 std::to_string(cols) + " weights, not whole blocks of " + std::to_string(gguf::blockWeights(t->type)));
        else if (t->data.size() != w.rowBytes() * static_cast<std::size_t>(rows))
            fail("the tensor " + name + " holds " + std::to_string(t->data.size()) + " bytes, not the " +
                 std::to_string(w.rowBytes() * static_cast<std::size_t>(rows)) + " its shape and type take");
        return w;
    }

    // A vector of `size` values as floats; `required` false: empty when absent.
    std::vector<float> vector(const std::string& name, std::int64_t size, bool required = true)
    {
        const gguf::TensorInfo* t = find(name, {std::uint64_t(size)}, required);
        if (t == nullptr)
            return {};
        WeightView w{t->type, t->data.data(), size, 1};
        if (size % static_cast<std::int64_t>(gguf::blockWeights(t->type)) != 0 || t->data.size() != w.rowBytes()) {
            fail("the tensor " + name + " holds " + std::to_string(t->data.size()) + " bytes, not " +
                 std::to_string(size) + " " + std::string(gguf::ggmlTypeName(t->type)) + " values");
            return {};
        }
        std::vector<float> values(static_cast<std::size_t>(size));
        dequantize(t->type, t->data.data(), values.data(), size);
        return values;
    }

private:
    const gguf::TensorInfo* find(const std::string& name, const std::vector<std::uint64_t>& shape, bool required)
    {
        if (failed())
            return nullptr;
        auto it = m_byName.find(name);
        if (it == m_byName.end()) {
            if (required)
                fail("the tensor " + name + " is missing (expected shape " + shapeText(shape) + ")");
            return nullptr;
        }
        const gguf::TensorInfo* t = it->second;
        // ggml pads shapes with ones: [576] and [576, 1] are the same vector.
        std::vector<std::uint64_t> ne = t->ne;
        while (ne.size() > shape.size() && ne.back() == 1)
            ne.pop_back();
        if (ne != shape) {
            fail("the tensor " + name + " has shape " + shapeText(t->ne) + ", expected " + shapeText(shape));
            return nullptr;
        }
        return t;
    }

    void fail(const std::string& message)
    {
        if (m_error.empty())
            m_error = m_what + ": " + message;
    }

    std::string m_what;
    std::string m_error;
    std::map<std::string, const gguf::TensorInfo*> m_byName;
};

}  // namespace

Result<ModelWeights> ModelWeights::bind(const ModelConfig& c, std::span<const gguf::TensorInfo> tensors,
                                        const std::string& what)
{
    if (std::string problem = c.problem(); !problem.empty())
        return Error{what + ": " + problem};
    Binder b(tensors, what);
    ModelWeights m;
    const std::int64_t E = c.embedding;
    const bool gpt2 = c.arch == Architecture::Gpt2;
    m.tokenEmbedding = b.matrix("token_embd.weight", E, c.vocabulary);
    if (gpt2)
        m.positionEmbedding = b.matrix("position_embd.weight", E, c.context);
    if (c.rope() != RopeOrdering::None && b.has("rope_freqs.weight"))
        m.ropeFactors = b.vector("rope_freqs.weight", c.ropeDims / 2);
    m.layers.resize(static_cast<std::size_t>(c.layers));
    for (std::int64_t i = 0; i < c.layers && !b.failed(); ++i) {
        LayerWeights& l = m.layers[static_cast<std::size_t>(i)];
        const std::string p = "blk." + std::to_string(i) + ".";
        l.attnNorm = b.vector(p + "attn_norm.weight", E);
        l.ffnNorm = b.vector(p + "ffn_norm.weight", E);
        if (gpt2) {
            l.attnNormBias = b.vector(p + "attn_norm.bias", E);
            l.ffnNormBias = b.vector(p + "ffn_norm.bias", E);
            l.qkv = b.matrix(p + "attn_qkv.weight", E, 3 * E);
            l.qkvBias = b.vector(p + "attn_qkv.bias", 3 * E);
            l.output = b.matrix(p + "attn_output.weight", E, E);
            l.outputBias = b.vector(p + "attn_output.bias", E);
            l.up = b.matrix(p + "ffn_up.weight", E, c.feedForward);
            l.upBias = b.vector(p + "ffn_up.bias", c.feedForward);
            l.down = b.matrix(p + "ffn_down.weight", c.feedForward, E);
            l.downBias = b.vector(p + "ffn_down.bias", E);
            continue;
        }
        const bool biases = c.arch == Architecture::Qwen2;
        l.q = b.matrix(p + "attn_q.weight", E, c.qDim());
        l.k = b.matrix(p + "attn_k.weight", E, c.kvDim());
        l.v = b.matrix(p + "attn_v.weight", E, c.kvDim());
        l.qBias = b.vector(p + "attn_q.bias", c.qDim(), biases);
        l.kBias = b.vector(p + "attn_k.bias", c.kvDim(), biases);
        l.vBias = b.vector(p + "attn_v.bias", c.kvDim(), biases);
        l.output = b.matrix(p + "attn_output.weight", c.qDim(), E);
        l.outputBias = b.vector(p + "attn_output.bias", E, false);
        l.gate = b.matrix(p + "ffn_gate.weight", E, c.feedForward);
        l.up = b.matrix(p + "ffn_up.weight", E, c.feedForward);
        l.down = b.matrix(p + "ffn_down.weight", c.feedForward, E);
    }
    m.outputNorm = b.vector("output_norm.weight", E);
    if (gpt2)
        m.outputNormBias = b.vector("output_norm.bias", E);
    m.tiedOutput = !b.has("output.weight");
    m.output = m.tiedOutput ? m.tokenEmbedding : b.matrix("output.weight", E, c.vocabulary);
    if (b.failed())
        return Error{b.error()};
    return m;
}

}  // namespace logitlab::engine::transformer
