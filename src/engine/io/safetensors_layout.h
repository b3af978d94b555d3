// The byte side of safetensors (huggingface/safetensors): an 8-byte little-endian header
// length N, N bytes of JSON ({"name": {"dtype", "shape", "data_offsets": [begin, end]}, ...}),
// then the data, with offsets relative to its start. The JSON itself is read in the app layer
// (QJsonDocument; the engine has no JSON reader), which hands the entries here to be checked
// against the file size and each other.
#pragma once

#include "engine/core/result.h"
#include "engine/io/tensor_layout.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace logitlab::engine {

// safetensors' own limit for the header (100 MB); a larger one is a broken file.
inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000;

struct SafetensorsEntry {
    std::string name;
    std::string dtype;  // "F32", "BF16", ...
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0;  // data_offsets, relative to the data after the header
    std::uint64_t end = 0;
};

// N, after checking the file is long enough for it and the header starts with '{'.
Result<std::uint64_t> safetensorsHeaderLength(std::span<const unsigned char> bytes, const std::string& what);

// The layout of the tensor called `name` (or the only tensor when `name` is empty), after
// checking every entry's offsets lie inside the data, do not overlap and match its shape.
// `integers`: the tensor holds token ids (I32, I64) rather than logits.
Result<TensorLayout> safetensorsLayout(const std::vector<SafetensorsEntry>& entries, const std::string& name,
                                       std::uint64_t headerLength, std::uint64_t fileSize, const std::string& what,
                                       bool integers = false);

}  // namespace logitlab::engine
