#include "engine/io/logits_format.h"

#include <algorithm>

#include <string_view>

namespace logitlab::engine {

LogitsFormat detectLogitsFormat(std::span<const unsigned char> head)
{
    const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    if (text.starts_with("\x93NUMPY"))
        return LogitsFormat::Npy;
    // An empty archive is only its end record (what numpy.savez writes for no arrays).
    if (text.starts_with("PK\x03\x04") || text.starts_with("PK\x05\x06"))
        return LogitsFormat::Npz;
    // A text file of numbers never has '{' as its ninth byte after eight bytes whose length
    // would fit; requiring the high bytes of the length to be zero keeps "12345678{" text. Eight
    // bytes that are not text before the '{' are a safetensors length too, however large (the
    // reader then names it), rather than text with a NUL byte.
    if (head.size() >= 9 && head[8] == '{' && head[7] == 0 && head[6] == 0 && head[5] == 0)
        return LogitsFormat::Safetensors;
    if (head.size() >= 9 && head[8] == '{' && std::any_of(head.begin(), head.begin() + 8, [](unsigned char c) {
            return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x80;
        }))
        return LogitsFormat::Safetensors;
    return LogitsFormat::Text;
}

std::string logitsFormatName(LogitsFormat format)
{
    switch (format) {
    case LogitsFormat::Npy:
        return "NumPy .npy";
    case LogitsFormat::Npz:
        return "NumPy .npz";
    case LogitsFormat::Safetensors:
        return "safetensors";
    case LogitsFormat::Text:
        return "text";
    }
    return "text";
}

}  // namespace logitlab::engine
