#include "engine/transformer/transformer.h"

#include "engine/gguf/gguf_file.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace logitlab::engine::transformer {

namespace {

using Buffer = std::vector<float>;

float* at(Buffer& b, std::int64_t offset) { return b.data() + offset; }

void rmsNorm(const float* x, const std::vector<float>& w, float* out, std::int64_t n, double eps)
{
    double squares = 0.0;
    for (std::int64_t i = 0; i < n; ++i)
        squares += static_cast<double>(x[i]) * x[i];
    const float scale = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(n) + eps));
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = (x[i] * scale) * w[static_cast<std::size_t>(i)];
}

void layerNorm(const float* x, const std::vector<float>& w, const std::vector<float>& b, float* out, std::int64_t n,
               double eps)
{
    double sum = 0.0;
    for (std::int64_t i = 0; i < n; ++i)
        sum += x[i];
    const double mean = sum / static_cast<double>(n);
    double squares = 0.0;
    for (std::int64_t i = 0; i < n; ++i)
        squares += (x[i] - mean) * (x[i] - mean);
    const float scale = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(n) + eps));
    const float m = static_cast<float>(mean);
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = ((x[i] - m) * scale) * w[static_cast<std::size_t>(i)] + b[static_cast<std::size_t>(i)];
}

void addBias(float* y, const std::vector<float>& bias)
{
    for (std::size_t i = 0; i < bias.size(); ++i)
        y[i] += bias[i];
}

float silu(float x) { return x / (1.0f + std::exp(-x)); }

// GPT-2's GELU, the tanh form (ggml_gelu, transformers' gelu_new).
float gelu(float x)
{
    constexpr float kSqrt2OverPi = 0.7978845608028654f;
    return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
}

}  // namespace

struct Transformer::Impl {
    ModelConfig config;
    ModelWeights weights;
    TransformerOptions options;
    std::int64_t context = 0;
    ThreadPool pool;

    std::unique_ptr<float[]> keys;  // [layer][position][kv_heads x head_size]
    std::unique_ptr<float[]> values;
    std::int64_t position = 0;
    std::vector<double> inverseFrequency;  // per rotated pair: base^(-2i/dims) / factor_i

    // Per batch: states [batch][width], row-major.
    std::int64_t capacity = 0;
    Buffer x, normed, q, k, v, qkv, attention, projected, gate, up;
    Buffer ropeCos, ropeSin;  // [batch][ropeDims / 2]
    Buffer scratch;           // threads x matmul scratch
    std::size_t scratchPerThread = 0;
    Buffer scores;  // threads x context
    Buffer logits;
    bool haveLogits = false;

    Impl(const ModelConfig& c, ModelWeights w, const TransformerOptions& o, std::int64_t ctx)
        : config(c), weights(std::move(w)), options(o), context(ctx), pool(o.threads)
    {
    }

    std::size_t cacheOffset(std::int64_t layer, std::int64_t pos) const
    {
        return static_cast<std::size_t>((layer * context + pos) * config.kvDim());
    }

    void allocate(std::int64_t batch);
    void product(std::initializer_list<MatmulTask> tasks, std::int64_t batch);
    void forward(std::span<const std::int32_t> tokens, bool wantLogits);
    void rope(float* vec, const float* cosines, const float* sines) const;
    void attend(std::int64_t layer, std::int64_t batch, std::int64_t p0);
};

void Transformer::Impl::allocate(std::int64_t batch)
{
    if (batch <= capacity)
        return;
    capacity = batch;
    const ModelConfig& c = config;
    const auto n = static_cast<std::size_t>(batch);
    x.assign(n * c.embedding, 0.0f);
    normed.assign(n * c.embedding, 0.0f);
    q.assign(n * c.qDim(), 0.0f);
    attention.assign(n * c.qDim(), 0.0f);
    projected.assign(n * c.embedding, 0.0f);
    up.assign(n * c.feedForward, 0.0f);
    if (c.arch == Architecture::Gpt2) {
        qkv.assign(n * 3 * c.embedding, 0.0f);
        k.assign(n * c.kvDim(), 0.0f);
        v.assign(n * c.kvDim(), 0.0f);
    } else {
        gate.assign(n * c.feedForward, 0.0f);
    }
    ropeCos.assign(n * c.ropeDims / 2, 0.0f);
    ropeSin.assign(n * c.ropeDims / 2, 0.0f);
}

void Transformer::Impl::product(std::initializer_list<MatmulTask> tasks, std::int64_t batch)
{
    const std::span<const MatmulTask> list(tasks.begin(), tasks.size());
    const std::size_t need = matmulScratchFloats(list);
    if (need > scratchPerThread) {
        scratchPerThread = need;
        scratch.assign(need * static_cast<std::size_t>(pool.threads()), 0.0f);
    }
    matmul(pool, list, batch, options.plan, options.kernels, scratch.data());
}

