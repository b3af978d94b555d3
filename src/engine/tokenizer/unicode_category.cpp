#include "engine/tokenizer/unicode_category.h"

#include <algorithm>
#include <array>

namespace logitlab::engine::tokenizer {

namespace {

struct CategoryRange {
    std::uint32_t first;
    std::uint8_t category;
};

constexpr CategoryRange kRanges[] = {
#include "unicode_category_table.inc"
};

struct ByteTables {
    std::array<std::string, 256> byteToChar;
    std::array<std::int16_t, 324> charToByte{};  // code points below 256 + 68 stand for bytes
};

// bytes_to_unicode: printable Latin-1 bytes stand for themselves, the other 68 bytes (controls,
// space, DEL, NBSP, soft hyphen, ...) take U+0100, U+0101, ... in byte order.
ByteTables makeByteTables()
{
    ByteTables t;
    t.charToByte.fill(-1);
    const auto printable = [](int b) {
        return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    };
    int next = 256;
    for (int b = 0; b < 256; ++b) {
        const int cp = printable(b) ? b : next++;
        appendUtf8(t.byteToChar[static_cast<std::size_t>(b)], static_cast<std::uint32_t>(cp));
        t.charToByte[static_cast<std::size_t>(cp)] = static_cast<std::int16_t>(b);
    }
    return t;
}

const ByteTables& byteTables()
{
    static const ByteTables tables = makeByteTables();
    return tables;
}

}  // namespace

UnicodeCategory unicodeCategory(std::uint32_t codePoint)
{
    static const auto ascii = [] {
        std::array<UnicodeCategory, 128> table{};
        std::size_t r = 0;
        for (std::uint32_t cp = 0; cp < 128; ++cp) {
            while (r + 1 < std::size(kRanges) && kRanges[r + 1].first <= cp) {
                ++r;
            }
            table[cp] = static_cast<UnicodeCategory>(kRanges[r].category);
        }
        return table;
    }();
    if (codePoint < 128) {
        return ascii[codePoint];
    }
    if (codePoint > 0x10FFFF) {
        return UnicodeCategory::Other;
    }
    const auto* end = std::end(kRanges);
    const auto* it = std::upper_bound(std::begin(kRanges), end, codePoint,
                                      [](std::uint32_t cp, const CategoryRange& r) { return cp < r.first; });
    return static_cast<UnicodeCategory>((it - 1)->category);
}

std::size_t utf8SequenceLength(char leadByte)
{
    const auto b = static_cast<unsigned char>(leadByte);
    if (b < 0xC0) {
        return 1;
    }
    if (b < 0xE0) {
        return 2;
    }
    return b < 0xF0 ? 3 : 4;
}

std::vector<std::uint32_t> codePointsFromUtf8(std::string_view text)
{
    std::vector<std::uint32_t> out;
    out.reserve(text.size());
    const auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(text[i])); };
    const auto continuation = [&](std::size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
    std::size_t i = 0;
    while (i < text.size()) {
        const std::uint32_t b = byte(i);
        if (b < 0x80) {
            out.push_back(b);
            i += 1;
        } else if ((b & 0xE0) == 0xC0 && continuation(i + 1)) {
            out.push_back(((b & 0x1F) << 6) | (byte(i + 1) & 0x3F));
            i += 2;
        } else if ((b & 0xF0) == 0xE0 && continuation(i + 1) && continuation(i + 2)) {
            out.push_back(((b & 0x0F) << 12) | ((byte(i + 1) & 0x3F) << 6) | (byte(i + 2) & 0x3F));
            i += 3;
        } else if ((b & 0xF8) == 0xF0 && continuation(i + 1) && continuation(i + 2) && continuation(i + 3)) {
            out.push_back(((b & 0x07) << 18) | ((byte(i + 1) & 0x3F) << 12) | ((byte(i + 2) & 0x3F) << 6) |
                          (byte(i + 3) & 0x3F));
            i += 4;
        } else {
            out.push_back(0xFFFD);
            i += 1;
        }
    }
    return out;
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    const auto put = [&](std::uint32_t v) { out.push_back(static_cast<char>(static_cast<unsigned char>(v))); };
    if (cp < 0x80) {
        put(cp);
    } else if (cp < 0x800) {
        put(0xC0 | (cp >> 6));
        put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        put(0xE0 | (cp >> 12));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    } else {
        put(0xF0 | ((cp >> 18) & 0x07));
        put(0x80 | ((cp >> 12) & 0x3F));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    }
}

const std::string& byteToBpeChar(std::uint8_t byte) { return byteTables().byteToChar[byte]; }

std::optional<std::uint8_t> bpeCharToByte(std::uint32_t codePoint)
{
    const auto& table = byteTables().charToByte;
    if (codePoint >= table.size() || table[codePoint] < 0) {
        return std::nullopt;
    }
    return static_cast<std::uint8_t>(table[codePoint]);
}

}  // namespace logitlab::engine::tokenizer
