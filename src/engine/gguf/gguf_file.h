// A GGUF file (ggml's model format, versions 2 and 3) read from bytes already in memory (the
// caller maps the file; the engine opens no files): the metadata key/values, the tensor
// directory and where each tensor's data lies. Every count, length, shape and offset is checked
// against the bytes given and the limits below before anything is allocated, and a bad file is
// refused with one message, "<what>: <field> at byte <offset>: <problem>".
//
// The GgufFile keeps spans into the bytes given to parse(): they must outlive it.
#pragma once

#include "engine/core/result.h"
#include "engine/gguf/ggml_type.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace logitlab::engine::gguf {

// The limits of the reader (besides the bytes left, which bound every count first).
inline constexpr std::uint64_t kMaxTensors = 1'000'000;
inline constexpr std::uint64_t kMaxKeys = 100'000;
inline constexpr std::uint64_t kMaxKeyBytes = 65'535;                       // the spec's limit on keys
inline constexpr std::uint64_t kMaxStringBytes = std::uint64_t{1} << 20;    // a string value, not in an array
inline constexpr std::uint64_t kMaxArrayElements = std::uint64_t{1} << 23;  // all arrays of a file together
inline constexpr std::uint64_t kMaxTensorNameBytes = 64;                    // ggml's GGML_MAX_NAME
inline constexpr std::uint32_t kMaxDims = 4;                                // ggml's GGML_MAX_DIMS
inline constexpr std::uint32_t kDefaultAlignment = 32;                      // GGUF_DEFAULT_ALIGNMENT

// GGUF's metadata value types (gguf_type), as the file numbers them.
enum class GgufType : std::uint32_t {
    Uint8 = 0,
    Int8 = 1,
    Uint16 = 2,
    Int16 = 3,
    Uint32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    Uint64 = 10,
    Int64 = 11,
    Float64 = 12,
};
// "uint32", "string", "array", ... ("type 13" for a number that is none of them).
std::string ggufTypeName(std::uint32_t type);

// One metadata value. Arrays hold one element type; GGUF's nested arrays are refused. The
// variant's index is not the GgufType: use typeOf().
struct GgufArray;
using GgufValue = std::variant<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t, std::int32_t,
                               std::uint64_t, std::int64_t, float, double, bool, std::string, GgufArray>;
struct GgufArray {
    GgufType elementType = GgufType::Uint8;  // kept for empty arrays
    std::vector<GgufValue> values;           // every element of elementType
};
GgufType typeOf(const GgufValue& value);

struct TensorInfo {
    std::string name;
    GgmlType type = GgmlType::F32;
    // ggml's order: ne[0] is the row length (the fastest-varying dimension). 1 to 4 entries.
    std::vector<std::uint64_t> ne;
    std::uint64_t offset = 0;         // from the start of the data section
    std::span<const std::byte> data;  // the tensor's bytes, inside the bytes given to parse()
    std::uint64_t elements() const;
    std::uint64_t rows() const;      // elements() / ne[0]
    std::uint64_t rowBytes() const;  // bytes of one row of ne[0] weights (whole blocks)
    // Row r's bytes (r < rows()), for dequantizeRow(type, row(r).data(), out, ne[0]).
    std::span<const std::byte> row(std::uint64_t r) const;
};

class GgufFile {
public:
    // `what` (the file name) starts every message.
    static Result<GgufFile> parse(std::span<const std::byte> bytes, const std::string& what);

    std::uint32_t version() const { return m_version; }
    std::uint32_t alignment() const { return m_alignment; }
    const std::string& what() const { return m_what; }
    // Where the data section starts in the bytes (the end of the directory, aligned).
    std::uint64_t dataOffset() const { return m_dataOffset; }

    const std::map<std::string, GgufValue>& metadata() const { return m_metadata; }
    const GgufValue* find(const std::string& key) const;
    // Typed look-ups: an error names the key and says what it holds instead, or that it is missing.
    Result<std::string> string(const std::string& key) const;
    Result<std::uint64_t> unsignedInteger(const std::string& key) const;  // any integer type >= 0
    Result<double> number(const std::string& key) const;                  // any integer or float
    Result<std::vector<std::string>> stringArray(const std::string& key) const;
    Result<std::vector<float>> floatArray(const std::string& key) const;       // an array of any numbers
    Result<std::vector<std::int32_t>> intArray(const std::string& key) const;  // integers in int32 range

    const std::vector<TensorInfo>& tensors() const { return m_tensors; }  // in file order
    const TensorInfo* tensor(const std::string& name) const;

private:
    std::uint32_t m_version = 0;
    std::uint32_t m_alignment = kDefaultAlignment;
    std::uint64_t m_dataOffset = 0;
    std::string m_what;
    std::map<std::string, GgufValue> m_metadata;
    std::vector<TensorInfo> m_tensors;
    std::map<std::string, std::size_t> m_tensorIndex;
};

// IEEE binary16 and bfloat16 bits to float, exactly (subnormals, infinities, NaN payloads kept).
float halfToFloat(std::uint16_t bits);
float bfloat16ToFloat(std::uint16_t bits);

// ggml's dequantisation (ggml-quants.c, dequantize_row_*): `count` weights starting at the
// beginning of `blocks` (a whole number of blocks: count % blockWeights(type) == 0) into `out`,
// bit for bit as ggml's reference C code computes them. Blocks need no alignment.
void dequantizeRow(GgmlType type, const std::byte* blocks, float* out, std::size_t count);

}  // namespace logitlab::engine::gguf
