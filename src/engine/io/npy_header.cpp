#include "engine/io/npy_header.h"

#include "engine/core/input_limits.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace logitlab::engine {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// A value of the header dict: a string, a bool or a tuple of whole numbers.
// One value of the header's dict. A plain struct, not a std::variant: GCC 12 at -O1 with the
// sanitizers warned that moving a variant holding a bool may read its vector uninitialised.
struct HeaderValue {
    enum class Kind { Text, Flag, Numbers };
    Kind kind = Kind::Text;
    std::string text;
    bool flag = false;
    std::vector<std::uint64_t> numbers;
    static HeaderValue ofText(std::string value) { return {Kind::Text, std::move(value), false, {}}; }
    static HeaderValue ofFlag(bool value) { return {Kind::Flag, {}, value, {}}; }
    static HeaderValue ofNumbers(std::vector<std::uint64_t> value)
    {
        return {Kind::Numbers, {}, false, std::move(value)};
    }
};

// A reader of the small subset of Python literals numpy writes in the header. Each error says
// the header offset (from the start of the file) and what was expected there.
class HeaderParser {
public:
    HeaderParser(std::string_view text, std::size_t fileOffset) : m_text(text), m_base(fileOffset) {}

    Result<std::map<std::string, HeaderValue>> dict()
    {
        std::map<std::string, HeaderValue> entries;
        if (!take('{'))
            return fail("'{' (the header is a Python dict)");
        while (true) {
            skipSpace();
            if (take('}'))
                break;
            auto key = string();
            if (!key)
                return Error{key.error()};
            if (!take(':'))
                return fail("':' after key '" + *key + "'");
            auto value = this->value();
            if (!value)
                return Error{value.error()};
            if (!entries.emplace(*key, std::move(value).value()).second)
                return fail("no second key '" + *key + "'");
            skipSpace();
            if (take(','))
                continue;
            if (take('}'))
                break;
            return fail("',' or '}' in the header dict");
        }
        skipSpace();
        if (m_pos != m_text.size())
            return fail("the end of the header after '}'");
        return entries;
    }

private:
    void skipSpace()
    {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    bool take(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    Error fail(const std::string& expected) const
    {
        return Error{"header at offset " + std::to_string(m_base + m_pos) + ": expected " + expected};
    }
    Result<std::string> string()
    {
        skipSpace();
        if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"'))
            return fail("a quoted key or string");
        const char quote = m_text[m_pos++];
        const auto end = m_text.find(quote, m_pos);
        if (end == std::string_view::npos)
            return fail("a closing quote");
        std::string s(m_text.substr(m_pos, end - m_pos));
        m_pos = end + 1;
        return s;
    }
    Result<HeaderValue> value()
    {
        skipSpace();
        if (m_pos < m_text.size() && (m_text[m_pos] == '\'' || m_text[m_pos] == '"')) {
            auto s = string();
            if (!s)
                return Error{s.error()};
            return HeaderValue::ofText(*s);
        }
        if (m_text.substr(m_pos, 4) == "True") {
            m_pos += 4;
            return HeaderValue::ofFlag(true);
        }
        if (m_text.substr(m_pos, 5) == "False") {
            m_pos += 5;
            return HeaderValue::ofFlag(false);
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '[')
            return fail("a dtype string ('descr' as a list is a structured array, not logits)");
        if (!take('('))
            return fail("a string, True, False or a tuple");
        std::vector<std::uint64_t> numbers;
        while (true) {
            skipSpace();
            if (take(')'))
                break;
            std::uint64_t n = 0;
            const std::size_t start = m_pos;
            while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
                const std::uint64_t digit = static_cast<std::uint64_t>(m_text[m_pos] - '0');
                if (n > (UINT64_MAX - digit) / 10)
                    return fail("a dimension below 2^64");
                n = n * 10 + digit;
                ++m_pos;
            }
            if (m_pos == start)
                return fail("a whole number in the shape tuple");
            if (m_pos < m_text.size() && m_text[m_pos] == 'L')
                ++m_pos;  // Python 2's long suffix, still in old files
            numbers.push_back(n);
            if (take(','))
                continue;
            if (take(')'))
                break;
            return fail("',' or ')' in the shape tuple");
        }
        return HeaderValue::ofNumbers(std::move(numbers));
    }

    std::string_view m_text;
    std::size_t m_base;
    std::size_t m_pos = 0;
};

// '<f4' -> Float32, little endian; anything else -> why not.
std::optional<std::string> readIntegerDescr(const std::string& descr, TensorLayout& layout)
{
    const auto expected = "; expected token ids as an integer array: <i4 >i4 <i8 >i8 (int32, int64)";
    if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '>' && descr[0] != '=' && descr[0] != '|') ||
        descr[1] != 'i' || (descr[2] != '4' && descr[2] != '8'))
        return "header field 'descr' is '" + descr + "'" + expected;
    layout.bigEndian = descr[0] == '>';
    layout.type = descr[2] == '4' ? ElementType::Int32 : ElementType::Int64;
    return std::nullopt;
}

