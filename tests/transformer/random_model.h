// Models with seeded random weights in memory, for the forward pass's tests and benchmark: the
// tensors a GGUF file of the architecture holds, by llama.cpp's names, with the matrices in a
// chosen type (F32, F16 or Q8_0; norms and biases F32), and each tensor's values as the engine
// dequantises them (float16 scales and weights are exact in double), for the reference.
//
// referenceLogits() is the float64 forward pass the engine is checked against: every position
// of a token sequence recomputed from scratch, no cache, plain loops, in double throughout.
#pragma once

#include "engine/gguf/gguf_file.h"
#include "engine/kernels/float_formats.h"
#include "engine/transformer/model_config.h"
#include "support/gguf_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace logitlab::test {

using engine::gguf::GgmlType;
using engine::gguf::TensorInfo;
using engine::transformer::Architecture;
using engine::transformer::ModelConfig;
using engine::transformer::RopeOrdering;

struct RandomModel {
    ModelConfig config;
    std::vector<TensorInfo> tensors;
    std::map<std::string, std::vector<double>> values;  // as the engine reads each tensor
    std::deque<std::vector<std::byte>> storage;         // the tensors' bytes (stable addresses)
};

struct RandomModelOptions {
    GgmlType matrixType = GgmlType::F32;
    bool tiedOutput = true;
    bool ropeFactors = false;  // a rope_freqs.weight tensor (Llama 3)
    bool valuesOnly = false;   // the benchmark: no values copy for the reference
    std::uint64_t seed = 1;
    // When set, each tensor goes here instead of into RandomModel::tensors (a GGUF writer), and
    // what it returns (the values as read back) into RandomModel::values.
    std::function<std::vector<double>(const std::string& name, GgmlType type, const std::vector<std::uint64_t>& ne,
                                      const std::vector<double>& values)>
        write;
};

class SplitMix {
public:
    explicit SplitMix(std::uint64_t seed) : m_state(seed) {}
    // Uniform in [-1, 1).
    double next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
    }

private:
    std::uint64_t m_state;
};

inline void addTensor(RandomModel& m, const std::string& name, GgmlType type, std::vector<std::uint64_t> ne,
                      const std::vector<double>& wanted, bool keepValues)
{
    std::vector<std::byte> bytes;
    std::vector<double> values(wanted.size());
    auto put = [&bytes](const void* p, std::size_t n) {
        const auto* b = static_cast<const std::byte*>(p);
        bytes.insert(bytes.end(), b, b + n);
    };
    if (type == GgmlType::F32) {
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            const auto f = static_cast<float>(wanted[i]);
            put(&f, sizeof f);
            values[i] = f;
        }
    } else if (type == GgmlType::F16) {
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            const std::uint16_t bits = engine::toFloat16Bits(wanted[i]);
            put(&bits, sizeof bits);
            values[i] = engine::fromFloat16Bits(bits);
        }
    } else if (type != GgmlType::Q8_0) {  // the writer's quantisation, read back as the reader reads it
        const std::vector<float> floats(wanted.begin(), wanted.end());
        bytes = quantize(type, floats);
        std::vector<float> back(wanted.size());
        engine::gguf::dequantizeRow(type, bytes.data(), back.data(), back.size());
        values.assign(back.begin(), back.end());
    } else {  // Q8_0, as ggml's quantize_row_q8_0_ref
        for (std::size_t b = 0; b < wanted.size(); b += 32) {
            double amax = 0.0;
            for (std::size_t i = 0; i < 32; ++i)
                amax = std::max(amax, std::fabs(wanted[b + i]));
            const float d = static_cast<float>(amax / 127.0);
            const float id = d != 0.0f ? 1.0f / d : 0.0f;
            const std::uint16_t dbits = engine::toFloat16Bits(d);
            put(&dbits, sizeof dbits);
            const double dStored = engine::fromFloat16Bits(dbits);
            for (std::size_t i = 0; i < 32; ++i) {
                const auto q = static_cast<std::int8_t>(std::lround(static_cast<float>(wanted[b + i]) * id));
                put(&q, 1);
                values[b + i] = dStored * q;
            }
        }
    }
    m.storage.push_back(std::move(bytes));
    TensorInfo info;
    info.name = name;
    info.type = type;
    info.ne = std::move(ne);
    info.data = std::span<const std::byte>(m.storage.back());
    m.tensors.push_back(std::move(info));
    if (keepValues)
        m.values[name] = std::move(values);
}