void Transformer::Impl::rope(float* vec, const float* cosines, const float* sines) const
{
    const std::int64_t half = config.ropeDims / 2;
    const bool neox = config.rope() == RopeOrdering::Neox;
    for (std::int64_t i = 0; i < half; ++i) {
        float& a = neox ? vec[i] : vec[2 * i];
        float& b = neox ? vec[i + half] : vec[2 * i + 1];
        const float x0 = a;
        const float x1 = b;
        a = x0 * cosines[i] - x1 * sines[i];
        b = x0 * sines[i] + x1 * cosines[i];
    }
}

// Causal attention of the batch's queries (positions p0..p0 + batch - 1) over the cache, one
// (head, query) pair per work item: scores in order of position, softmax, values added in
// order of position.
void Transformer::Impl::attend(std::int64_t layer, std::int64_t batch, std::int64_t p0)
{
    const ModelConfig& c = config;
    const std::int64_t hd = c.headDim;
    const std::int64_t group = c.heads / c.kvHeads;
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(hd)));
    const KernelPath path = options.kernels;
    const float* keyBase = keys.get() + cacheOffset(layer, 0);
    const float* valueBase = values.get() + cacheOffset(layer, 0);
    const std::int64_t kvDim = c.kvDim();
    pool.parallelFor(c.heads * batch, 1, [&](std::int64_t begin, std::int64_t end, int part) {
        float* s = scores.data() + static_cast<std::size_t>(part) * static_cast<std::size_t>(context);
        for (std::int64_t item = begin; item < end; ++item) {
            const std::int64_t head = item / batch;
            const std::int64_t t = item % batch;
            const std::int64_t last = p0 + t;
            const std::int64_t kvOffset = (head / group) * hd;
            const float* query = q.data() + t * c.qDim() + head * hd;
            dotsF32(keyBase + kvOffset, kvDim, last + 1, query, hd, s, path);
            float top = -std::numeric_limits<float>::infinity();
            for (std::int64_t j = 0; j <= last; ++j) {
                s[j] *= scale;
                top = std::max(top, s[j]);
            }
            float sum = 0.0f;
            for (std::int64_t j = 0; j <= last; ++j) {
                s[j] = std::exp(s[j] - top);
                sum += s[j];
            }
            const float inverse = 1.0f / sum;
            for (std::int64_t j = 0; j <= last; ++j)
                s[j] *= inverse;
            weightedSumF32(valueBase + kvOffset, kvDim, last + 1, s, hd, attention.data() + t * c.qDim() + head * hd,
                           path);
        }
    });
}

