#include "engine/gguf/gguf_file.h"

#include "engine/core/input_limits.h"

#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <utility>

namespace logitlab::engine::gguf {

namespace {

constexpr std::uint64_t kMinKeyValueBytes = 8 + 4 + 1;            // key length, type, the smallest value
constexpr std::uint64_t kMinTensorInfoBytes = 8 + 4 + 8 + 4 + 8;  // name length, dims, one ne, type, offset

std::string grouped(std::uint64_t value) { return groupedNumber(static_cast<std::size_t>(value)); }
// A key or tensor name as messages show it: control bytes as \xNN, at most 80 bytes of it.
std::string shown(std::string_view name)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < name.size() && i < 80; ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (c < 0x20 || c == 0x7f || c == '\\' || c == '\'')
            out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
        else
            out += static_cast<char>(c);
    }
    if (name.size() > 80)
        out += "...";
    return out;
}

std::string byteCount(std::uint64_t n) { return grouped(n) + (n == 1 ? " byte" : " bytes"); }

// The smallest number of bytes an element of the type takes (arrays: their type and count).
std::uint64_t minimumBytes(GgufType type)
{
    switch (type) {
    case GgufType::Uint8:
    case GgufType::Int8:
    case GgufType::Bool:
        return 1;
    case GgufType::Uint16:
    case GgufType::Int16:
        return 2;
    case GgufType::Uint32:
    case GgufType::Int32:
    case GgufType::Float32:
        return 4;
    case GgufType::Uint64:
    case GgufType::Int64:
    case GgufType::Float64:
    case GgufType::String:
        return 8;
    case GgufType::Array:
        return 4 + 8;
    }
    return 1;
}

bool isIntegerType(GgufType type)
{
    switch (type) {
    case GgufType::Uint8:
    case GgufType::Int8:
    case GgufType::Uint16:
    case GgufType::Int16:
    case GgufType::Uint32:
    case GgufType::Int32:
    case GgufType::Uint64:
    case GgufType::Int64:
        return true;
    default:
        return false;
    }
}

bool knownType(std::uint32_t type) { return type <= static_cast<std::uint32_t>(GgufType::Float64); }

// Reads little-endian fields from the bytes, each check naming the field and where it starts.
class Reader {
public:
    Reader(std::span<const std::byte> bytes, const std::string& what) : m_bytes(bytes), m_what(what) {}

    std::uint64_t position() const { return m_pos; }
    std::uint64_t left() const { return m_bytes.size() - m_pos; }
    std::uint64_t arrayElements = 0;  // all arrays so far

    Error fail(const std::string& field, std::uint64_t at, const std::string& problem) const
    {
        return Error{m_what + ": " + field + " at byte " + grouped(at) + ": " + problem};
    }

    std::optional<Error> need(const std::string& field, std::uint64_t bytes) const
    {
        if (bytes > left())
            return fail(field, m_pos,
                        "needs " + byteCount(bytes) + ", but only " + grouped(left()) + (left() == 1 ? " is" : " are") +
                            " left (truncated)");
        return std::nullopt;
    }

