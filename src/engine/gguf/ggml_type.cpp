#include "engine/gguf/ggml_type.h"

namespace logitlab::engine::gguf {

std::optional<GgmlType> ggmlTypeFromNumber(std::uint32_t number)
{
    switch (static_cast<GgmlType>(number)) {
    case GgmlType::F32:
    case GgmlType::F16:
    case GgmlType::Q4_0:
    case GgmlType::Q5_0:
    case GgmlType::Q8_0:
    case GgmlType::Q4_K:
    case GgmlType::Q6_K:
    case GgmlType::BF16:
        return static_cast<GgmlType>(number);
    }
    return std::nullopt;
}

std::string_view ggmlTypeName(GgmlType type)
{
    switch (type) {
    case GgmlType::F32:
        return "F32";
    case GgmlType::F16:
        return "F16";
    case GgmlType::Q4_0:
        return "Q4_0";
    case GgmlType::Q5_0:
        return "Q5_0";
    case GgmlType::Q8_0:
        return "Q8_0";
    case GgmlType::Q4_K:
        return "Q4_K";
    case GgmlType::Q6_K:
        return "Q6_K";
    case GgmlType::BF16:
        return "BF16";
    }
    return "?";
}

std::size_t blockWeights(GgmlType type)
{
    switch (type) {
    case GgmlType::F32:
    case GgmlType::F16:
    case GgmlType::BF16:
        return 1;
    case GgmlType::Q4_0:
    case GgmlType::Q5_0:
    case GgmlType::Q8_0:
        return 32;
    case GgmlType::Q4_K:
    case GgmlType::Q6_K:
        return 256;
    }
    return 1;
}

std::size_t blockBytes(GgmlType type)
{
    switch (type) {
    case GgmlType::F32:
        return 4;
    case GgmlType::F16:
    case GgmlType::BF16:
        return 2;
    case GgmlType::Q4_0:
        return 2 + 16;  // fp16 d, 32 nibbles
    case GgmlType::Q5_0:
        return 2 + 4 + 16;  // fp16 d, 32 high bits, 32 nibbles
    case GgmlType::Q8_0:
        return 2 + 32;  // fp16 d, 32 int8
    case GgmlType::Q4_K:
        return 2 + 2 + 12 + 128;  // d, dmin, 8 x 6-bit scales and mins, 256 nibbles
    case GgmlType::Q6_K:
        return 128 + 64 + 16 + 2;  // ql, qh, 16 int8 scales, d
    }
    return 0;
}

}  // namespace logitlab::engine::gguf