std::optional<std::string> readDescr(const std::string& descr, TensorLayout& layout)
{
    const auto expected = "; expected a float array: <f2 >f2 <f4 >f4 <f8 >f8 (float16, float32, float64)";
    if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '>' && descr[0] != '=' && descr[0] != '|') ||
        descr[1] != 'f')
        return "header field 'descr' is '" + descr + "' (not a float dtype)" + expected;
    layout.bigEndian = descr[0] == '>';
    switch (descr[2]) {
    case '2':
        layout.type = ElementType::Float16;
        return std::nullopt;
    case '4':
        layout.type = ElementType::Float32;
        return std::nullopt;
    case '8':
        layout.type = ElementType::Float64;
        return std::nullopt;
    default:
        return "header field 'descr' is '" + descr + "' (a float of " + descr.substr(2) + " bytes)" + expected;
    }
}

std::uint64_t littleEndian(std::span<const unsigned char> bytes, std::size_t offset, std::size_t count)
{
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < count; ++i)
        value |= static_cast<std::uint64_t>(bytes[offset + i]) << (8 * i);
    return value;
}

}  // namespace

Result<TensorLayout> parseNpy(std::span<const unsigned char> bytes, const std::string& what, ArrayValues values)
{
    const std::string_view start(reinterpret_cast<const char*>(bytes.data()), std::min<std::size_t>(bytes.size(), 6));
    if (start != kMagic)
        return Error{what + ": offset 0: expected the .npy magic \\x93NUMPY"};
    if (bytes.size() < 10)
        return Error{what + ": offset " + std::to_string(bytes.size()) +
                     ": the file ends inside the .npy preamble (10 bytes)"};
    const int major = bytes[6];
    const int minor = bytes[7];
    if (major < 1 || major > 3 || minor != 0)
        return Error{what + ": offset 6: .npy version " + std::to_string(major) + "." + std::to_string(minor) +
                     "; expected 1.0, 2.0 or 3.0"};
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    const std::size_t headerStart = 8 + lengthBytes;
    if (bytes.size() < headerStart)
        return Error{what + ": offset 8: the file ends inside the header length"};
    const std::uint64_t headerLength = littleEndian(bytes, 8, lengthBytes);
    if (headerLength > bytes.size() - headerStart)
        return Error{what + ": offset 8: the header length " + groupedNumber(headerLength) +
                     " runs past the end of the file (" + groupedNumber(bytes.size()) + " bytes)"};
    const std::string_view header(reinterpret_cast<const char*>(bytes.data()) + headerStart, headerLength);

    auto entries = HeaderParser(header, headerStart).dict();
    if (!entries)
        return Error{what + ": " + entries.error()};
    TensorLayout layout;
    layout.what = what;
    layout.dataOffset = headerStart + headerLength;
    const auto field = [&](const std::string& key) -> const HeaderValue* {
        const auto it = entries->find(key);
        return it == entries->end() ? nullptr : &it->second;
    };
    const auto* descr = field("descr");
    const auto* fortran = field("fortran_order");
    const auto* shape = field("shape");
    if (!descr || descr->kind != HeaderValue::Kind::Text)
        return Error{what + ": header field 'descr': expected a dtype string such as '<f4'"};
    if (!fortran || fortran->kind != HeaderValue::Kind::Flag)
        return Error{what + ": header field 'fortran_order': expected True or False"};
    if (!shape || shape->kind != HeaderValue::Kind::Numbers)
        return Error{what + ": header field 'shape': expected a tuple such as (200, 151936)"};
    if (entries->size() != 3)
        return Error{what + ": header: expected exactly the keys 'descr', 'fortran_order' and 'shape'"};
    if (auto problem =
            values == ArrayValues::Integers ? readIntegerDescr(descr->text, layout) : readDescr(descr->text, layout))
        return Error{what + ": " + *problem};
    layout.fortranOrder = fortran->flag;
    layout.shape = shape->numbers;
    if (auto problem = shapeProblem(layout, "header field 'shape'"))
        return Error{*problem};

    const std::uint64_t count = layout.elementCount();
    const std::uint64_t have = bytes.size() - layout.dataOffset;
    const std::size_t size = elementBytes(layout.type);
    const std::uint64_t want = count > UINT64_MAX / size ? UINT64_MAX : count * size;
    if (want != have) {
        const std::string says = what + ": header field 'shape' " + shapeText(layout.shape) + " of '" + descr->text +
                                 "' needs " + groupedNumber(want) + " bytes from offset " +
                                 std::to_string(layout.dataOffset) + ", but ";
        if (have < want)
            return Error{says + "the data ends at offset " + std::to_string(bytes.size()) + " (truncated, " +
                         groupedNumber(want - have) + " bytes short)"};
        return Error{says + groupedNumber(have - want) + " more bytes follow from offset " +
                     std::to_string(layout.dataOffset + want) + " (the header lies about the shape)"};
    }
    return layout;
}

}  // namespace logitlab::engine