    // An unsigned little-endian integer of `size` bytes; the caller checked need().
    std::uint64_t take(std::size_t size)
    {
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < size; ++i)
            value |= static_cast<std::uint64_t>(std::to_integer<unsigned char>(m_bytes[m_pos + i])) << (8 * i);
        m_pos += size;
        return value;
    }

    Result<std::uint64_t> integer(const std::string& field, std::size_t size)
    {
        if (auto e = need(field, size))
            return *e;
        return take(size);
    }

    // A GGUF string: a uint64 length and that many bytes (not NUL-terminated), at most `limit`.
    Result<std::string> string(const std::string& field, std::uint64_t limit)
    {
        const std::uint64_t at = m_pos;
        if (left() < 8)
            return *need(field + " length", 8);  // the name is built only for the message
        const std::uint64_t length = take(8);
        if (length > limit)
            return fail(field + " length", at, grouped(length) + " bytes is over the limit of " + grouped(limit));
        if (length > left())
            return fail(field, at,
                        "a length of " + byteCount(length) + " runs past the end of the file (" + byteCount(left()) +
                            " left; truncated)");
        std::string text(reinterpret_cast<const char*>(m_bytes.data() + m_pos), static_cast<std::size_t>(length));
        m_pos += length;
        return text;
    }

    // One value of the type (the caller checked the type is known); arrays only at the top.
    Result<GgufValue> value(const std::string& field, GgufType type, bool inArray)
    {
        const std::uint64_t at = m_pos;
        switch (type) {
        case GgufType::Uint8:
            return scalar<std::uint8_t>(field, 1);
        case GgufType::Int8:
            return scalar<std::int8_t>(field, 1);
        case GgufType::Uint16:
            return scalar<std::uint16_t>(field, 2);
        case GgufType::Int16:
            return scalar<std::int16_t>(field, 2);
        case GgufType::Uint32:
            return scalar<std::uint32_t>(field, 4);
        case GgufType::Int32:
            return scalar<std::int32_t>(field, 4);
        case GgufType::Uint64:
            return scalar<std::uint64_t>(field, 8);
        case GgufType::Int64:
            return scalar<std::int64_t>(field, 8);
        case GgufType::Float32: {
            auto bits = integer(field, 4);
            if (!bits)
                return Error{bits.error()};
            return GgufValue{std::bit_cast<float>(static_cast<std::uint32_t>(*bits))};
        }
        case GgufType::Float64: {
            auto bits = integer(field, 8);
            if (!bits)
                return Error{bits.error()};
            return GgufValue{std::bit_cast<double>(*bits)};
        }
        case GgufType::Bool: {
            auto b = integer(field, 1);
            if (!b)
                return Error{b.error()};
            if (*b > 1)
                return fail(field, at, "a bool is 0 or 1, not " + std::to_string(*b));
            return GgufValue{*b == 1};
        }
        case GgufType::String: {
            auto s = string(field, inArray ? std::numeric_limits<std::uint64_t>::max() : kMaxStringBytes);
            if (!s)
                return Error{s.error()};
            return GgufValue{std::move(s).value()};
        }
        case GgufType::Array: {
            if (inArray)
                return fail(field, at, "an array of arrays (nested arrays are not read)");
            return array(field);
        }
        }
        return fail(field, at, "unknown type");
    }

private:
    template <class T>
    Result<GgufValue> scalar(const std::string& field, std::size_t size)
    {
        auto bits = integer(field, size);
        if (!bits)
            return Error{bits.error()};
        using U = std::make_unsigned_t<T>;
        return GgufValue{static_cast<T>(static_cast<U>(*bits))};
    }

    Result<GgufValue> array(const std::string& field)
    {
        const std::uint64_t typeAt = m_pos;
        auto type = integer(field + " element type", 4);
        if (!type)
            return Error{type.error()};
        if (*type == static_cast<std::uint32_t>(GgufType::Array))
            return fail(field + " element type", typeAt, "an array of arrays (nested arrays are not read)");
        if (!knownType(static_cast<std::uint32_t>(*type)))
            return fail(field + " element type", typeAt, "unknown value type " + std::to_string(*type));
        const auto elementType = static_cast<GgufType>(*type);
        const std::uint64_t countAt = m_pos;
        auto count = integer(field + " element count", 8);
        if (!count)
            return Error{count.error()};
        const std::uint64_t each = minimumBytes(elementType);
        if (*count > left() / each)
            return fail(field + " element count", countAt,
                        grouped(*count) + " elements of " + ggufTypeName(*type) + " need at least " + grouped(each) +
                            " bytes each, but only " + grouped(left()) + " bytes are left");
        if (*count > kMaxArrayElements - arrayElements)
            return fail(field + " element count", countAt,
                        grouped(*count) + " elements take the file's arrays over the limit of " +
                            grouped(kMaxArrayElements) + " elements");
        arrayElements += *count;
        GgufArray out;
        out.elementType = elementType;
        out.values.reserve(static_cast<std::size_t>(*count));
        std::string name = field;  // "key 'k'[i]", one buffer for every element
        for (std::uint64_t i = 0; i < *count; ++i) {
            name.resize(field.size());
            name += '[';
            name += std::to_string(i);
            name += ']';
            auto v = value(name, elementType, true);
            if (!v)
                return Error{v.error()};
            out.values.push_back(std::move(v).value());
        }
        return GgufValue{std::move(out)};
    }

    std::span<const std::byte> m_bytes;
    const std::string& m_what;
    std::uint64_t m_pos = 0;
};

