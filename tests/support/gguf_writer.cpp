#include "support/gguf_writer.h"

#include "engine/kernels/float_formats.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <fstream>
#include <type_traits>

namespace logitlab::test {

namespace {

using engine::gguf::GgufArray;
using engine::gguf::GgufType;
using engine::gguf::GgufValue;

void put(std::vector<std::byte>& out, std::uint64_t value, int size)
{
    for (int i = 0; i < size; ++i)
        out.push_back(static_cast<std::byte>((value >> (8 * i)) & 0xffu));
}

void putString(std::vector<std::byte>& out, const std::string& s)
{
    put(out, s.size(), 8);
    for (const char c : s)
        out.push_back(static_cast<std::byte>(c));
}

void putValue(std::vector<std::byte>& out, const GgufValue& value)
{
    std::visit(
        [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>) {
                putString(out, v);
            } else if constexpr (std::is_same_v<T, GgufArray>) {
                put(out, static_cast<std::uint32_t>(v.elementType), 4);
                put(out, v.values.size(), 8);
                for (const GgufValue& e : v.values)
                    putValue(out, e);
            } else if constexpr (std::is_same_v<T, bool>) {
                put(out, v ? 1 : 0, 1);
            } else if constexpr (std::is_same_v<T, float>) {
                put(out, std::bit_cast<std::uint32_t>(v), 4);
            } else if constexpr (std::is_same_v<T, double>) {
                put(out, std::bit_cast<std::uint64_t>(v), 8);
            } else {
                put(out, static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v)), sizeof(T));
            }
        },
        value);
}

std::uint16_t half(float x) { return engine::toFloat16Bits(static_cast<double>(x)); }

void putHalf(std::byte* p, std::uint16_t bits)
{
    p[0] = static_cast<std::byte>(bits & 0xffu);
    p[1] = static_cast<std::byte>(bits >> 8);
}

float maxAbs(const float* x, int n)
{
    float m = 0.0f;
    for (int i = 0; i < n; ++i)
        m = std::max(m, std::fabs(x[i]));
    return m;
}

// round(x / step) clamped to [lo, hi]; 0 when the step is 0.
int level(float x, float step, int lo, int hi)
{
    if (step == 0.0f)
        return 0;
    return static_cast<int>(std::clamp(std::lround(x / step), static_cast<long>(lo), static_cast<long>(hi)));
}

// Symmetric blocks of 32 (Q8_0, Q4_0, Q5_0): d = max|x| / top, stored as fp16.
float symmetricScale(const float* x, int top, std::byte* d)
{
    const std::uint16_t bits = half(maxAbs(x, 32) / static_cast<float>(top));
    putHalf(d, bits);
    return engine::gguf::halfToFloat(bits);
}

void q8_0(const float* x, std::byte* b)
{
    const float d = symmetricScale(x, 127, b);
    for (int j = 0; j < 32; ++j)
        b[2 + j] = static_cast<std::byte>(static_cast<std::uint8_t>(level(x[j], d, -128, 127)));
}

void q4_0(const float* x, std::byte* b)
{
    const float d = symmetricScale(x, 7, b);
    for (int j = 0; j < 16; ++j) {
        const int lo = level(x[j], d, -8, 7) + 8;
        const int hi = level(x[j + 16], d, -8, 7) + 8;
        b[2 + j] = static_cast<std::byte>(lo | (hi << 4));
    }
}

void q5_0(const float* x, std::byte* b)
{
    const float d = symmetricScale(x, 15, b);
    std::uint32_t qh = 0;
    for (int j = 0; j < 16; ++j) {
        const int lo = level(x[j], d, -16, 15) + 16;
        const int hi = level(x[j + 16], d, -16, 15) + 16;
        b[6 + j] = static_cast<std::byte>((lo & 15) | ((hi & 15) << 4));
        qh |= static_cast<std::uint32_t>(lo >> 4) << j;
        qh |= static_cast<std::uint32_t>(hi >> 4) << (j + 16);
    }
    for (int i = 0; i < 4; ++i)
        b[2 + i] = static_cast<std::byte>((qh >> (8 * i)) & 0xffu);
}

