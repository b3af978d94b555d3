// ggml's dequantisation, written from the block layouts of ggml-common.h and the reference C
// of ggml-quants.c. Each weight is computed with the same float operations in the same order
// (a product, then a difference: compiled with -ffp-contract=off so no FMA fuses them), so the
// results are ggml's bit for bit. Blocks are read byte by byte: they need no alignment.
#include "engine/gguf/gguf_file.h"

#include <bit>
#include <cassert>
#include <cstring>

namespace logitlab::engine::gguf {

namespace {

std::uint8_t u8(const std::byte* p, std::size_t i) { return std::to_integer<std::uint8_t>(p[i]); }
std::uint16_t u16(const std::byte* p, std::size_t i)
{
    return static_cast<std::uint16_t>(u8(p, i) | (u8(p, i + 1) << 8));
}
std::int8_t i8(const std::byte* p, std::size_t i) { return static_cast<std::int8_t>(u8(p, i)); }
float half(const std::byte* p, std::size_t i) { return halfToFloat(u16(p, i)); }

// block_q8_0: fp16 d, int8 qs[32]. y = qs * d.
void q8_0(const std::byte* b, float* y)
{
    const float d = half(b, 0);
    for (int j = 0; j < 32; ++j)
        y[j] = static_cast<float>(i8(b, 2 + static_cast<std::size_t>(j))) * d;
}

// block_q4_0: fp16 d, qs[16]: weight j in the low nibble of qs[j], weight j + 16 in the high
// one; y = (nibble - 8) * d.
void q4_0(const std::byte* b, float* y)
{
    const float d = half(b, 0);
    for (int j = 0; j < 16; ++j) {
        const std::uint8_t q = u8(b, 2 + static_cast<std::size_t>(j));
        y[j] = static_cast<float>((q & 0x0F) - 8) * d;
        y[j + 16] = static_cast<float>((q >> 4) - 8) * d;
    }
}

// block_q5_0: fp16 d, qh[4] (a little-endian uint32: bit j is weight j's fifth bit), qs[16]
// as in q4_0; y = (5-bit value - 16) * d.
void q5_0(const std::byte* b, float* y)
{
    const float d = half(b, 0);
    const std::uint32_t qh = static_cast<std::uint32_t>(u16(b, 2)) | (static_cast<std::uint32_t>(u16(b, 4)) << 16);
    for (int j = 0; j < 16; ++j) {
        const std::uint8_t q = u8(b, 6 + static_cast<std::size_t>(j));
        const int low = (q & 0x0F) | static_cast<int>(((qh >> j) & 1u) << 4);
        const int high = (q >> 4) | static_cast<int>(((qh >> (j + 16)) & 1u) << 4);
        y[j] = static_cast<float>(low - 16) * d;
        y[j + 16] = static_cast<float>(high - 16) * d;
    }
}

// The 6-bit scale and min of sub-block j (0..7) from block_q4_K's 12 bytes: sub-blocks 0-3 in
// the low 6 bits of bytes 0-3 (scales) and 4-7 (mins); sub-blocks 4-7 in the nibbles of bytes
// 8-11 (scale low, min high) with their top two bits in the top bits of bytes 0-3 and 4-7.
void scaleMinK4(int j, const std::byte* s, std::uint8_t& scale, std::uint8_t& min)
{
    const auto at = [s](int i) { return u8(s, static_cast<std::size_t>(i)); };
    if (j < 4) {
        scale = at(j) & 63;
        min = at(j + 4) & 63;
    } else {
        scale = static_cast<std::uint8_t>((at(j + 4) & 0x0F) | ((at(j - 4) >> 6) << 4));
        min = static_cast<std::uint8_t>((at(j + 4) >> 4) | ((at(j) >> 6) << 4));
    }
}

// block_q4_K: fp16 d, fp16 dmin, scales[12], qs[128]. Four chunks of 64 weights; chunk c's
// qs[32c + l] holds weight 64c + l (low nibble, sub-block 2c) and 64c + 32 + l (high nibble,
// sub-block 2c + 1). y = (d * scale) * q - (dmin * min).
void q4_K(const std::byte* b, float* y)
{
    const float d = half(b, 0);
    const float dmin = half(b, 2);
    const std::byte* scales = b + 4;
    const std::byte* q = b + 16;
    for (int c = 0; c < 4; ++c) {
        std::uint8_t sc = 0;
        std::uint8_t m = 0;
        scaleMinK4(2 * c, scales, sc, m);
        const float d1 = d * static_cast<float>(sc);
        const float m1 = dmin * static_cast<float>(m);
        scaleMinK4(2 * c + 1, scales, sc, m);
        const float d2 = d * static_cast<float>(sc);
        const float m2 = dmin * static_cast<float>(m);
        for (int l = 0; l < 32; ++l) {
            const std::uint8_t v = u8(q, static_cast<std::size_t>(32 * c + l));
            y[64 * c + l] = d1 * static_cast<float>(v & 0x0F) - m1;
            y[64 * c + 32 + l] = d2 * static_cast<float>(v >> 4) - m2;
        }
    }
}

// block_q6_K: ql[128], qh[64], int8 scales[16], fp16 d. Two halves of 128 weights; in half n,
// weight 128n + 32k + l (k = 0..3, l = 0..31) has its low 4 bits in ql[64n + l + 32 (k & 1)]
// (low nibble for k < 2, high for k >= 2), its top 2 bits at bit 2k of qh[32n + l], and the
// scale of its sub-block of 16. y = (d * scale) * (q - 32).
void q6_K(const std::byte* b, float* y)
{
    const std::byte* ql = b;
    const std::byte* qh = b + 128;
    const std::byte* sc = b + 192;
    const float d = half(b, 208);
    for (int n = 0; n < 2; ++n) {
        for (int l = 0; l < 32; ++l) {
            const auto L = static_cast<std::size_t>(l);
            const auto N = static_cast<std::size_t>(n);
            const int is = l / 16;
            const std::uint8_t a = u8(ql, 64 * N + L);
            const std::uint8_t c = u8(ql, 64 * N + L + 32);
            const std::uint8_t h = u8(qh, 32 * N + L);
            const int q1 = ((a & 0x0F) | (((h >> 0) & 3) << 4)) - 32;
            const int q2 = ((c & 0x0F) | (((h >> 2) & 3) << 4)) - 32;
            const int q3 = ((a >> 4) | (((h >> 4) & 3) << 4)) - 32;
            const int q4 = ((c >> 4) | (((h >> 6) & 3) << 4)) - 32;
            const auto scale = [&](int k) {
                return static_cast<float>(i8(sc, static_cast<std::size_t>(8 * n + is + 2 * k)));
            };
            y[128 * n + l + 0] = d * scale(0) * static_cast<float>(q1);
            y[128 * n + l + 32] = d * scale(1) * static_cast<float>(q2);
            y[128 * n + l + 64] = d * scale(2) * static_cast<float>(q3);
            y[128 * n + l + 96] = d * scale(3) * static_cast<float>(q4);
        }
    }
}

}  // namespace

float halfToFloat(std::uint16_t bits)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    std::uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F)  // infinity, or NaN with its payload in the top mantissa bits, made quiet
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13) | (mantissa ? 0x400000u : 0u));
    if (exponent != 0)
        return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
    if (mantissa == 0)
        return std::bit_cast<float>(sign);
    // A subnormal half, mantissa * 2^-24, is a normal float: shift its leading one into place.
    int e = 113;  // the exponent of 2^-14 in float's bias, less one per shift
    while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --e;
    }
    return std::bit_cast<float>(sign | (static_cast<std::uint32_t>(e) << 23) | ((mantissa & 0x3FFu) << 13));
}