std::string valueText(const GgufValue& value) { return ggufTypeName(static_cast<std::uint32_t>(typeOf(value))); }

std::string holds(const GgufValue& value)
{
    if (const auto* a = std::get_if<GgufArray>(&value))
        return "an array of " + ggufTypeName(static_cast<std::uint32_t>(a->elementType));
    return "a " + valueText(value);
}

std::optional<std::int64_t> signedOf(const GgufValue& v)
{
    return std::visit(
        [](const auto& x) -> std::optional<std::int64_t> {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, std::uint64_t>) {
                if (x > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                    return std::nullopt;
                return static_cast<std::int64_t>(x);
            } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                return static_cast<std::int64_t>(x);
            } else {
                return std::nullopt;
            }
        },
        v);
}

bool isInteger(const GgufValue& v)
{
    return std::visit(
        [](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            return std::is_integral_v<T> && !std::is_same_v<T, bool>;
        },
        v);
}

std::optional<double> numberOf(const GgufValue& v)
{
    return std::visit(
        [](const auto& x) -> std::optional<double> {
            using T = std::decay_t<decltype(x)>;
            if constexpr ((std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_floating_point_v<T>)
                return static_cast<double>(x);
            else
                return std::nullopt;
        },
        v);
}

}  // namespace

std::string ggufTypeName(std::uint32_t type)
{
    switch (type) {
    case 0:
        return "uint8";
    case 1:
        return "int8";
    case 2:
        return "uint16";
    case 3:
        return "int16";
    case 4:
        return "uint32";
    case 5:
        return "int32";
    case 6:
        return "float32";
    case 7:
        return "bool";
    case 8:
        return "string";
    case 9:
        return "array";
    case 10:
        return "uint64";
    case 11:
        return "int64";
    case 12:
        return "float64";
    default:
        return "type " + std::to_string(type);
    }
}

GgufType typeOf(const GgufValue& value)
{
    static constexpr GgufType byIndex[] = {GgufType::Uint8,   GgufType::Int8,    GgufType::Uint16, GgufType::Int16,
                                           GgufType::Uint32,  GgufType::Int32,   GgufType::Uint64, GgufType::Int64,
                                           GgufType::Float32, GgufType::Float64, GgufType::Bool,   GgufType::String,
                                           GgufType::Array};
    return byIndex[value.index()];
}

std::uint64_t TensorInfo::elements() const
{
    std::uint64_t n = 1;
    for (const std::uint64_t d : ne)
        n *= d;  // parse() checked the product fits
    return n;
}

std::uint64_t TensorInfo::rows() const { return ne.empty() || ne[0] == 0 ? 0 : elements() / ne[0]; }

std::uint64_t TensorInfo::rowBytes() const { return ne.empty() ? 0 : ne[0] / blockWeights(type) * blockBytes(type); }

std::span<const std::byte> TensorInfo::row(std::uint64_t r) const
{
    const std::uint64_t size = rowBytes();
    return data.subspan(static_cast<std::size_t>(r * size), static_cast<std::size_t>(size));
}

