#include "engine/transformer/gguf_model.h"

#include "engine/transformer/gguf_vocabulary.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace logitlab::engine::transformer {

Result<std::shared_ptr<const GgufModel>> GgufModel::open(std::shared_ptr<const void> owner,
                                                         std::span<const std::byte> bytes, const std::string& what)
{
    auto file = gguf::GgufFile::parse(bytes, what);
    if (!file)
        return Error{file.error()};
    std::shared_ptr<GgufModel> model(new GgufModel);
    model->m_owner = std::move(owner);
    model->m_file = std::make_unique<gguf::GgufFile>(std::move(file).value());
    auto config = ModelConfig::fromGguf(*model->m_file);
    if (!config)
        return Error{config.error()};
    model->m_config = *config;
    for (const gguf::TensorInfo& tensor : model->m_file->tensors())
        model->m_parameters += tensor.elements();
    // Bind every tensor once (a cache of one position), so a missing tensor or a wrong shape is
    // refused when the file is opened, not at the first step of a run.
    TransformerOptions check;
    check.context = 1;
    if (auto bound = Transformer::load(*model->m_file, check); !bound)
        return Error{bound.error()};
    auto vocabulary = vocabularyFromGguf(*model->m_file);
    if (!vocabulary)
        return Error{vocabulary.error()};
    auto tokenizer = tokenizer::Tokenizer::create(std::move(vocabulary).value());
    if (!tokenizer)
        return Error{what + ": " + tokenizer.error()};
    model->m_tokenizer.emplace(std::move(tokenizer).value());
    const auto count = static_cast<std::size_t>(model->m_config.vocabulary);
    model->m_names.reserve(count);
    for (std::size_t id = 0; id < count; ++id)
        model->m_names.push_back(id < model->m_tokenizer->size()
                                     ? model->m_tokenizer->tokenPiece(static_cast<std::int32_t>(id))
                                     : "<id " + std::to_string(id) + ">");
    return std::shared_ptr<const GgufModel>(std::move(model));
}

std::int64_t GgufModel::maxPositions() const { return std::min(m_config.context, kMaxPositions); }

std::vector<std::int32_t> GgufModel::encode(std::string_view text) const
{
    return m_tokenizer->encode(text, /*addSpecial=*/true, /*parseSpecial=*/true);
}

std::string GgufModel::decode(std::span<const std::int32_t> ids) const
{
    // Ids past the tokenizer's list (an output row the vocabulary does not name) decode to nothing.
    return m_tokenizer->decode(ids);
}

std::optional<std::int32_t> GgufModel::tokenId(std::string_view name) const
{
    const auto it = std::find(m_names.begin(), m_names.end(), name);
    if (it == m_names.end())
        return std::nullopt;
    return static_cast<std::int32_t>(it - m_names.begin());
}

Result<std::shared_ptr<GgufModelSource>> GgufModelSource::create(std::shared_ptr<const GgufModel> model,
                                                                 std::int64_t positions, int threads)
{
    if (positions < 1 || positions > model->maxPositions())
        return Error{model->what() + ": a run of " + std::to_string(positions) +
                     " tokens (prompt and reply) does not fit the model's context of " +
                     std::to_string(model->maxPositions())};
    TransformerOptions options;
    options.context = positions;
    options.threads = std::clamp(threads, 1, TransformerOptions::kMaxThreads);
    auto transformer = Transformer::load(model->file(), options);
    if (!transformer)
        return Error{transformer.error()};
    return std::shared_ptr<GgufModelSource>(
        new GgufModelSource(std::move(model), std::move(transformer).value(), positions));
}

GgufModelSource::GgufModelSource(std::shared_ptr<const GgufModel> model, Transformer transformer,
                                 std::int64_t positions)
    : m_model(std::move(model)), m_positions(positions), m_transformer(std::move(transformer))
{
}

std::size_t GgufModelSource::evaluations() const
{
    std::lock_guard lock(m_mutex);
    return m_evaluations;
}

std::optional<std::string> nonFiniteLogitsProblem(std::span<const float> logits, std::size_t tokens)
{
    const auto bad = std::find_if(logits.begin(), logits.end(), [](float v) { return !std::isfinite(v); });
    if (bad == logits.end())
        return std::nullopt;
    return "the model's logits after " + std::to_string(tokens) + " tokens are not finite (" +
           (std::isnan(*bad) ? std::string("NaN") : std::string("infinite")) + " for token id " +
           std::to_string(bad - logits.begin()) +
           "): its weights hold NaN or infinity, or its activations overflow float32";
}

std::optional<std::string> GgufModelSource::fault() const
{
    std::lock_guard lock(m_mutex);
    return m_fault;
}

void GgufModelSource::logits(std::size_t, std::span<const std::int32_t> context, double* out) const
{
    std::lock_guard lock(m_mutex);
    const std::size_t vocabulary = vocabSize();
    const auto flat = [&] { std::fill(out, out + vocabulary, 0.0); };
    const auto failed = [&](std::string problem) {
        if (!m_fault)
            m_fault = std::move(problem);
        flat();
    };
    const bool usable = !context.empty() && context.size() <= static_cast<std::size_t>(m_positions) &&
                        std::all_of(context.begin(), context.end(), [&](std::int32_t id) {
                            return id >= 0 && static_cast<std::size_t>(id) < vocabulary;
                        });
    if (!usable)
        return failed("a context of " + std::to_string(context.size()) + " tokens outside this run's 1.." +
                      std::to_string(m_positions) + " positions or vocabulary");
    if (m_fault)
        return flat();
    const std::size_t n = context.size();
    const std::size_t common = static_cast<std::size_t>(
        std::mismatch(m_cached.begin(), m_cached.end(), context.begin(), context.end()).first - m_cached.begin());

    std::span<const float> values;
    if (m_prefill > 0 && common >= m_prefill && n == m_prefill) {
        values = m_prefillLogits;
    } else if (m_prefill > 0 && common >= m_prefill) {
        // The positions after the prompt were (and are) evaluated one token at a time.
        const std::size_t keep = std::min(common, n - 1);
        m_transformer.truncate(static_cast<std::int64_t>(keep));
        m_cached.resize(keep);
        for (std::size_t i = keep; i < n; ++i) {
            auto evaluated = m_transformer.evaluate(context.subspan(i, 1));
            ++m_evaluations;
            if (!evaluated) {
                m_transformer.reset();
                m_cached.clear();
                m_prefill = 0;
                return failed(evaluated.error());
            }
            m_cached.push_back(context[i]);
            values = *evaluated;
        }
    } else {
        m_transformer.reset();
        m_cached.clear();
        auto evaluated = m_transformer.evaluate(context);
        ++m_evaluations;
        if (!evaluated) {
            m_prefill = 0;
            return failed(evaluated.error());
        }
        m_cached.assign(context.begin(), context.end());
        m_prefill = n;
        m_prefillLogits.assign(evaluated->begin(), evaluated->end());
        values = m_prefillLogits;
    }
    // Logits no sampler can read: the run stops being trusted here.
    if (auto problem = nonFiniteLogitsProblem(values, n))
        return failed(std::move(*problem));
    std::copy(values.begin(), values.end(), out);
}

}  // namespace logitlab::engine::transformer