// The tensors ModelWeights::bind reads, for `config`, with uniform random values: matrices
// scaled by sqrt(3 / cols) (unit-variance products), embeddings in [-1, 1), norm weights near 1,
// biases near 0, the output layer scaled to logits of a few units.
inline RandomModel randomModel(const ModelConfig& c, const RandomModelOptions& o = {})
{
    RandomModel m;
    m.config = c;
    SplitMix rng(o.seed);
    const auto E = static_cast<std::uint64_t>(c.embedding);
    const auto F = static_cast<std::uint64_t>(c.feedForward);
    const auto Q = static_cast<std::uint64_t>(c.qDim());
    const auto KV = static_cast<std::uint64_t>(c.kvDim());
    const bool keep = !o.valuesOnly;
    auto emit = [&](const std::string& name, GgmlType type, std::vector<std::uint64_t> ne,
                    const std::vector<double>& wanted, bool keepValues) {
        if (o.write)
            m.values[name] = o.write(name, type, ne, wanted);
        else
            addTensor(m, name, type, std::move(ne), wanted, keepValues);
    };
    auto random = [&](std::size_t n, double centre, double spread) {
        std::vector<double> v(n);
        for (double& x : v)
            x = centre + spread * rng.next();
        return v;
    };
    auto matrix = [&](const std::string& name, std::uint64_t cols, std::uint64_t rows, double scale = 1.0) {
        emit(name, o.matrixType, {cols, rows},
             random(cols * rows, 0.0, scale * std::sqrt(3.0 / static_cast<double>(cols))), keep);
    };
    auto vector = [&](const std::string& name, std::uint64_t n, double centre, double spread) {
        emit(name, GgmlType::F32, {n}, random(n, centre, spread), true);
    };
    const bool gpt2 = c.arch == Architecture::Gpt2;
    emit("token_embd.weight", o.matrixType, {E, static_cast<std::uint64_t>(c.vocabulary)},
         random(E * c.vocabulary, 0.0, 1.0), keep);
    if (gpt2)
        emit("position_embd.weight", GgmlType::F32, {E, static_cast<std::uint64_t>(c.context)},
             random(E * c.context, 0.0, 0.5), keep);
    if (o.ropeFactors)
        vector("rope_freqs.weight", static_cast<std::uint64_t>(c.ropeDims / 2), 2.0, 1.0);
    for (std::int64_t i = 0; i < c.layers; ++i) {
        const std::string p = "blk." + std::to_string(i) + ".";
        vector(p + "attn_norm.weight", E, 1.0, 0.2);
        vector(p + "ffn_norm.weight", E, 1.0, 0.2);
        if (gpt2) {
            vector(p + "attn_norm.bias", E, 0.0, 0.1);
            vector(p + "ffn_norm.bias", E, 0.0, 0.1);
            matrix(p + "attn_qkv.weight", E, 3 * E);
            vector(p + "attn_qkv.bias", 3 * E, 0.0, 0.1);
            matrix(p + "attn_output.weight", E, E);
            vector(p + "attn_output.bias", E, 0.0, 0.1);
            matrix(p + "ffn_up.weight", E, F);
            vector(p + "ffn_up.bias", F, 0.0, 0.1);
            matrix(p + "ffn_down.weight", F, E);
            vector(p + "ffn_down.bias", E, 0.0, 0.1);
            continue;
        }
        matrix(p + "attn_q.weight", E, Q);
        matrix(p + "attn_k.weight", E, KV);
        matrix(p + "attn_v.weight", E, KV);
        if (c.arch == Architecture::Qwen2) {
            vector(p + "attn_q.bias", Q, 0.0, 0.2);
            vector(p + "attn_k.bias", KV, 0.0, 0.2);
            vector(p + "attn_v.bias", KV, 0.0, 0.2);
        }
        matrix(p + "attn_output.weight", Q, E);
        matrix(p + "ffn_gate.weight", E, F);
        matrix(p + "ffn_up.weight", E, F);
        matrix(p + "ffn_down.weight", F, E);
    }
    vector("output_norm.weight", E, 1.0, 0.2);
    if (gpt2)
        vector("output_norm.bias", E, 0.0, 0.1);
    if (!o.tiedOutput)
        matrix("output.weight", E, static_cast<std::uint64_t>(c.vocabulary), 3.0);
    return m;
}