Result<GgufFile> GgufFile::parse(std::span<const std::byte> bytes, const std::string& what)
{
    static_assert(std::endian::native == std::endian::little, "tensor data is read in place as little-endian");
    GgufFile file;
    file.m_what = what;
    Reader r(bytes, what);

    if (auto e = r.need("magic", 4))
        return *e;
    const std::uint64_t magic = r.take(4);
    if (magic != 0x46554747u) {  // "GGUF"
        std::string found;
        for (int i = 0; i < 4; ++i) {
            const auto c = static_cast<unsigned>((magic >> (8 * i)) & 0xffu);
            static constexpr char kHex[] = "0123456789abcdef";
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
                found += static_cast<char>(c);
            else
                found += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
        }
        return r.fail("magic", 0, "expected \"GGUF\", found \"" + found + "\" (not a GGUF file)");
    }
    auto version = r.integer("version", 4);
    if (!version)
        return Error{version.error()};
    if (*version != 2 && *version != 3)
        return r.fail("version", 4,
                      "version " + std::to_string(*version) + " is not read (GGUF versions 2 and 3 are" +
                          (*version == 1 ? "; version 1 files predate 64-bit counts: convert the model again)" : ")"));
    file.m_version = static_cast<std::uint32_t>(*version);

    auto tensorCount = r.integer("tensor count", 8);
    if (!tensorCount)
        return Error{tensorCount.error()};
    auto keyCount = r.integer("metadata key count", 8);
    if (!keyCount)
        return Error{keyCount.error()};
    if (*tensorCount > kMaxTensors)
        return r.fail("tensor count", 8,
                      grouped(*tensorCount) + " tensors is over the limit of " + grouped(kMaxTensors));
    if (*keyCount > kMaxKeys)
        return r.fail("metadata key count", 16, grouped(*keyCount) + " keys is over the limit of " + grouped(kMaxKeys));
    if (*keyCount > r.left() / kMinKeyValueBytes)
        return r.fail("metadata key count", 16,
                      grouped(*keyCount) + " keys need at least " + grouped(kMinKeyValueBytes) +
                          " bytes each, but only " + grouped(r.left()) + " bytes follow the header");
    if (*tensorCount > (r.left() - *keyCount * kMinKeyValueBytes) / kMinTensorInfoBytes)
        return r.fail("tensor count", 8,
                      grouped(*tensorCount) + " tensors need at least " + grouped(kMinTensorInfoBytes) +
                          " bytes each besides the keys, but only " + grouped(r.left()) + " bytes follow the header");

    // Metadata.
    for (std::uint64_t i = 0; i < *keyCount; ++i) {
        const std::uint64_t keyAt = r.position();
        auto key = r.string("key " + std::to_string(i), kMaxKeyBytes);
        if (!key)
            return Error{key.error()};
        const std::string field = "key '" + shown(*key) + "'";
        if (file.m_metadata.count(*key))
            return r.fail(field, keyAt, "the key appears twice");
        const std::uint64_t typeAt = r.position();
        auto type = r.integer(field + " value type", 4);
        if (!type)
            return Error{type.error()};
        if (!knownType(static_cast<std::uint32_t>(*type)))
            return r.fail(field + " value type", typeAt, "unknown value type " + std::to_string(*type));
        auto value = r.value(field, static_cast<GgufType>(*type), false);
        if (!value)
            return Error{value.error()};
        if (*key == "general.alignment") {
            const auto* a = std::get_if<std::uint32_t>(&*value);
            if (!a)
                return r.fail(field, typeAt, "holds " + holds(*value) + "; the alignment is a uint32");
            if (*a == 0 || (*a & (*a - 1)) != 0)
                return r.fail(field, typeAt + 4, "an alignment of " + std::to_string(*a) + " is not a power of two");
            file.m_alignment = *a;
        }
        file.m_metadata.emplace(std::move(key).value(), std::move(value).value());
    }

    // The tensor directory.
    struct Pending {
        std::uint64_t offsetAt;
        std::uint64_t bytes;
    };
    std::vector<Pending> pending;
    file.m_tensors.reserve(static_cast<std::size_t>(*tensorCount));
    pending.reserve(static_cast<std::size_t>(*tensorCount));
    for (std::uint64_t i = 0; i < *tensorCount; ++i) {
        TensorInfo t;
        const std::uint64_t nameAt = r.position();
        auto name = r.string("tensor " + std::to_string(i) + " name", kMaxTensorNameBytes);
        if (!name)
            return Error{name.error()};
        t.name = std::move(name).value();
        const std::string field = "tensor '" + shown(t.name) + "'";
        if (file.m_tensorIndex.count(t.name))
            return r.fail(field, nameAt, "the tensor name appears twice");
        const std::uint64_t dimsAt = r.position();
        auto dims = r.integer(field + " dimension count", 4);
        if (!dims)
            return Error{dims.error()};
        if (*dims < 1 || *dims > kMaxDims)
            return r.fail(field + " dimension count", dimsAt,
                          std::to_string(*dims) + " dimensions; ggml tensors have 1 to " + std::to_string(kMaxDims));
        std::uint64_t elements = 1;
        for (std::uint64_t d = 0; d < *dims; ++d) {
            const std::uint64_t neAt = r.position();
            const std::string neField = field + " ne[" + std::to_string(d) + "]";
            auto ne = r.integer(neField, 8);
            if (!ne)
                return Error{ne.error()};
            if (*ne == 0)
                return r.fail(neField, neAt, "a dimension of 0 (every dimension is at least 1)");
            if (*ne > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / elements)
                return r.fail(neField, neAt, "a dimension of " + grouped(*ne) + " takes the element count past 2^63");
            elements *= *ne;
            t.ne.push_back(*ne);
        }
        const std::uint64_t typeAt = r.position();
        auto type = r.integer(field + " type", 4);
        if (!type)
            return Error{type.error()};
        const auto ggml = ggmlTypeFromNumber(static_cast<std::uint32_t>(*type));
        if (!ggml)
            return r.fail(field + " type", typeAt,
                          "ggml type " + std::to_string(*type) +
                              " is not read (F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q4_K and Q6_K are)");
        t.type = *ggml;
        if (t.ne[0] % blockWeights(t.type) != 0)
            return r.fail(field + " ne[0]", dimsAt + 4,
                          "a row of " + grouped(t.ne[0]) + " weights is not a whole number of " +
                              std::string(ggmlTypeName(t.type)) + " blocks of " + std::to_string(blockWeights(t.type)));
        const std::uint64_t blocks = elements / blockWeights(t.type);
        if (blocks > std::numeric_limits<std::uint64_t>::max() / blockBytes(t.type))
            return r.fail(field, nameAt, "its size in bytes overflows 64 bits");
        const std::uint64_t offsetAt = r.position();
        auto offset = r.integer(field + " data offset", 8);
        if (!offset)
            return Error{offset.error()};
        t.offset = *offset;
        file.m_tensorIndex.emplace(t.name, file.m_tensors.size());
        file.m_tensors.push_back(std::move(t));
        pending.push_back({offsetAt, blocks * blockBytes(file.m_tensors.back().type)});
    }

    // The data section starts at the next multiple of the alignment.
    const std::uint64_t end = r.position();
    const std::uint64_t alignment = file.m_alignment;
    const std::uint64_t dataStart = end + (alignment - end % alignment) % alignment;
    file.m_dataOffset = dataStart;
    for (std::size_t i = 0; i < file.m_tensors.size(); ++i) {
        TensorInfo& t = file.m_tensors[i];
        const std::string field = "tensor '" + shown(t.name) + "' data offset";
        if (t.offset % alignment != 0)
            return r.fail(field, pending[i].offsetAt,
                          "offset " + grouped(t.offset) + " is not a multiple of the alignment " + grouped(alignment));
        const std::uint64_t size = pending[i].bytes;
        if (dataStart > bytes.size() || t.offset > bytes.size() - dataStart ||
            size > bytes.size() - dataStart - t.offset)
            return r.fail(field, pending[i].offsetAt,
                          grouped(size) + " bytes of " + std::string(ggmlTypeName(t.type)) + " at data offset " +
                              grouped(t.offset) + " (file byte " + grouped(dataStart) +
                              " + offset) run past the end of the file (" + grouped(bytes.size()) +
                              " bytes; truncated)");
        t.data = bytes.subspan(static_cast<std::size_t>(dataStart + t.offset), static_cast<std::size_t>(size));
    }
    return file;
}

