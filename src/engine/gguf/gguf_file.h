// A GGUF file (ggml's model format, versions 2 and 3) read from bytes already in memory (the
// caller maps the file; the engine opens no files): the metadata key/values, the tensor
// directory and where each tensor's data lies. Every count, length, shape and offset is checked
// against the bytes given and the limits below before anything is allocated, and a bad file is
// refused with one message naming the field and its byte offset.
#pragma once

#include "gguf/ggml_type.h"
#include "result.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace logitlab::engine::gguf {

// One metadata value. Arrays hold one element type; GGUF's nested arrays are refused.
struct GgufArray;
using GgufValue = std::variant<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                               std::int32_t, std::uint64_t, std::int64_t, float, double, bool, std::string,
                               GgufArray>;
struct GgufArray {
    std::vector<GgufValue> values;   // small arrays; token lists use the typed accessors below
};

struct TensorInfo {
    std::string name;
    GgmlType type = GgmlType::F32;
    // ggml's order: ne[0] is the row length (the fastest-varying dimension).
    std::vector<std::uint64_t> ne;
    std::uint64_t offset = 0;        // from the start of the data section
    std::span<const std::byte> data; // the tensor's bytes, inside the bytes given to parse()
    std::uint64_t elements() const;
    std::uint64_t rows() const;      // elements() / ne[0]
};

class GgufFile {
public:
    // `what` (the file name) starts every message.
    static Result<GgufFile> parse(std::span<const std::byte> bytes, const std::string& what);

    std::uint32_t version() const { return m_version; }
    std::uint32_t alignment() const { return m_alignment; }
    const std::string& what() const { return m_what; }

    const GgufValue* find(const std::string& key) const;
    // Typed look-ups: an error names the key and says what it holds instead.
    Result<std::string> string(const std::string& key) const;
    Result<std::uint64_t> unsignedInteger(const std::string& key) const;   // any integer type >= 0
    Result<double> number(const std::string& key) const;                   // any integer or float
    Result<std::vector<std::string>> stringArray(const std::string& key) const;
    Result<std::vector<float>> floatArray(const std::string& key) const;
    Result<std::vector<std::int32_t>> intArray(const std::string& key) const;

    const std::vector<TensorInfo>& tensors() const { return m_tensors; }
    const TensorInfo* tensor(const std::string& name) const;

private:
    std::uint32_t m_version = 0;
    std::uint32_t m_alignment = 32;
    std::string m_what;
    std::map<std::string, GgufValue> m_metadata;
    std::vector<TensorInfo> m_tensors;
    std::map<std::string, std::size_t> m_tensorIndex;
};

// ggml's dequantisation (ggml-quants.c, dequantize_row_*): `count` weights starting at the
// beginning of `blocks` (a whole number of blocks) into `out`, bit for bit as ggml computes them.
void dequantizeRow(GgmlType type, const std::byte* blocks, float* out, std::size_t count);

}  // namespace logitlab::engine::gguf
