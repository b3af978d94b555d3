#include "engine/models/token_spelling.h"

#include <array>
#include <cstdint>
#include <optional>

namespace logitlab::engine {

namespace {

// GPT-2's bytes_to_unicode(), inverted: code point -> byte, or -1. The printable bytes
// ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for themselves; the other 68 are 256 + n in byte order.
const std::array<int, 324>& codePointToByte()
{
    static const std::array<int, 324> table = [] {
        std::array<int, 324> t{};
        t.fill(-1);
        int next = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            t[static_cast<std::size_t>(printable ? b : next++)] = b;
        }
        return t;
    }();
    return table;
}

// The code point at `i` and its length in bytes, or nothing for invalid UTF-8.
std::optional<std::pair<char32_t, std::size_t>> decodeUtf8(std::string_view s, std::size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t length = 0;
    char32_t cp = 0;
    if (c < 0x80)
        return std::pair{static_cast<char32_t>(c), std::size_t{1}};
    if ((c & 0xE0) == 0xC0) {
        length = 2;
        cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        length = 3;
        cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        length = 4;
        cp = c & 0x07;
    } else {
        return std::nullopt;
    }
    if (i + length > s.size())
        return std::nullopt;
    for (std::size_t k = 1; k < length; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80)
            return std::nullopt;
        cp = (cp << 6) | (cc & 0x3F);
    }
    const char32_t minimum = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return std::nullopt;
    return std::pair{cp, length};
}

std::string hexEscape(unsigned char c)
{
    constexpr char kDigits[] = "0123456789ABCDEF";
    return std::string("\\x") + kDigits[c >> 4] + kDigits[c & 0xF];
}

std::optional<int> hexByte(std::string_view token)
{
    // SentencePiece's byte fallback: "<0x0A>".
    if (token.size() != 6 || !token.starts_with("<0x") || token.back() != '>')
        return std::nullopt;
    int value = 0;
    for (const char c : token.substr(3, 2)) {
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                 : -1;
        if (digit < 0)
            return std::nullopt;
        value = value * 16 + digit;
    }
    return value;
}

}  // namespace

std::string byteLevelBytes(std::string_view token)
{
    std::string bytes;
    for (std::size_t i = 0; i < token.size();) {
        const auto cp = decodeUtf8(token, i);
        if (!cp || cp->first >= codePointToByte().size() || codePointToByte()[cp->first] < 0)
            return std::string(token);
        bytes += static_cast<char>(codePointToByte()[cp->first]);
        i += cp->second;
    }
    return bytes;
}

std::string visibleText(std::string_view bytes)
{
    std::string out;
    for (std::size_t i = 0; i < bytes.size();) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c == '\\') {
            out += "\\\\";
            ++i;
        } else if (c == '\n') {
            out += "\\n";
            ++i;
        } else if (c == '\t') {
            out += "\\t";
            ++i;
        } else if (c == '\r') {
            out += "\\r";
            ++i;
        } else if (c < 0x20 || c == 0x7F) {
            out += hexEscape(c);
            ++i;
        } else if (const auto cp = decodeUtf8(bytes, i)) {
            out += bytes.substr(i, cp->second);
            i += cp->second;
        } else {
            out += hexEscape(c);  // a piece of a character split across tokens
            ++i;
        }
    }
    return out;
}

std::string readableToken(std::string_view raw, TokenSpelling spelling)
{
    switch (spelling) {
    case TokenSpelling::Plain:
        return std::string(raw);  // a text file's lines are already what the user wants to read
    case TokenSpelling::ByteLevel:
        return visibleText(byteLevelBytes(raw));
    case TokenSpelling::Metaspace: {
        if (const auto byte = hexByte(raw))
            return visibleText(std::string(1, static_cast<char>(*byte)));
        std::string text;
        constexpr std::string_view kSpace = "\xE2\x96\x81";  // U+2581 LOWER ONE EIGHTH BLOCK
        for (std::size_t i = 0; i < raw.size();) {
            if (raw.substr(i, kSpace.size()) == kSpace) {
                text += ' ';
                i += kSpace.size();
            } else {
                text += raw[i++];
            }
        }
        return visibleText(text);
    }
    }
    return std::string(raw);
}

}  // namespace logitlab::engine