// A small shape of each architecture: every dimension a multiple of 32 (Q8_0 rows), a
// vocabulary that is not a multiple of the kernels' tiles.
inline ModelConfig smallConfig(Architecture arch)
{
    ModelConfig c;
    c.arch = arch;
    c.embedding = 64;
    c.layers = 2;
    c.heads = 4;
    c.kvHeads = arch == Architecture::Gpt2 ? 4 : 2;
    c.headDim = 16;
    c.feedForward = 96;
    c.context = 96;
    c.vocabulary = 203;
    c.ropeDims = arch == Architecture::Gpt2 ? 0 : 16;
    c.ropeBase = 10000.0;
    c.normEpsilon = 1e-5;
    return c;
}

// ---- The float64 reference.

namespace reference {

using Vec = std::vector<double>;

inline Vec product(const Vec& w, std::int64_t cols, std::int64_t rows, const Vec& x)
{
    Vec y(static_cast<std::size_t>(rows), 0.0);
    for (std::int64_t r = 0; r < rows; ++r) {
        double s = 0.0;
        for (std::int64_t k = 0; k < cols; ++k)
            s += w[static_cast<std::size_t>(r * cols + k)] * x[static_cast<std::size_t>(k)];
        y[static_cast<std::size_t>(r)] = s;
    }
    return y;
}

inline Vec norm(const ModelConfig& c, const Vec& x, const Vec& w, const Vec* b)
{
    const auto n = static_cast<double>(x.size());
    Vec out(x.size());
    if (c.arch == Architecture::Gpt2) {
        double mean = 0.0;
        for (double v : x)
            mean += v;
        mean /= n;
        double var = 0.0;
        for (double v : x)
            var += (v - mean) * (v - mean);
        const double scale = 1.0 / std::sqrt(var / n + c.normEpsilon);
        for (std::size_t i = 0; i < x.size(); ++i)
            out[i] = (x[i] - mean) * scale * w[i] + (*b)[i];
    } else {
        double squares = 0.0;
        for (double v : x)
            squares += v * v;
        const double scale = 1.0 / std::sqrt(squares / n + c.normEpsilon);
        for (std::size_t i = 0; i < x.size(); ++i)
            out[i] = x[i] * scale * w[i];
    }
    return out;
}

inline void rope(const ModelConfig& c, const Vec* factors, double* v, std::int64_t pos)
{
    const std::int64_t half = c.ropeDims / 2;
    for (std::int64_t i = 0; i < half; ++i) {
        double f = c.ropeScale * std::pow(c.ropeBase, -2.0 * static_cast<double>(i) / static_cast<double>(c.ropeDims));
        if (factors != nullptr)
            f /= (*factors)[static_cast<std::size_t>(i)];
        const double angle = static_cast<double>(pos) * f;
        const bool neox = c.rope() == RopeOrdering::Neox;
        double& a = neox ? v[i] : v[2 * i];
        double& b = neox ? v[i + half] : v[2 * i + 1];
        const double x0 = a, x1 = b;
        a = x0 * std::cos(angle) - x1 * std::sin(angle);
        b = x0 * std::sin(angle) + x1 * std::cos(angle);
    }
}

// Logits after every position of `tokens`: result[t] for the prefix tokens[0..t].
inline std::vector<Vec> logits(const RandomModel& m, const std::vector<std::int32_t>& tokens)
{
    const ModelConfig& c = m.config;
    auto W = [&](const std::string& name) -> const Vec& { return m.values.at(name); };
    auto has = [&](const std::string& name) { return m.values.count(name) != 0; };
    const std::int64_t E = c.embedding, n = static_cast<std::int64_t>(tokens.size());
    const std::int64_t hd = c.headDim, Q = c.qDim(), KV = c.kvDim();
    const bool gpt2 = c.arch == Architecture::Gpt2;
    std::vector<Vec> x(static_cast<std::size_t>(n), Vec(static_cast<std::size_t>(E)));
    for (std::int64_t t = 0; t < n; ++t)
        for (std::int64_t i = 0; i < E; ++i) {
            double v = W("token_embd.weight")[static_cast<std::size_t>(tokens[static_cast<std::size_t>(t)] * E + i)];
            if (gpt2)
                v += W("position_embd.weight")[static_cast<std::size_t>(t * E + i)];
            x[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)] = v;
        }
    const Vec* factors = has("rope_freqs.weight") ? &W("rope_freqs.weight") : nullptr;
    auto addBias = [&](Vec& y, const std::string& name) {
        if (!has(name))
            return;
        for (std::size_t i = 0; i < y.size(); ++i)
            y[i] += W(name)[i];
    };
    for (std::int64_t l = 0; l < c.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        std::vector<Vec> q(static_cast<std::size_t>(n)), k(static_cast<std::size_t>(n)), v(static_cast<std::size_t>(n));
        for (std::int64_t t = 0; t < n; ++t) {
            const auto ts = static_cast<std::size_t>(t);
            const Vec h = norm(c, x[ts], W(p + "attn_norm.weight"), gpt2 ? &W(p + "attn_norm.bias") : nullptr);
            if (gpt2) {
                Vec qkv = product(W(p + "attn_qkv.weight"), E, 3 * E, h);
                addBias(qkv, p + "attn_qkv.bias");
                q[ts].assign(qkv.begin(), qkv.begin() + E);
                k[ts].assign(qkv.begin() + E, qkv.begin() + 2 * E);
                v[ts].assign(qkv.begin() + 2 * E, qkv.end());
            } else {
                q[ts] = product(W(p + "attn_q.weight"), E, Q, h);
                k[ts] = product(W(p + "attn_k.weight"), E, KV, h);
                v[ts] = product(W(p + "attn_v.weight"), E, KV, h);
                addBias(q[ts], p + "attn_q.bias");
                addBias(k[ts], p + "attn_k.bias");
                addBias(v[ts], p + "attn_v.bias");
                for (std::int64_t head = 0; head < c.heads; ++head)
                    rope(c, factors, q[ts].data() + head * hd, t);
                for (std::int64_t head = 0; head < c.kvHeads; ++head)
                    rope(c, factors, k[ts].data() + head * hd, t);
            }
        }
        for (std::int64_t t = 0; t < n; ++t) {
            const auto ts = static_cast<std::size_t>(t);
            Vec att(static_cast<std::size_t>(Q), 0.0);
            for (std::int64_t head = 0; head < c.heads; ++head) {
                const std::int64_t g = head / (c.heads / c.kvHeads);
                Vec s(static_cast<std::size_t>(t + 1));
                double top = -INFINITY;
                for (std::int64_t j = 0; j <= t; ++j) {
                    double d = 0.0;
                    for (std::int64_t i = 0; i < hd; ++i)
                        d += q[ts][static_cast<std::size_t>(head * hd + i)] *
                             k[static_cast<std::size_t>(j)][static_cast<std::size_t>(g * hd + i)];
                    s[static_cast<std::size_t>(j)] = d / std::sqrt(static_cast<double>(hd));
                    top = std::max(top, s[static_cast<std::size_t>(j)]);
                }
                double sum = 0.0;
                for (double& e : s)
                    sum += (e = std::exp(e - top));
                for (std::int64_t j = 0; j <= t; ++j)
                    for (std::int64_t i = 0; i < hd; ++i)
                        att[static_cast<std::size_t>(head * hd + i)] +=
                            s[static_cast<std::size_t>(j)] / sum *
                            v[static_cast<std::size_t>(j)][static_cast<std::size_t>(g * hd + i)];
            }
            Vec o = product(W(p + "attn_output.weight"), Q, E, att);
            addBias(o, p + "attn_output.bias");
            for (std::int64_t i = 0; i < E; ++i)
                x[ts][static_cast<std::size_t>(i)] += o[static_cast<std::size_t>(i)];
        }
        for (std::int64_t t = 0; t < n; ++t) {
            const auto ts = static_cast<std::size_t>(t);
            const Vec h = norm(c, x[ts], W(p + "ffn_norm.weight"), gpt2 ? &W(p + "ffn_norm.bias") : nullptr);
            Vec up = product(W(p + "ffn_up.weight"), E, c.feedForward, h);
            addBias(up, p + "ffn_up.bias");
            if (gpt2) {
                for (double& u : up)
                    u = 0.5 * u * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (u + 0.044715 * u * u * u)));
            } else {
                const Vec gate = product(W(p + "ffn_gate.weight"), E, c.feedForward, h);
                for (std::size_t i = 0; i < up.size(); ++i)
                    up[i] *= gate[i] / (1.0 + std::exp(-gate[i]));
            }
            Vec down = product(W(p + "ffn_down.weight"), c.feedForward, E, up);
            addBias(down, p + "ffn_down.bias");
            for (std::int64_t i = 0; i < E; ++i)
                x[ts][static_cast<std::size_t>(i)] += down[static_cast<std::size_t>(i)];
        }
    }
    std::vector<Vec> out;
    const std::string head = has("output.weight") ? "output.weight" : "token_embd.weight";
    for (std::int64_t t = 0; t < n; ++t) {
        const Vec h =
            norm(c, x[static_cast<std::size_t>(t)], W("output_norm.weight"), gpt2 ? &W("output_norm.bias") : nullptr);
        out.push_back(product(W(head), E, c.vocabulary, h));
    }
    return out;
}

}  // namespace reference

}  // namespace logitlab::test