void Transformer::Impl::forward(std::span<const std::int32_t> tokens, bool wantLogits)
{
    const ModelConfig& c = config;
    const ModelWeights& w = weights;
    const auto n = static_cast<std::int64_t>(tokens.size());
    const std::int64_t E = c.embedding;
    const std::int64_t F = c.feedForward;
    const std::int64_t p0 = position;
    const bool gpt2 = c.arch == Architecture::Gpt2;
    allocate(n);

    for (std::int64_t t = 0; t < n; ++t) {
        float* row = at(x, t * E);
        dequantize(w.tokenEmbedding.type, w.tokenEmbedding.row(tokens[static_cast<std::size_t>(t)]), row, E);
        if (gpt2) {
            dequantize(w.positionEmbedding.type, w.positionEmbedding.row(p0 + t), at(projected, t * E), E);
            for (std::int64_t i = 0; i < E; ++i)
                row[i] += projected[static_cast<std::size_t>(t * E + i)];
        }
    }
    const std::int64_t half = c.ropeDims / 2;
    for (std::int64_t t = 0; t < n; ++t)
        for (std::int64_t i = 0; i < half; ++i) {
            const double angle = static_cast<double>(p0 + t) * inverseFrequency[static_cast<std::size_t>(i)];
            ropeCos[static_cast<std::size_t>(t * half + i)] = static_cast<float>(std::cos(angle));
            ropeSin[static_cast<std::size_t>(t * half + i)] = static_cast<float>(std::sin(angle));
        }

    const std::int64_t kvDim = c.kvDim();
    const std::int64_t qDim = c.qDim();
    for (std::int64_t layer = 0; layer < c.layers; ++layer) {
        const LayerWeights& l = w.layers[static_cast<std::size_t>(layer)];
        float* cacheK = keys.get() + cacheOffset(layer, p0);
        float* cacheV = values.get() + cacheOffset(layer, p0);
        for (std::int64_t t = 0; t < n; ++t) {
            if (gpt2)
                layerNorm(at(x, t * E), l.attnNorm, l.attnNormBias, at(normed, t * E), E, c.normEpsilon);
            else
                rmsNorm(at(x, t * E), l.attnNorm, at(normed, t * E), E, c.normEpsilon);
        }
        if (gpt2) {
            product({{&l.qkv, normed.data(), E, qkv.data(), 3 * E}}, n);
            for (std::int64_t t = 0; t < n; ++t) {
                float* row = at(qkv, t * 3 * E);
                addBias(row, l.qkvBias);
                std::copy(row, row + E, at(q, t * qDim));
                std::copy(row + E, row + 2 * E, cacheK + t * kvDim);
                std::copy(row + 2 * E, row + 3 * E, cacheV + t * kvDim);
            }
        } else {
            product({{&l.q, normed.data(), E, q.data(), qDim},
                     {&l.k, normed.data(), E, cacheK, kvDim},
                     {&l.v, normed.data(), E, cacheV, kvDim}},
                    n);
            for (std::int64_t t = 0; t < n; ++t) {
                addBias(at(q, t * qDim), l.qBias);
                addBias(cacheK + t * kvDim, l.kBias);
                addBias(cacheV + t * kvDim, l.vBias);
                const float* cosines = at(ropeCos, t * half);
                const float* sines = at(ropeSin, t * half);
                for (std::int64_t h = 0; h < c.heads; ++h)
                    rope(at(q, t * qDim + h * c.headDim), cosines, sines);
                for (std::int64_t h = 0; h < c.kvHeads; ++h)
                    rope(cacheK + t * kvDim + h * c.headDim, cosines, sines);
            }
        }
        attend(layer, n, p0);
        product({{&l.output, attention.data(), qDim, projected.data(), E}}, n);
        for (std::int64_t t = 0; t < n; ++t) {
            float* row = at(projected, t * E);
            addBias(row, l.outputBias);
            float* residual = at(x, t * E);
            for (std::int64_t i = 0; i < E; ++i)
                residual[i] += row[i];
            if (gpt2)
                layerNorm(residual, l.ffnNorm, l.ffnNormBias, at(normed, t * E), E, c.normEpsilon);
            else
                rmsNorm(residual, l.ffnNorm, at(normed, t * E), E, c.normEpsilon);
        }
        if (gpt2) {
            product({{&l.up, normed.data(), E, up.data(), F}}, n);
            pool.parallelFor(n * F, 1024, [&](std::int64_t begin, std::int64_t end, int) {
                for (std::int64_t i = begin; i < end; ++i)
                    up[static_cast<std::size_t>(i)] =
                        gelu(up[static_cast<std::size_t>(i)] + l.upBias[static_cast<std::size_t>(i % F)]);
            });
        } else {
            product({{&l.gate, normed.data(), E, gate.data(), F}, {&l.up, normed.data(), E, up.data(), F}}, n);
            pool.parallelFor(n * F, 1024, [&](std::int64_t begin, std::int64_t end, int) {
                for (std::int64_t i = begin; i < end; ++i)
                    up[static_cast<std::size_t>(i)] *= silu(gate[static_cast<std::size_t>(i)]);
            });
        }
        product({{&l.down, up.data(), F, projected.data(), E}}, n);
        for (std::int64_t t = 0; t < n; ++t) {
            float* row = at(projected, t * E);
            addBias(row, l.downBias);
            float* residual = at(x, t * E);
            for (std::int64_t i = 0; i < E; ++i)
                residual[i] += row[i];
        }
    }
    position = p0 + n;
    if (!wantLogits)
        return;
    const float* last = at(x, (n - 1) * E);
    if (gpt2)
        layerNorm(last, w.outputNorm, w.outputNormBias, normed.data(), E, c.normEpsilon);
    else
        rmsNorm(last, w.outputNorm, normed.data(), E, c.normEpsilon);
    product({{&w.output, normed.data(), E, logits.data(), c.vocabulary}}, 1);
    haveLogits = true;
}

Transformer::Transformer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Transformer::Transformer(Transformer&&) noexcept = default;
Transformer& Transformer::operator=(Transformer&&) noexcept = default;
Transformer::~Transformer() = default;

Result<Transformer> Transformer::load(const gguf::GgufFile& file, const TransformerOptions& options)
{
    auto config = ModelConfig::fromGguf(file);
    if (!config)
        return Error{config.error()};
    return create(config.value(), file.tensors(), options, file.what());
}