// Eight sub-blocks of 32, each x ~ d * sc * q - dmin * m with 6-bit sc, m and 4-bit q.
void q4_K(const float* x, std::byte* b)
{
    float scale[8];
    float mins[8];
    for (int j = 0; j < 8; ++j) {
        const float* s = x + 32 * j;
        const float lo = std::min(0.0f, *std::min_element(s, s + 32));
        const float hi = *std::max_element(s, s + 32);
        scale[j] = (hi - lo) / 15.0f;
        mins[j] = -lo;
    }
    const std::uint16_t dBits = half(*std::max_element(scale, scale + 8) / 63.0f);
    const std::uint16_t mBits = half(*std::max_element(mins, mins + 8) / 63.0f);
    putHalf(b, dBits);
    putHalf(b + 2, mBits);
    const float d = engine::gguf::halfToFloat(dBits);
    const float dmin = engine::gguf::halfToFloat(mBits);
    int sc[8];
    int m[8];
    for (int j = 0; j < 8; ++j) {
        sc[j] = d == 0.0f ? 0 : static_cast<int>(std::clamp(std::lround(std::ceil(scale[j] / d)), 0L, 63L));
        m[j] = dmin == 0.0f ? 0 : static_cast<int>(std::clamp(std::lround(mins[j] / dmin), 0L, 63L));
    }
    // The inverse of ggml's get_scale_min_k4.
    std::uint8_t packed[12] = {};
    for (int j = 0; j < 4; ++j) {
        packed[j] = static_cast<std::uint8_t>(sc[j] | ((sc[j + 4] >> 4) << 6));
        packed[j + 4] = static_cast<std::uint8_t>(m[j] | ((m[j + 4] >> 4) << 6));
        packed[j + 8] = static_cast<std::uint8_t>((sc[j + 4] & 15) | ((m[j + 4] & 15) << 4));
    }
    for (int i = 0; i < 12; ++i)
        b[4 + i] = static_cast<std::byte>(packed[i]);
    int q[256];
    for (int j = 0; j < 8; ++j) {
        const float step = d * static_cast<float>(sc[j]);
        const float offset = dmin * static_cast<float>(m[j]);
        for (int l = 0; l < 32; ++l)
            q[32 * j + l] = level(x[32 * j + l] + offset, step, 0, 15);
    }
    for (int c = 0; c < 4; ++c)
        for (int l = 0; l < 32; ++l)
            b[16 + 32 * c + l] = static_cast<std::byte>(q[64 * c + l] | (q[64 * c + 32 + l] << 4));
}

// Sixteen sub-blocks of 16, x ~ d * sc * (q - 32) with int8 sc and 6-bit q.
void q6_K(const float* x, std::byte* b)
{
    float scale[16];
    for (int j = 0; j < 16; ++j)
        scale[j] = maxAbs(x + 16 * j, 16) / 31.0f;
    const std::uint16_t dBits = half(*std::max_element(scale, scale + 16) / 127.0f);
    putHalf(b + 208, dBits);
    const float d = engine::gguf::halfToFloat(dBits);
    int q[256];
    for (int j = 0; j < 16; ++j) {
        const int sc = level(scale[j], d, -128, 127);
        b[192 + j] = static_cast<std::byte>(static_cast<std::uint8_t>(static_cast<std::int8_t>(sc)));
        const float step = d * static_cast<float>(sc);
        for (int l = 0; l < 16; ++l)
            q[16 * j + l] = level(x[16 * j + l], step, -32, 31) + 32;
    }
    for (int n = 0; n < 2; ++n)
        for (int l = 0; l < 32; ++l) {
            const int* h = q + 128 * n + l;  // h[0], h[32], h[64], h[96]
            b[64 * n + l] = static_cast<std::byte>((h[0] & 15) | ((h[64] & 15) << 4));
            b[64 * n + l + 32] = static_cast<std::byte>((h[32] & 15) | ((h[96] & 15) << 4));
            b[128 + 32 * n + l] =
                static_cast<std::byte>((h[0] >> 4) | ((h[32] >> 4) << 2) | ((h[64] >> 4) << 4) | ((h[96] >> 4) << 6));
        }
}

}  // namespace

std::vector<std::byte> quantize(GgmlType type, std::span<const float> values)
{
    const std::size_t per = engine::gguf::blockWeights(type);
    const std::size_t size = engine::gguf::blockBytes(type);
    assert(values.size() % per == 0);
    std::vector<std::byte> out(values.size() / per * size);
    for (std::size_t i = 0; i < values.size() / per; ++i) {
        const float* x = values.data() + i * per;
        std::byte* b = out.data() + i * size;
        switch (type) {
        case GgmlType::F32: {
            const auto bits = std::bit_cast<std::uint32_t>(*x);
            for (int k = 0; k < 4; ++k)
                b[k] = static_cast<std::byte>((bits >> (8 * k)) & 0xffu);
            break;
        }
        case GgmlType::F16:
            putHalf(b, half(*x));
            break;
        case GgmlType::BF16:
            putHalf(b, engine::toBFloat16Bits(static_cast<double>(*x)));
            break;
        case GgmlType::Q8_0:
            q8_0(x, b);
            break;
        case GgmlType::Q4_0:
            q4_0(x, b);
            break;
        case GgmlType::Q5_0:
            q5_0(x, b);
            break;
        case GgmlType::Q4_K:
            q4_K(x, b);
            break;
        case GgmlType::Q6_K:
            q6_K(x, b);
            break;
        }
    }
    return out;
}

