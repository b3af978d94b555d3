// Where an array of logits lies in a file's bytes (.npy, an .npz member, a safetensors tensor)
// and how to decode one row of it. The readers of each format only find this layout; the
// decoding of a row (element type, byte order, C or Fortran order) is written once, here.
#pragma once

#include "engine/core/result.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace logitlab::engine {

// The integer types are for token ids (generate's `sequences`), never logits.
enum class ElementType { Float16, BFloat16, Float32, Float64, Int32, Int64 };

// 2, 2, 4, 8, 4, 8.
std::size_t elementBytes(ElementType type);
bool isIntegerType(ElementType type);

struct TensorLayout {
    ElementType type = ElementType::Float32;
    bool bigEndian = false;
    bool fortranOrder = false;         // column-major (numpy's fortran_order)
    std::vector<std::uint64_t> shape;  // [V], [steps, V] or [batch, steps, V]
    std::uint64_t dataOffset = 0;      // of the first element, in the bytes given to decodeTensorRow
    std::string what;                  // "x.npy" or "out.npz, member logits": the start of every message

    std::uint64_t vocabulary() const { return shape.empty() ? 0 : shape.back(); }
    std::uint64_t steps() const { return shape.size() >= 2 ? shape[shape.size() - 2] : 1; }
    std::uint64_t batches() const { return shape.size() == 3 ? shape[0] : 1; }
    std::uint64_t elementCount() const;  // saturates at UINT64_MAX (a header that lies)
};

// The array read from a .npz or safetensors file of several when none is named: generate's dumps
// save the logits as `logits` beside `sequences` (docs/import.md).
inline constexpr const char* kDefaultLogitsArray = "logits";
// How the user names another, in the CLI and in the window.
inline constexpr const char* kNameTheArray = "name the one to read (--array in logitlab-cli; Array on the Loop page)";

// "(200, 151936)": a shape as numpy prints it.
std::string shapeText(const std::vector<std::uint64_t>& shape);

// The checks every format shares: 1 to 3 dimensions, a vocabulary of 1 to kMaxValues, no
// dimension 0. `field` names where the shape came from ("header field 'shape'").
std::optional<std::string> shapeProblem(const TensorLayout& layout, const std::string& field);

// A step and batch chosen by the user: negative counts from the end (-1 is the last step).
struct RowChoice {
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> step;
};

// The batch and step (both from 0) `choice` names, or why not: out of range, a batch for a
// 2-D array, no step for an array of several steps.
Result<std::pair<std::uint64_t, std::uint64_t>> resolveRow(const TensorLayout& layout, const RowChoice& choice);

// Runs the loop that reads a row's elements, and says whether it ran to its end. A memory-mapped
// file can shrink under the reader, and the read is then cut short (app::MappedFile::guarded
// jumps out of it on SIGBUS): the decoders allocate nothing inside `read`, so a cut leaks
// nothing and skips no destructor. Empty: the elements are read directly.
using ElementReader = std::function<bool(const std::function<void()>& read)>;

// The V logits of (batch, step), decoded to double. NaN and +inf are refused naming the row
// and the token id; -inf is kept (a banned token), but not a row of only -inf.
Result<Eigen::ArrayXd> decodeTensorRow(std::span<const unsigned char> bytes, const TensorLayout& layout,
                                       std::uint64_t batch, std::uint64_t step, const ElementReader& reader = {});

// The token ids of one sequence of an integer array of shape [L] or [batch, L] (Int32 or
// Int64): row `batch`. Every id must be a token of a vocabulary of `vocabulary` ids; an id
// outside 0..vocabulary-1 is refused naming the batch, the position and its byte offset.
Result<std::vector<std::int32_t>> decodeTokenIds(std::span<const unsigned char> bytes, const TensorLayout& layout,
                                                 std::uint64_t batch, std::uint64_t vocabulary,
                                                 const ElementReader& reader = {});

}  // namespace logitlab::engine
