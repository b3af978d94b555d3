#include "engine/io/tensor_layout.h"

#include "engine/core/input_limits.h"
#include "engine/kernels/float_formats.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

namespace logitlab::engine {

namespace {

template <class Unsigned>
Unsigned loadUnsigned(const unsigned char* p, bool bigEndian)
{
    Unsigned value = 0;
    std::memcpy(&value, p, sizeof value);
    if (bigEndian != (std::endian::native == std::endian::big)) {
        // std::byteswap is C++23; reversing the bytes is the same.
        unsigned char reversed[sizeof value];
        std::memcpy(reversed, &value, sizeof value);
        for (std::size_t i = 0; i < sizeof value / 2; ++i)
            std::swap(reversed[i], reversed[sizeof value - 1 - i]);
        std::memcpy(&value, reversed, sizeof value);
    }
    return value;
}

double loadElement(const unsigned char* p, ElementType type, bool bigEndian)
{
    switch (type) {
    case ElementType::Float16:
        return fromFloat16Bits(loadUnsigned<std::uint16_t>(p, bigEndian));
    case ElementType::BFloat16:
        return fromBFloat16Bits(loadUnsigned<std::uint16_t>(p, bigEndian));
    case ElementType::Float32:
        return static_cast<double>(std::bit_cast<float>(loadUnsigned<std::uint32_t>(p, bigEndian)));
    case ElementType::Float64:
        return std::bit_cast<double>(loadUnsigned<std::uint64_t>(p, bigEndian));
    case ElementType::Int32:
        return static_cast<double>(static_cast<std::int32_t>(loadUnsigned<std::uint32_t>(p, bigEndian)));
    case ElementType::Int64:
        return static_cast<double>(static_cast<std::int64_t>(loadUnsigned<std::uint64_t>(p, bigEndian)));
    }
    return 0.0;
}

std::string rowName(const TensorLayout& layout, std::uint64_t batch, std::uint64_t step)
{
    if (layout.shape.size() == 3)
        return "batch " + std::to_string(batch) + ", step " + std::to_string(step);
    if (layout.shape.size() == 2)
        return "step " + std::to_string(step);
    return "the row";
}

}  // namespace

std::size_t elementBytes(ElementType type)
{
    switch (type) {
    case ElementType::Float16:
    case ElementType::BFloat16:
        return 2;
    case ElementType::Float32:
    case ElementType::Int32:
        return 4;
    case ElementType::Float64:
    case ElementType::Int64:
        return 8;
    }
    return 0;
}

bool isIntegerType(ElementType type) { return type == ElementType::Int32 || type == ElementType::Int64; }

std::uint64_t TensorLayout::elementCount() const
{
    std::uint64_t count = 1;
    for (const std::uint64_t d : shape) {
        if (d != 0 && count > std::numeric_limits<std::uint64_t>::max() / d)
            return std::numeric_limits<std::uint64_t>::max();
        count *= d;
    }
    return count;
}

std::string shapeText(const std::vector<std::uint64_t>& shape)
{
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

std::optional<std::string> shapeProblem(const TensorLayout& layout, const std::string& field)
{
    const std::string where = layout.what + ": " + field + " " + shapeText(layout.shape);
    if (layout.shape.empty() || layout.shape.size() > 3)
        return where + " has " + std::to_string(layout.shape.size()) +
               " dimensions; expected [V], [steps, V] or [batch, steps, V]";
    for (const std::uint64_t d : layout.shape)
        if (d == 0)
            return where + " has a dimension of 0; expected at least one value per dimension";
    if (layout.vocabulary() > kMaxValues)
        return where + ": a vocabulary of " + groupedNumber(layout.vocabulary()) + " is over the limit of " +
               groupedNumber(kMaxValues) + " logits";
    return std::nullopt;
}

Result<std::pair<std::uint64_t, std::uint64_t>> resolveRow(const TensorLayout& layout, const RowChoice& choice)
{
    // `what` is the plural: "steps", "batches".
    const auto resolve = [&](std::optional<std::int64_t> asked, std::uint64_t count, const char* what,
                             const char* option) -> Result<std::uint64_t> {
        if (!asked) {
            if (count == 1)
                return std::uint64_t{0};
            return Error{layout.what + ": holds " + groupedNumber(count) + " " + what + " (shape " +
                         shapeText(layout.shape) + "); choose one with " + option};
        }
        const std::int64_t n = static_cast<std::int64_t>(count);
        const std::int64_t index = *asked < 0 ? n + *asked : *asked;
        if (index < 0 || index >= n)
            return Error{layout.what + ": " + option + " " + std::to_string(*asked) + " is outside the " +
                         groupedNumber(count) + " " + what + " of shape " + shapeText(layout.shape) + " (0 to " +
                         std::to_string(n - 1) + ", or -1 to -" + std::to_string(n) + " from the end)"};
        return static_cast<std::uint64_t>(index);
    };
    if (choice.batch && layout.shape.size() != 3)
        return Error{layout.what + ": --batch given, but shape " + shapeText(layout.shape) +
                     " has no batch dimension (only [batch, steps, V] has)"};
    if (choice.step && layout.shape.size() == 1)
        return Error{layout.what + ": --row given, but shape " + shapeText(layout.shape) + " holds one distribution"};
    auto batch = resolve(choice.batch, layout.batches(), "batches", "--batch");
    if (!batch)
        return Error{batch.error()};
    auto step = resolve(choice.step, layout.steps(), "steps", "--row");
    if (!step)
        return Error{step.error()};
    return std::pair{*batch, *step};
}

namespace {

// The read of `reader`, or a direct one.
bool readElements(const ElementReader& reader, const std::function<void()>& read)
{
    if (!reader) {
        read();
        return true;
    }
    return reader(read);
}

std::string cutShortMessage(const TensorLayout& layout)
{
    return layout.what + ": the file is shorter than when it was opened (truncated or rewritten while it was read)";
}

}  // namespace

Result<Eigen::ArrayXd> decodeTensorRow(std::span<const unsigned char> bytes, const TensorLayout& layout,
                                       std::uint64_t batch, std::uint64_t step, const ElementReader& reader)
{
    const std::uint64_t v = layout.vocabulary();
    const std::uint64_t steps = layout.steps();
    const std::uint64_t batches = layout.batches();
    const std::size_t size = elementBytes(layout.type);
    if (isIntegerType(layout.type))
        return Error{layout.what +
                     ": an integer array (token ids); expected logits as floats (float16, bfloat16, float32, float64)"};
    if (batch >= batches || step >= steps)
        return Error{layout.what + ": " + rowName(layout, batch, step) + " is outside shape " +
                     shapeText(layout.shape)};
    // The readers checked this; checked again so no layout can read outside `bytes`.
    const std::uint64_t count = layout.elementCount();
    if (layout.dataOffset > bytes.size() || count > (bytes.size() - layout.dataOffset) / size)
        return Error{layout.what + ": the data of shape " + shapeText(layout.shape) + " does not fit in the " +
                     groupedNumber(bytes.size()) + " bytes read"};

    // Element (b, s, t): C order is row-major, ((b * S + s) * V + t); Fortran order is
    // column-major, b + B * (s + S * t).
    std::uint64_t first = 0;
    std::uint64_t stride = 1;
    if (layout.fortranOrder) {
        first = batch + batches * step;
        stride = batches * steps;
    } else {
        first = (batch * steps + step) * v;
    }
    const unsigned char* base = bytes.data() + layout.dataOffset;
    Eigen::ArrayXd row(static_cast<Eigen::Index>(v));
    std::uint64_t stop = v;  // the first element that is not a logit (NaN, +inf), or v
    bool anyFinite = false;
    const auto read = [&] {
        for (std::uint64_t t = 0; t < v; ++t) {
            const double value = loadElement(base + (first + t * stride) * size, layout.type, layout.bigEndian);
            row[static_cast<Eigen::Index>(t)] = value;
            if (std::isnan(value) || value == std::numeric_limits<double>::infinity()) {
                stop = t;
                return;
            }
            anyFinite = anyFinite || std::isfinite(value);
        }
    };
    if (!readElements(reader, read))
        return Error{cutShortMessage(layout)};
    if (stop < v) {
        const bool nan = std::isnan(row[static_cast<Eigen::Index>(stop)]);
        return Error{layout.what + ": " + rowName(layout, batch, step) + ", token id " + std::to_string(stop) + " is " +
                     (nan ? "NaN" : "+inf (only -inf, probability 0, is allowed)")};
    }
    if (!anyFinite)
        return Error{layout.what + ": " + rowName(layout, batch, step) +
                     ": every logit is -inf, so no token has any probability"};
    return row;
}

Result<std::vector<std::int32_t>> decodeTokenIds(std::span<const unsigned char> bytes, const TensorLayout& layout,
                                                 std::uint64_t batch, std::uint64_t vocabulary,
                                                 const ElementReader& reader)
{
    if (!isIntegerType(layout.type))
        return Error{layout.what + ": a float array; expected token ids as int32 or int64 (<i4, <i8, I32, I64)"};
    if (layout.shape.empty() || layout.shape.size() > 2)
        return Error{layout.what + ": shape " + shapeText(layout.shape) + " has " +
                     std::to_string(layout.shape.size()) +
                     " dimensions; expected token ids as [length] or [batch, length]"};
    const std::uint64_t batches = layout.shape.size() == 2 ? layout.shape[0] : 1;
    const std::uint64_t length = layout.shape.back();
    if (batch >= batches)
        return Error{layout.what + ": batch " + std::to_string(batch) + " is outside shape " + shapeText(layout.shape)};
    const std::size_t size = elementBytes(layout.type);
    const std::uint64_t count = layout.elementCount();
    if (layout.dataOffset > bytes.size() || count > (bytes.size() - layout.dataOffset) / size)
        return Error{layout.what + ": the data of shape " + shapeText(layout.shape) + " does not fit in the " +
                     groupedNumber(bytes.size()) + " bytes read"};
    std::vector<std::int32_t> ids(static_cast<std::size_t>(length));
    std::uint64_t stop = length;  // the first id outside the vocabulary, or length
    std::int64_t badId = 0;
    const auto offsetOf = [&](std::uint64_t i) {
        // C order: batch * L + i; Fortran order: batch + B * i.
        const std::uint64_t element = layout.fortranOrder ? batch + batches * i : batch * length + i;
        return layout.dataOffset + element * size;
    };
    const auto read = [&] {
        for (std::uint64_t i = 0; i < length; ++i) {
            const unsigned char* at = bytes.data() + offsetOf(i);
            const std::int64_t id = layout.type == ElementType::Int32
                                        ? static_cast<std::int32_t>(loadUnsigned<std::uint32_t>(at, layout.bigEndian))
                                        : static_cast<std::int64_t>(loadUnsigned<std::uint64_t>(at, layout.bigEndian));
            if (id < 0 || static_cast<std::uint64_t>(id) >= vocabulary) {
                stop = i;
                badId = id;
                return;
            }
            ids[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(id);
        }
    };
    if (!readElements(reader, read))
        return Error{cutShortMessage(layout)};
    if (stop < length)
        return Error{layout.what + ": batch " + std::to_string(batch) + ", position " + std::to_string(stop) +
                     " (offset " + std::to_string(offsetOf(stop)) + "): token id " + std::to_string(badId) +
                     " is outside the vocabulary of " + groupedNumber(vocabulary) + " ids (0 to " +
                     std::to_string(vocabulary - 1) + ")"};
    return ids;
}

}  // namespace logitlab::engine
