// The working set a sampler chain passes from stage to stage, shaped like llama.cpp's
// llama_token_data_array: (id, logit, p) entries plus a `sorted` flag. Truncating stages shrink it;
// Hugging Face and vLLM style stages are emulated on it by setting a logit to -inf (a masked token
// stays in the array with p = 0, exactly as a dense mask would leave it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace logitlab::engine {

struct TokenData {
    std::int32_t id = 0;
    double logit = 0.0;
    double p = 0.0;
};

class CandidateArray {
public:
    CandidateArray() = default;

    // Every token of the vocabulary, in id order, unsorted, p = 0 (no softmax yet).
    static CandidateArray fromLogits(const double* logits, std::size_t n);
    static CandidateArray fromLogits(const float* logits, std::size_t n);

    std::vector<TokenData>& data() { return m_data; }
    const std::vector<TokenData>& data() const { return m_data; }
    std::size_t size() const { return m_data.size(); }
    bool empty() const { return m_data.empty(); }
    TokenData& operator[](std::size_t i) { return m_data[i]; }
    const TokenData& operator[](std::size_t i) const { return m_data[i]; }

    // True when entries are in descending logit (and so p) order.
    bool sorted() const { return m_sorted; }
    void setSorted(bool sorted) { m_sorted = sorted; }

    // p = softmax of the logits over the current entries, summed in array order in double.
    // Never NaN: -inf entries get p = 0, and if no logit is finite every entry gets 1/size.
    void softmax();

    // The lesson's chains compute exp as JavaScript's Math.exp does (fdlibm_exp.h); the other
    // presets keep the C library's. Set once by the chain that builds the array.
    void setJavaScriptExp(bool on) { m_javaScriptExp = on; }

    // Stable descending sort by logit (ties keep their array order, i.e. lower id first when the
    // array was in id order). Sets `sorted`.
    void sortDescending();

    // Keeps the first n entries.
    void truncate(std::size_t n);

    // Removes entries whose logit is -inf (masked tokens), keeping the order of the rest.
    void dropMasked();

    // Index of the first largest logit in array order (strict '>' scan).
    std::size_t argmax() const;

    // Number of entries whose logit is not -inf.
    std::size_t finiteCount() const;

private:
    std::vector<TokenData> m_data;
    bool m_sorted = false;
    bool m_javaScriptExp = false;
};

}  // namespace logitlab::engine
