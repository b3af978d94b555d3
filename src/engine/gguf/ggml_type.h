// ggml's tensor types as GGUF files number them (ggml.h's enum ggml_type), and the block each
// quantised type packs: how many weights a block holds and how many bytes it takes. Only the
// types LogitLab reads are named; any other number is refused by the reader with its value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace logitlab::engine::gguf {

enum class GgmlType : std::uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q5_0 = 6,
    Q8_0 = 8,
    Q4_K = 12,
    Q6_K = 14,
    BF16 = 30,
};

// The type for a number read from a file, or nothing when LogitLab does not read that type.
std::optional<GgmlType> ggmlTypeFromNumber(std::uint32_t number);
// "Q8_0", as ggml names it (ggml_type_name).
std::string_view ggmlTypeName(GgmlType type);
// Weights per block (1 for F32/F16/BF16, 32 for Q4_0/Q5_0/Q8_0, 256 for the K-quants).
std::size_t blockWeights(GgmlType type);
// Bytes per block (4, 2, 2, 18, 22, 34, 144, 210).
std::size_t blockBytes(GgmlType type);

}  // namespace logitlab::engine::gguf
