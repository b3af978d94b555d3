// A small GGUF writer for tests (issue 36): builds GGUF v3 (or v2) files in memory, with metadata
// of every type and tensors of every type LogitLab reads, quantised from float data. Tests use it
// to make tiny random models of any architecture, and broken files by patching its bytes.
//
// Library `logitlab_test_gguf_writer` (tests/gguf/CMakeLists.txt; links logitlab_gguf, no Qt):
//   target_link_libraries(tst_x PRIVATE logitlab_test_gguf_writer)  and  #include "gguf_writer.h"
//
//   test::GgufWriter w;                                   // version 3, alignment 32
//   w.addString("general.architecture", "llama");
//   w.addUint32("llama.block_count", 2);
//   w.addFloat32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
//   w.addStringArray("tokenizer.ggml.tokens", {"<s>", "a", "b"});
//   w.add("any.key", engine::gguf::GgufValue{std::int16_t{-3}});      // any GGUF type, arrays too
//   const auto weights = test::randomWeights(64 * 32, /*seed*/ 1, /*scale*/ 0.5f);
//   std::vector<float> readBack = w.addTensor("blk.0.attn_q.weight", GgmlType::Q8_0, {64, 32}, weights);
//   std::vector<std::byte> file = w.bytes();              // or w.writeFile(path)
//
// addTensor's ne is ggml's order (ne[0] = row length, a multiple of the type's block: 32 for
// Q4_0/Q5_0/Q8_0, 256 for Q4_K/Q6_K) and `values` are row-major in that order (values[r * ne[0]
// + c]). It returns the weights exactly as dequantizeRow reads them back, so tests can compare a
// forward pass against a reference computed on the same numbers. The quantisers are simple
// (one scale per block from its largest magnitude); they make valid blocks, not ggml's choices.
#pragma once

#include "engine/gguf/gguf_file.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace logitlab::test {

using engine::gguf::GgmlType;

// `values` (a whole number of blocks) as ggml blocks of `type`.
std::vector<std::byte> quantize(GgmlType type, std::span<const float> values);
// Deterministic weights, uniform in [-scale, scale] (mulberry32 of the seed).
std::vector<float> randomWeights(std::size_t count, std::uint32_t seed, float scale = 1.0f);

class GgufWriter {
public:
    // GGUF version written (2 or 3 are read; others make files the reader refuses).
    GgufWriter& setVersion(std::uint32_t version);
    // Pads the directory and tensors to `alignment` and writes general.alignment (uint32).
    GgufWriter& setAlignment(std::uint32_t alignment);

    // Metadata, in the order added. The writer does not check keys: adding one twice makes a
    // file the reader refuses, which tests want.
    GgufWriter& add(const std::string& key, engine::gguf::GgufValue value);
    GgufWriter& addString(const std::string& key, const std::string& value);
    GgufWriter& addUint32(const std::string& key, std::uint32_t value);
    GgufWriter& addInt32(const std::string& key, std::int32_t value);
    GgufWriter& addFloat32(const std::string& key, float value);
    GgufWriter& addBool(const std::string& key, bool value);
    GgufWriter& addStringArray(const std::string& key, const std::vector<std::string>& values);
    GgufWriter& addFloatArray(const std::string& key, const std::vector<float>& values);
    GgufWriter& addInt32Array(const std::string& key, const std::vector<std::int32_t>& values);

    // A tensor quantised from `values`; returns the values as the reader dequantises them.
    std::vector<float> addTensor(const std::string& name, GgmlType type, std::vector<std::uint64_t> ne,
                                 std::span<const float> values);
    // A tensor of any type number and raw bytes, for broken files; `offset` overrides the data
    // offset written in its directory entry (its bytes still go where the next tensor's would).
    GgufWriter& addRawTensor(const std::string& name, std::uint32_t typeNumber, std::vector<std::uint64_t> ne,
                             std::vector<std::byte> data, std::optional<std::uint64_t> offset = std::nullopt);

    std::vector<std::byte> bytes() const;
    bool writeFile(const std::string& path) const;  // false when the file cannot be written

private:
    struct Tensor {
        std::string name;
        std::uint32_t type = 0;
        std::vector<std::uint64_t> ne;
        std::vector<std::byte> data;
        std::optional<std::uint64_t> offset;
    };
    std::uint32_t m_version = 3;
    std::uint32_t m_alignment = engine::gguf::kDefaultAlignment;
    std::vector<std::pair<std::string, engine::gguf::GgufValue>> m_metadata;
    std::vector<Tensor> m_tensors;
};

}  // namespace logitlab::test
