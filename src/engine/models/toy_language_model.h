// A small deterministic language model for the batch-invariance lab. Its last step is a real LM
// head, logits = W h, over a real vocabulary size (V up to 131,072, hidden size d up to 4,096);
// every weight comes from a seed through a counter-based hash, so a model is its parameters.
//
// The state update is h_t = normalise(tanh(A h_{t-1} + E[token] + P[t])) with a seeded
// embedding table E and position signal P (both made row by row when read), computed in double with one
// fixed loop order: the state depends on the tokens alone, never on the kernel or the batch.
// The kernels only touch the LM head (lm_head_kernels.h), which is what lets a decode cache
// the logits per (token prefix, kernel class).
//
// Real vocabularies hold near-duplicate tokens ("data" and " data"); the toy's "twins" are
// that: a share of tokens whose W row is the previous token's row plus a tiny perturbation and
// an embedding of its own, so their logits nearly tie whenever one of them leads, and the
// winner steers the rest of the text. Those near ties are what a change of
// reduction order can flip.
#pragma once

#include "engine/core/result.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace logitlab::engine {

enum class StoragePrecision { Float32, Bfloat16, Float16 };
std::string precisionName(StoragePrecision precision);  // "float32", "bf16", "float16"
const std::vector<std::string>& precisionNames();

struct ToyModelParameters {
    std::int64_t vocabulary = 4096;  // V
    std::int64_t hidden = 256;       // d
    std::uint64_t seed = 1;
    StoragePrecision precision = StoragePrecision::Float32;
    double twinShare = 0.05;     // share of tokens that are a near twin of the token before
    double twinDistance = 1e-6;  // the twin's row perturbation, relative to a row's entries
    double logitScale = 3.0;     // the standard deviation of a logit

    static constexpr std::int64_t kMinVocabulary = 2;
    static constexpr std::int64_t kMaxVocabulary = 131072;
    static constexpr std::int64_t kMinHidden = 8;
    static constexpr std::int64_t kMaxHidden = 4096;
};

// The parameters' problem in words (naming the parameter), or empty.
std::string checkToyModel(const ToyModelParameters& p);

class ToyLanguageModel {
public:
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;  // column-major, as BLAS
    using Vector = Eigen::VectorXf;

    static Result<ToyLanguageModel> build(const ToyModelParameters& p);

    const ToyModelParameters& parameters() const { return m_parameters; }
    std::int64_t vocabulary() const { return m_parameters.vocabulary; }
    std::int64_t hidden() const { return m_parameters.hidden; }
    // The LM head W [V x d] in the storage precision (values rounded to it, held as float32).
    const Matrix& head() const { return m_head; }

    // The state after reading `token` at position `position` from state `previous`; rounded to
    // the storage precision, since activations are stored like the weights.
    Vector next(const Vector& previous, std::int32_t token, std::int64_t position) const;
    // The state before the first token.
    Vector initialState() const;
    // The state after a whole prompt.
    Vector read(const std::vector<std::int32_t>& tokens) const;
    // A seeded prompt of `length` tokens.
    std::vector<std::int32_t> prompt(std::uint64_t seed, std::int64_t length) const;
    // Whether `token` is a twin of token - 1.
    bool isTwin(std::int32_t token) const;
    // The rounding the model's precision applies to a stored value.
    float store(float value) const;

private:
    explicit ToyLanguageModel(ToyModelParameters p) : m_parameters(p) {}

    ToyModelParameters m_parameters;
    Matrix m_head;                // V x d
    Eigen::MatrixXd m_recurrent;  // A, d x d
};

}  // namespace logitlab::engine