Result<Transformer> Transformer::create(const ModelConfig& config, std::span<const gguf::TensorInfo> tensors,
                                        const TransformerOptions& options, const std::string& what)
{
    if (options.threads < 1 || options.threads > TransformerOptions::kMaxThreads)
        return Error{what + ": " + std::to_string(options.threads) + " threads is outside 1.." +
                     std::to_string(TransformerOptions::kMaxThreads)};
    if (options.batch < 1)
        return Error{what + ": the batch of " + std::to_string(options.batch) + " positions must be at least 1"};
    if (options.plan.splitK < 1 || options.plan.splitK > kMaxSplitK)
        return Error{what + ": split-K " + std::to_string(options.plan.splitK) + " is outside 1.." +
                     std::to_string(kMaxSplitK)};
    if (options.kernels == KernelPath::Avx2 && bestKernelPath() != KernelPath::Avx2)
        return Error{what + ": this processor has no AVX2 with FMA for the avx2 kernels"};
    auto weights = ModelWeights::bind(config, tensors, what);
    if (!weights)
        return Error{weights.error()};
    std::int64_t context = options.context == 0 ? config.context : options.context;
    if (context < 1 || context > ModelConfig::kMaxContext)
        return Error{what + ": a context of " + std::to_string(context) + " positions is outside 1.." +
                     std::to_string(ModelConfig::kMaxContext)};
    if (config.arch == Architecture::Gpt2 && context > config.context)
        return Error{what + ": gpt2 learned " + std::to_string(config.context) + " positions; a context of " +
                     std::to_string(context) + " has no embedding past them"};
    const std::uint64_t cacheBytes = 2ull * static_cast<std::uint64_t>(config.layers) *
                                     static_cast<std::uint64_t>(context) * static_cast<std::uint64_t>(config.kvDim()) *
                                     sizeof(float);
    if (cacheBytes > options.kvCacheLimitBytes)
        return Error{what + ": the KV cache for a context of " + std::to_string(context) + " positions needs " +
                     std::to_string(cacheBytes) + " bytes, over the limit of " +
                     std::to_string(options.kvCacheLimitBytes) + " bytes; choose a smaller context"};

    auto impl = std::make_unique<Impl>(config, std::move(weights).value(), options, context);
    const std::size_t cacheFloats = cacheBytes / sizeof(float) / 2;
    impl->keys.reset(new float[cacheFloats]);  // untouched pages cost nothing until used
    impl->values.reset(new float[cacheFloats]);
    for (std::int64_t i = 0; i < config.ropeDims / 2; ++i) {
        double f = config.ropeScale *
                   std::pow(config.ropeBase, -2.0 * static_cast<double>(i) / static_cast<double>(config.ropeDims));
        if (!impl->weights.ropeFactors.empty())
            f /= impl->weights.ropeFactors[static_cast<std::size_t>(i)];
        impl->inverseFrequency.push_back(f);
    }
    impl->scores.assign(static_cast<std::size_t>(context) * static_cast<std::size_t>(options.threads), 0.0f);
    impl->logits.assign(static_cast<std::size_t>(config.vocabulary), 0.0f);
    return Transformer(std::move(impl));
}

const ModelConfig& Transformer::config() const { return m_impl->config; }
const ModelWeights& Transformer::weights() const { return m_impl->weights; }
const TransformerOptions& Transformer::options() const { return m_impl->options; }
std::int64_t Transformer::context() const { return m_impl->context; }
std::int64_t Transformer::position() const { return m_impl->position; }

std::uint64_t Transformer::kvCacheBytes() const
{
    return 2ull * static_cast<std::uint64_t>(m_impl->config.layers) * static_cast<std::uint64_t>(m_impl->context) *
           static_cast<std::uint64_t>(m_impl->config.kvDim()) * sizeof(float);
}

Result<std::span<const float>> Transformer::evaluate(std::span<const std::int32_t> tokens)
{
    Impl& m = *m_impl;
    if (tokens.empty())
        return Error{"no tokens to evaluate"};
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (tokens[i] < 0 || tokens[i] >= m.config.vocabulary)
            return Error{"token " + std::to_string(tokens[i]) + " (at " + std::to_string(i) +
                         ") is outside the vocabulary of " + std::to_string(m.config.vocabulary)};
    if (static_cast<std::int64_t>(tokens.size()) > m.context - m.position)
        return Error{std::to_string(tokens.size()) + " tokens do not fit: " + std::to_string(m.position) + " of " +
                     std::to_string(m.context) + " positions are in use"};
    m.haveLogits = false;
    for (std::size_t begin = 0; begin < tokens.size(); begin += static_cast<std::size_t>(m.options.batch)) {
        const std::size_t count = std::min(tokens.size() - begin, static_cast<std::size_t>(m.options.batch));
        m.forward(tokens.subspan(begin, count), begin + count == tokens.size());
    }
    return logits();
}

std::span<const float> Transformer::logits() const
{
    if (!m_impl->haveLogits)
        return {};
    return m_impl->logits;
}

void Transformer::reset() { truncate(0); }

void Transformer::truncate(std::int64_t n)
{
    m_impl->position = std::clamp<std::int64_t>(n, 0, m_impl->position);
    m_impl->haveLogits = false;
}

}  // namespace logitlab::engine::transformer
