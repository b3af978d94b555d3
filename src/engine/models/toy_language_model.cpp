#include "engine/models/toy_language_model.h"

#include "engine/kernels/float_formats.h"
#include "engine/rng/seed_split.h"

#include <cmath>
#include <numbers>

namespace logitlab::engine {

namespace {

// A standard normal value that is a pure function of (seed, stream, index): a counter-based
// generator, so any row of any matrix can be made on its own, in any order, on any thread.
double hashedNormal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
{
    std::uint64_t state = streamSeed(streamSeed(seed, stream), index);
    const auto u1 = static_cast<double>((splitMix64(state) >> 11) + 1) * 0x1.0p-53;  // (0, 1]
    const auto u2 = static_cast<double>(splitMix64(state) >> 11) * 0x1.0p-53;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double hashedUniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t index)
{
    std::uint64_t state = streamSeed(streamSeed(seed, stream), index);
    return static_cast<double>(splitMix64(state) >> 11) * 0x1.0p-53;
}

enum Stream : std::uint64_t {
    kHead = 1,
    kTwin = 2,
    kTwinNoise = 3,
    kRecurrent = 4,
    kPosition = 5,
    kPrompt = 6,
    kStart = 7,
    kEmbedding = 8
};

}  // namespace

std::string precisionName(StoragePrecision precision)
{
    switch (precision) {
    case StoragePrecision::Float32:
        return "float32";
    case StoragePrecision::Bfloat16:
        return "bf16";
    case StoragePrecision::Float16:
        return "float16";
    }
    return "float32";
}

const std::vector<std::string>& precisionNames()
{
    static const std::vector<std::string> names{"float32", "bf16", "float16"};
    return names;
}

std::string checkToyModel(const ToyModelParameters& p)
{
    if (p.vocabulary < ToyModelParameters::kMinVocabulary || p.vocabulary > ToyModelParameters::kMaxVocabulary)
        return "vocabulary: must be in 2..131072";
    if (p.hidden < ToyModelParameters::kMinHidden || p.hidden > ToyModelParameters::kMaxHidden)
        return "hidden: must be in 8..4096";
    if (!(p.twinShare >= 0.0 && p.twinShare <= 1.0))
        return "twin_share: must be in [0, 1]";
    if (!(p.twinDistance >= 0.0 && p.twinDistance <= 1.0))
        return "twin_distance: must be in [0, 1]";
    if (!(p.logitScale > 0.0 && p.logitScale <= 100.0))
        return "logit_scale: must be in (0, 100]";
    return {};
}

Result<ToyLanguageModel> ToyLanguageModel::build(const ToyModelParameters& p)
{
    if (const std::string problem = checkToyModel(p); !problem.empty())
        return Error{problem};
    ToyLanguageModel model(p);
    const auto V = p.vocabulary;
    const auto d = p.hidden;
    const double entryScale = p.logitScale / std::sqrt(static_cast<double>(d));  // |h| = sqrt(d)
    model.m_head.resize(V, d);
    // Column by column (W is column-major), each entry from its own counter.
    for (std::int64_t j = 0; j < d; ++j) {
        float* column = model.m_head.col(j).data();
        for (std::int64_t i = 0; i < V; ++i)
            column[i] =
                static_cast<float>(entryScale * hashedNormal(p.seed, kHead, static_cast<std::uint64_t>(i * d + j)));
    }
    for (std::int64_t i = 1; i < V; ++i) {
        if (!model.isTwin(static_cast<std::int32_t>(i)))
            continue;
        for (std::int64_t j = 0; j < d; ++j)
            model.m_head(i, j) = static_cast<float>(
                model.m_head(i - 1, j) +
                p.twinDistance * entryScale * hashedNormal(p.seed, kTwinNoise, static_cast<std::uint64_t>(i * d + j)));
    }
    for (std::int64_t i = 0; i < model.m_head.size(); ++i)
        model.m_head.data()[i] = model.store(model.m_head.data()[i]);

    // A contraction with some mixing: spectral radius about 0.9, so states neither die out nor
    // blow up, and the position signal keeps a greedy decode from settling into one token.
    model.m_recurrent.resize(d, d);
    const double recurrentScale = 0.9 / std::sqrt(static_cast<double>(d));
    for (std::int64_t j = 0; j < d; ++j)
        for (std::int64_t i = 0; i < d; ++i)
            model.m_recurrent(i, j) =
                recurrentScale * hashedNormal(p.seed, kRecurrent, static_cast<std::uint64_t>(i * d + j));
    return model;
}

bool ToyLanguageModel::isTwin(std::int32_t token) const
{
    return token > 0 &&
           hashedUniform(m_parameters.seed, kTwin, static_cast<std::uint64_t>(token)) < m_parameters.twinShare;
}

float ToyLanguageModel::store(float value) const
{
    switch (m_parameters.precision) {
    case StoragePrecision::Float32:
        return value;
    case StoragePrecision::Bfloat16:
        return static_cast<float>(roundTo(FloatFormat::BFloat16, value));
    case StoragePrecision::Float16:
        return static_cast<float>(roundTo(FloatFormat::Float16, value));
    }
    return value;
}

ToyLanguageModel::Vector ToyLanguageModel::initialState() const
{
    const auto d = hidden();
    Vector h(d);
    for (std::int64_t j = 0; j < d; ++j)
        h[j] = store(static_cast<float>(hashedNormal(m_parameters.seed, kStart, static_cast<std::uint64_t>(j))));
    return h;
}

ToyLanguageModel::Vector ToyLanguageModel::next(const Vector& previous, std::int32_t token, std::int64_t position) const
{
    const auto d = hidden();
    // The embedding row, made when read (a V x d table would double the model's memory). A
    // twin has a row of its own: the token that won a near tie steers the rest of the text.
    std::vector<double> z(static_cast<std::size_t>(d), 0.0);
    // A h in one fixed order (column by column), in double: the same bits on every machine
    // that has IEEE double, whatever the batch.
    for (std::int64_t j = 0; j < d; ++j) {
        const double hj = previous[j];
        const double* a = m_recurrent.col(j).data();
        for (std::int64_t i = 0; i < d; ++i)
            z[static_cast<std::size_t>(i)] += a[i] * hj;
    }
    double squares = 0.0;
    for (std::int64_t i = 0; i < d; ++i) {
        const double input =
            hashedNormal(m_parameters.seed, kEmbedding,
                         static_cast<std::uint64_t>(token) * static_cast<std::uint64_t>(d) +
                             static_cast<std::uint64_t>(i)) +
            0.5 * hashedNormal(m_parameters.seed, kPosition, static_cast<std::uint64_t>(position * d + i));
        const double v = std::tanh(z[static_cast<std::size_t>(i)] + input);
        z[static_cast<std::size_t>(i)] = v;
        squares += v * v;
    }
    const double norm = squares > 0.0 ? std::sqrt(static_cast<double>(d) / squares) : 0.0;
    Vector h(d);
    for (std::int64_t i = 0; i < d; ++i)
        h[i] = store(static_cast<float>(z[static_cast<std::size_t>(i)] * norm));
    return h;
}

ToyLanguageModel::Vector ToyLanguageModel::read(const std::vector<std::int32_t>& tokens) const
{
    Vector h = initialState();
    for (std::size_t t = 0; t < tokens.size(); ++t)
        h = next(h, tokens[t], static_cast<std::int64_t>(t));
    return h;
}

std::vector<std::int32_t> ToyLanguageModel::prompt(std::uint64_t seed, std::int64_t length) const
{
    std::vector<std::int32_t> tokens;
    for (std::int64_t t = 0; t < length; ++t)
        tokens.push_back(static_cast<std::int32_t>(hashedUniform(seed, kPrompt, static_cast<std::uint64_t>(t)) *
                                                   static_cast<double>(vocabulary())));
    return tokens;
}

}  // namespace logitlab::engine