float bfloat16ToFloat(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

void dequantizeRow(GgmlType type, const std::byte* blocks, float* out, std::size_t count)
{
    const std::size_t per = blockWeights(type);
    assert(count % per == 0);
    const std::size_t size = blockBytes(type);
    const std::size_t n = count / per;
    switch (type) {
    case GgmlType::F32:
        std::memcpy(out, blocks, count * sizeof(float));
        return;
    case GgmlType::F16:
        for (std::size_t i = 0; i < count; ++i)
            out[i] = halfToFloat(u16(blocks, 2 * i));
        return;
    case GgmlType::BF16:
        for (std::size_t i = 0; i < count; ++i)
            out[i] = bfloat16ToFloat(u16(blocks, 2 * i));
        return;
    case GgmlType::Q8_0:
        for (std::size_t i = 0; i < n; ++i)
            q8_0(blocks + i * size, out + i * per);
        return;
    case GgmlType::Q4_0:
        for (std::size_t i = 0; i < n; ++i)
            q4_0(blocks + i * size, out + i * per);
        return;
    case GgmlType::Q5_0:
        for (std::size_t i = 0; i < n; ++i)
            q5_0(blocks + i * size, out + i * per);
        return;
    case GgmlType::Q4_K:
        for (std::size_t i = 0; i < n; ++i)
            q4_K(blocks + i * size, out + i * per);
        return;
    case GgmlType::Q6_K:
        for (std::size_t i = 0; i < n; ++i)
            q6_K(blocks + i * size, out + i * per);
        return;
    }
}

}  // namespace logitlab::engine::gguf