std::vector<float> randomWeights(std::size_t count, std::uint32_t seed, float scale)
{
    std::vector<float> out(count);
    std::uint32_t state = seed;
    for (float& v : out) {
        state += 0x6d2b79f5u;  // mulberry32
        std::uint32_t t = (state ^ (state >> 15)) * (1u | state);
        t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
        t ^= t >> 14;
        v = scale * static_cast<float>(static_cast<double>(t) / 2147483648.0 - 1.0);
    }
    return out;
}

GgufWriter& GgufWriter::setVersion(std::uint32_t version)
{
    m_version = version;
    return *this;
}

GgufWriter& GgufWriter::setAlignment(std::uint32_t alignment)
{
    m_alignment = alignment;
    return add("general.alignment", GgufValue{alignment});
}

GgufWriter& GgufWriter::add(const std::string& key, GgufValue value)
{
    m_metadata.emplace_back(key, std::move(value));
    return *this;
}

GgufWriter& GgufWriter::addString(const std::string& key, const std::string& value)
{
    return add(key, GgufValue{value});
}
GgufWriter& GgufWriter::addUint32(const std::string& key, std::uint32_t value) { return add(key, GgufValue{value}); }
GgufWriter& GgufWriter::addInt32(const std::string& key, std::int32_t value) { return add(key, GgufValue{value}); }
GgufWriter& GgufWriter::addFloat32(const std::string& key, float value) { return add(key, GgufValue{value}); }
GgufWriter& GgufWriter::addBool(const std::string& key, bool value) { return add(key, GgufValue{value}); }

namespace {

template <class T>
GgufValue arrayOf(GgufType type, const std::vector<T>& values)
{
    GgufArray a;
    a.elementType = type;
    a.values.reserve(values.size());
    for (const T& v : values)
        a.values.emplace_back(v);
    return GgufValue{std::move(a)};
}

}  // namespace

GgufWriter& GgufWriter::addStringArray(const std::string& key, const std::vector<std::string>& values)
{
    return add(key, arrayOf(GgufType::String, values));
}
GgufWriter& GgufWriter::addFloatArray(const std::string& key, const std::vector<float>& values)
{
    return add(key, arrayOf(GgufType::Float32, values));
}
GgufWriter& GgufWriter::addInt32Array(const std::string& key, const std::vector<std::int32_t>& values)
{
    return add(key, arrayOf(GgufType::Int32, values));
}

std::vector<float> GgufWriter::addTensor(const std::string& name, GgmlType type, std::vector<std::uint64_t> ne,
                                         std::span<const float> values)
{
    std::vector<std::byte> data = quantize(type, values);
    std::vector<float> readBack(values.size());
    if (!values.empty())
        engine::gguf::dequantizeRow(type, data.data(), readBack.data(), values.size());
    m_tensors.push_back({name, static_cast<std::uint32_t>(type), std::move(ne), std::move(data), std::nullopt});
    return readBack;
}

GgufWriter& GgufWriter::addRawTensor(const std::string& name, std::uint32_t typeNumber, std::vector<std::uint64_t> ne,
                                     std::vector<std::byte> data, std::optional<std::uint64_t> offset)
{
    m_tensors.push_back({name, typeNumber, std::move(ne), std::move(data), offset});
    return *this;
}

std::vector<std::byte> GgufWriter::bytes() const
{
    const std::uint64_t alignment = m_alignment == 0 ? 1 : m_alignment;
    const auto pad = [alignment](std::uint64_t n) { return (alignment - n % alignment) % alignment; };
    std::vector<std::byte> out;
    for (const char c : {'G', 'G', 'U', 'F'})
        out.push_back(static_cast<std::byte>(c));
    put(out, m_version, 4);
    put(out, m_tensors.size(), 8);
    put(out, m_metadata.size(), 8);
    for (const auto& [key, value] : m_metadata) {
        putString(out, key);
        put(out, static_cast<std::uint32_t>(engine::gguf::typeOf(value)), 4);
        putValue(out, value);
    }
    std::uint64_t offset = 0;
    for (const Tensor& t : m_tensors) {
        putString(out, t.name);
        put(out, t.ne.size(), 4);
        for (const std::uint64_t d : t.ne)
            put(out, d, 8);
        put(out, t.type, 4);
        put(out, t.offset.value_or(offset), 8);
        offset += t.data.size() + pad(t.data.size());
    }
    if (!m_tensors.empty())
        out.resize(out.size() + pad(out.size()));
    for (const Tensor& t : m_tensors) {
        out.insert(out.end(), t.data.begin(), t.data.end());
        out.resize(out.size() + pad(t.data.size()));
    }
    return out;
}

bool GgufWriter::writeFile(const std::string& path) const
{
    const std::vector<std::byte> data = bytes();
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
    return static_cast<bool>(file);
}

}  // namespace logitlab::test