const GgufValue* GgufFile::find(const std::string& key) const
{
    const auto it = m_metadata.find(key);
    return it == m_metadata.end() ? nullptr : &it->second;
}

const TensorInfo* GgufFile::tensor(const std::string& name) const
{
    const auto it = m_tensorIndex.find(name);
    return it == m_tensorIndex.end() ? nullptr : &m_tensors[it->second];
}

namespace {

Error missing(const std::string& what, const std::string& key)
{
    return Error{what + ": metadata key '" + shown(key) + "' is missing"};
}
Error wrong(const std::string& what, const std::string& key, const GgufValue& v, const std::string& expected)
{
    return Error{what + ": metadata key '" + shown(key) + "' holds " + holds(v) + "; expected " + expected};
}

}  // namespace

Result<std::string> GgufFile::string(const std::string& key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return missing(m_what, key);
    if (const auto* s = std::get_if<std::string>(v))
        return *s;
    return wrong(m_what, key, *v, "a string");
}

Result<std::uint64_t> GgufFile::unsignedInteger(const std::string& key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return missing(m_what, key);
    if (const auto* u = std::get_if<std::uint64_t>(v))
        return *u;
    if (!isInteger(*v))
        return wrong(m_what, key, *v, "a whole number");
    const auto s = signedOf(*v);
    if (!s || *s < 0)
        return Error{m_what + ": metadata key '" + shown(key) + "' is " + std::to_string(s.value_or(0)) +
                     "; expected a number >= 0"};
    return static_cast<std::uint64_t>(*s);
}

