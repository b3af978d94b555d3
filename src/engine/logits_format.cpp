#include "logits_format.h"

#include <string_view>

namespace logitlab::engine {

LogitsFormat detectLogitsFormat(std::span<const unsigned char> head)
{
    const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    if (text.starts_with("\x93NUMPY"))
        return LogitsFormat::Npy;
    if (text.starts_with("PK\x03\x04"))
        return LogitsFormat::Npz;
    // A text file of numbers never has '{' as its ninth byte after eight bytes whose length
    // would fit; requiring the high bytes of the length to be zero keeps "12345678{" text.
    if (head.size() >= 9 && head[8] == '{' && head[7] == 0 && head[6] == 0 && head[5] == 0)
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
