#include "engine/io/safetensors_layout.h"

#include "engine/core/input_limits.h"

#include <algorithm>

namespace logitlab::engine {

namespace {

std::optional<ElementType> elementType(const std::string& dtype)
{
    if (dtype == "F16")
        return ElementType::Float16;
    if (dtype == "BF16")
        return ElementType::BFloat16;
    if (dtype == "F32")
        return ElementType::Float32;
    if (dtype == "F64")
        return ElementType::Float64;
    if (dtype == "I32")
        return ElementType::Int32;
    if (dtype == "I64")
        return ElementType::Int64;
    return std::nullopt;
}

std::uint64_t byteCount(const SafetensorsEntry& entry, std::size_t size)
{
    std::uint64_t count = size;
    for (const std::uint64_t d : entry.shape) {
        if (d != 0 && count > UINT64_MAX / d)
            return UINT64_MAX;
        count *= d;
    }
    return count;
}

std::string names(const std::vector<SafetensorsEntry>& entries)
{
    std::string list;
    for (std::size_t i = 0; i < entries.size() && i < 10; ++i)
        list += (i ? ", " : "") + entries[i].name;
    if (entries.size() > 10)
        list += ", ... (" + groupedNumber(entries.size()) + " in all)";
    return list;
}

}  // namespace

Result<std::uint64_t> safetensorsHeaderLength(std::span<const unsigned char> bytes, const std::string& what)
{
    if (bytes.size() < 8)
        return Error{what + ": offset 0: the file (" + std::to_string(bytes.size()) +
                     " bytes) is shorter than the 8-byte safetensors header length"};
    std::uint64_t n = 0;
    for (int i = 0; i < 8; ++i)
        n |= static_cast<std::uint64_t>(bytes[static_cast<std::size_t>(i)]) << (8 * i);
    if (n > kMaxSafetensorsHeaderBytes)
        return Error{what + ": offset 0: a header length of " + groupedNumber(n) +
                     " bytes is over safetensors' limit of " + groupedNumber(kMaxSafetensorsHeaderBytes)};
    if (n > bytes.size() - 8)
        return Error{what + ": offset 0: the header length " + groupedNumber(n) + " runs past the end of the file (" +
                     groupedNumber(bytes.size()) + " bytes)"};
    if (n < 2 || bytes[8] != '{')
        return Error{what + ": offset 8: expected the JSON header's '{'"};
    return n;
}

Result<TensorLayout> safetensorsLayout(const std::vector<SafetensorsEntry>& entries, const std::string& name,
                                       std::uint64_t headerLength, std::uint64_t fileSize, const std::string& what,
                                       bool integers)
{
    const std::uint64_t dataStart = 8 + headerLength;
    const std::uint64_t dataSize = fileSize - dataStart;
    std::vector<const SafetensorsEntry*> byOffset;
    for (const SafetensorsEntry& e : entries) {
        const std::string field = what + ": header field '" + e.name + "'.data_offsets [" + std::to_string(e.begin) +
                                  ", " + std::to_string(e.end) + "]";
        if (e.end < e.begin)
            return Error{field + ": expected begin <= end"};
        if (e.end > dataSize)
            return Error{field + " runs past the end of the data (" + groupedNumber(dataSize) + " bytes from offset " +
                         std::to_string(dataStart) + "; the file is truncated or the header lies)"};
        if (const auto type = elementType(e.dtype)) {
            const std::uint64_t want = byteCount(e, elementBytes(*type));
            if (want != e.end - e.begin)
                return Error{field + ": " + groupedNumber(e.end - e.begin) + " bytes, but shape " + shapeText(e.shape) +
                             " of " + e.dtype + " needs " + groupedNumber(want)};
        }
        byOffset.push_back(&e);
    }
    std::sort(byOffset.begin(), byOffset.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
    for (std::size_t i = 1; i < byOffset.size(); ++i)
        if (byOffset[i]->begin < byOffset[i - 1]->end)
            return Error{what + ": header fields '" + byOffset[i - 1]->name + "' and '" + byOffset[i]->name +
                         "': data_offsets overlap (at " + std::to_string(byOffset[i]->begin) + ")"};

    const SafetensorsEntry* chosen = nullptr;
    const auto named = [&](const std::string& wanted) {
        const auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.name == wanted; });
        return it == entries.end() ? nullptr : &*it;
    };
    if (name.empty() && entries.size() == 1) {
        chosen = &entries.front();
    } else if (name.empty()) {
        chosen = named(kDefaultLogitsArray);  // save_file({"logits": ..., "sequences": ...}): the logits are meant
        if (!chosen)
            return Error{what + ": holds " + std::to_string(entries.size()) + " tensors (" + names(entries) +
                         ") and none is called " + kDefaultLogitsArray + "; " + kNameTheArray};
    } else {
        chosen = named(name);
        if (!chosen)
            return Error{what + ": no tensor '" + name + "'; it holds " +
                         (entries.empty() ? std::string("none") : names(entries))};
    }
    const auto type = elementType(chosen->dtype);
    if (integers && (!type || !isIntegerType(*type)))
        return Error{what + ": header field '" + chosen->name + "'.dtype is '" + chosen->dtype +
                     "'; expected token ids as I32 or I64"};
    if (!integers && (!type || isIntegerType(*type)))
        return Error{what + ": header field '" + chosen->name + "'.dtype is '" + chosen->dtype +
                     "'; expected F16, BF16, F32 or F64"};
    TensorLayout layout;
    layout.what = what + ", tensor " + chosen->name;
    layout.type = *type;
    layout.shape = chosen->shape;
    layout.dataOffset = dataStart + chosen->begin;
    if (auto problem = shapeProblem(layout, "header field 'shape'"))
        return Error{*problem};
    return layout;
}

}  // namespace logitlab::engine