Result<double> GgufFile::number(const std::string& key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return missing(m_what, key);
    if (const auto n = numberOf(*v))
        return *n;
    return wrong(m_what, key, *v, "a number");
}

Result<std::vector<std::string>> GgufFile::stringArray(const std::string& key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return missing(m_what, key);
    const auto* a = std::get_if<GgufArray>(v);
    if (!a || a->elementType != GgufType::String)
        return wrong(m_what, key, *v, "an array of string");
    std::vector<std::string> out;
    out.reserve(a->values.size());
    for (const GgufValue& e : a->values)
        out.push_back(std::get<std::string>(e));
    return out;
}

Result<std::vector<float>> GgufFile::floatArray(const std::string& key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return missing(m_what, key);
    const auto* a = std::get_if<GgufArray>(v);
    if (!a || a->elementType == GgufType::String || a->elementType == GgufType::Bool)
        return wrong(m_what, key, *v, "an array of numbers");
    std::vector<float> out;
    out.reserve(a->values.size());
    for (const GgufValue& e : a->values) {
        if (const auto* f = std::get_if<float>(&e))
            out.push_back(*f);
        else
            out.push_back(static_cast<float>(*numberOf(e)));
    }
    return out;
}

Result<std::vector<std::int32_t>> GgufFile::intArray(const std::string& key) const
{
    const GgufValue* v = find(key);
    if (!v)
        return missing(m_what, key);
    const auto* a = std::get_if<GgufArray>(v);
    if (!a || !isIntegerType(a->elementType))
        return wrong(m_what, key, *v, "an array of integers");
    std::vector<std::int32_t> out;
    out.reserve(a->values.size());
    for (std::size_t i = 0; i < a->values.size(); ++i) {
        const auto s = signedOf(a->values[i]);
        if (!s || *s < std::numeric_limits<std::int32_t>::min() || *s > std::numeric_limits<std::int32_t>::max())
            return Error{m_what + ": metadata key '" + shown(key) + "'[" + std::to_string(i) +
                         "] is outside the int32 range"};
        out.push_back(static_cast<std::int32_t>(*s));
    }
    return out;
}

}  // namespace logitlab::engine::gguf
