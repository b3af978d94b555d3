#include "engine/transformer/block_dots.h"

#include "engine/gguf/gguf_file.h"

#include <cstring>
#include <type_traits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace logitlab::engine::transformer::detail {

using gguf::GgmlType;

namespace {

// How far ahead of the group being read each row is prefetched (measured for Q8_0: 256 bytes
// took a matrix-vector product from 5.5 to 3.6 ns a block from memory, 1024 the same).
constexpr int kPrefetchBytes = 256;

std::uint16_t u16(const std::byte* p)
{
    std::uint16_t bits = 0;
    std::memcpy(&bits, p, sizeof bits);
    return bits;
}

// The scalar Q8_0 product: the semantic reference (plain sequential sums).
float q8DotScalar(const std::byte* row, const float* x, std::int64_t g0, std::int64_t g1)
{
    constexpr std::size_t kBytes = 34;  // an F16 scale, then 32 int8 weights
    float sum = 0.0f;
    for (std::int64_t g = g0; g < g1; ++g) {
        const std::byte* block = row + static_cast<std::size_t>(g) * kBytes;
        const auto* q = reinterpret_cast<const std::int8_t*>(block + 2);
        const float* xg = x + g * kGroupWeights;
        float blockSum = 0.0f;
        for (std::int64_t i = 0; i < kGroupWeights; ++i)
            blockSum += static_cast<float>(q[i]) * xg[i];
        sum += gguf::halfToFloat(u16(block)) * blockSum;
    }
    return sum;
}

#if defined(__x86_64__)
#define LOGITLAB_AVX2 __attribute__((target("avx2,fma,f16c")))

LOGITLAB_AVX2 inline float hsum8(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

LOGITLAB_AVX2 inline float half(const std::byte* p) { return _cvtsh_ss(u16(p)); }

// Eight bytes, zero-extended to 32-bit lanes.
LOGITLAB_AVX2 inline __m256i bytes8(const std::byte* p)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i_u*>(p)));
}

// Bits [shift, shift + width) of each lane.
LOGITLAB_AVX2 inline __m256i bitsOf(__m256i v, int shift, int mask)
{
    return _mm256_and_si256(_mm256_srl_epi32(v, _mm_cvtsi32_si128(shift)), _mm256_set1_epi32(mask));
}

// One block's factors, found once per block and row: group j's weights 0-15 are scaled by
// scale[2j], 16-31 by scale[2j + 1] (equal but for Q6_K), and Q4_K subtracts min[j] times the
// sum of the group's states.
struct BlockScales {
    alignas(32) float scale[16];
    alignas(32) float min[8];
};

// Each type: bytes per block, groups per block, its factors, and group j's integers (offset
// removed) as four vectors of eight floats.
struct Q8_0 {
    static constexpr std::size_t kBytes = 34;
    static constexpr int kGroups = 1;
    static void prepare(const std::byte*, BlockScales&) {}  // the scale is read with each block
    LOGITLAB_AVX2 static void decode(const std::byte* b, int, __m256* q)
    {
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i)
            q[i] = _mm256_cvtepi32_ps(
                _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i_u*>(b + 2 + 8 * i))));
    }
};

// block_q4_0: fp16 d, qs[16]; weight i < 16 in the low nibble of qs[i], i + 16 in the high one.
struct Q4_0 {
    static constexpr std::size_t kBytes = 18;
    static constexpr int kGroups = 1;
    static void prepare(const std::byte*, BlockScales&) {}  // the scale is read with each block
    LOGITLAB_AVX2 static void decode(const std::byte* b, int, __m256* q)
    {
        const __m256i eight = _mm256_set1_epi32(8);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i)
            q[i] =
                _mm256_cvtepi32_ps(_mm256_sub_epi32(bitsOf(bytes8(b + 2 + 8 * (i & 1)), i < 2 ? 0 : 4, 0x0F), eight));
    }
};

// block_q5_0: fp16 d, qh (bit i: weight i's fifth bit), qs[16] as in Q4_0.
struct Q5_0 {
    static constexpr std::size_t kBytes = 22;
    static constexpr int kGroups = 1;
    static void prepare(const std::byte*, BlockScales&) {}  // the scale is read with each block
    LOGITLAB_AVX2 static void decode(const std::byte* b, int, __m256* q)
    {
        std::uint32_t qh = 0;
        std::memcpy(&qh, b + 2, sizeof qh);
        const __m256i high = _mm256_set1_epi32(static_cast<int>(qh));
        const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        const __m256i one = _mm256_set1_epi32(1);
        const __m256i sixteen = _mm256_set1_epi32(16);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            const __m256i low = bitsOf(bytes8(b + 6 + 8 * (i & 1)), i < 2 ? 0 : 4, 0x0F);
            const __m256i fifth =
                _mm256_and_si256(_mm256_srlv_epi32(high, _mm256_add_epi32(lane, _mm256_set1_epi32(8 * i))), one);
            q[i] = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_or_si256(low, _mm256_slli_epi32(fifth, 4)), sixteen));
        }
    }
};

// Eight bytes (the low byte first) as floats times f.
LOGITLAB_AVX2 inline void scaledBytes(std::uint64_t bytes, float f, float* out)
{
    const __m256 v = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(bytes))));
    _mm256_store_ps(out, _mm256_mul_ps(v, _mm256_set1_ps(f)));
}

// block_q4_K: fp16 d, fp16 dmin, scales[12], qs[128]; sub-block j's weights are the low (j
// even) or high nibbles of qs[32 (j / 2) ..]. The 6-bit scales and mins (dequantize.cpp's
// scaleMinK4) are unpacked four at a time: bytes 0-3 and 4-7 hold sub-blocks 0-3's in their
// low 6 bits; bytes 8-11 hold sub-blocks 4-7's low 4 bits (scale low nibble, min high), their
// top 2 bits in the top bits of bytes 0-3 (scales) and 4-7 (mins).
struct Q4_K {
    static constexpr std::size_t kBytes = 144;
    static constexpr int kGroups = 8;
    LOGITLAB_AVX2 static void prepare(const std::byte* b, BlockScales& s)
    {
        std::uint32_t u[3];
        std::memcpy(u, b + 4, sizeof u);
        const std::uint32_t low6 = 0x3F3F3F3Fu, low4 = 0x0F0F0F0Fu, low2 = 0x03030303u;
        const std::uint64_t scales =
            (u[0] & low6) | static_cast<std::uint64_t>((u[2] & low4) | (((u[0] >> 6) & low2) << 4)) << 32;
        const std::uint64_t mins =
            (u[1] & low6) | static_cast<std::uint64_t>(((u[2] >> 4) & low4) | (((u[1] >> 6) & low2) << 4)) << 32;
        alignas(32) float sc[8];
        scaledBytes(scales, half(b), sc);
        scaledBytes(mins, half(b + 2), s.min);
        for (int j = 0; j < 8; ++j)
            s.scale[2 * j] = s.scale[2 * j + 1] = sc[j];
    }
    LOGITLAB_AVX2 static void decode(const std::byte* b, int j, __m256* q)
    {
        const std::byte* qs = b + 16 + 32 * (j / 2);
        if (j % 2 == 0) {
            const __m256i nibble = _mm256_set1_epi32(0x0F);
#pragma GCC unroll 4
            for (int i = 0; i < 4; ++i)
                q[i] = _mm256_cvtepi32_ps(_mm256_and_si256(bytes8(qs + 8 * i), nibble));
        } else {  // a byte's high nibble: no mask needed
#pragma GCC unroll 4
            for (int i = 0; i < 4; ++i)
                q[i] = _mm256_cvtepi32_ps(_mm256_srli_epi32(bytes8(qs + 8 * i), 4));
        }
    }
};

// block_q6_K: ql[128], qh[64], int8 scales[16], fp16 d. Sub-block j = 4n + k (half n, k =
// 0..3): low 4 bits in ql[64n + 32 (k & 1) ..] (high nibbles for k >= 2), top 2 bits at bit 2k
// of qh[32n ..]; scales[2j] for its first 16 weights, scales[2j + 1] for the rest.
struct Q6_K {
    static constexpr std::size_t kBytes = 210;
    static constexpr int kGroups = 8;
    LOGITLAB_AVX2 static void prepare(const std::byte* b, BlockScales& s)
    {
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i_u*>(b + 192));
        const __m256 d = _mm256_set1_ps(half(b + 208));
        _mm256_store_ps(s.scale, _mm256_mul_ps(d, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(raw))));
        _mm256_store_ps(s.scale + 8,
                        _mm256_mul_ps(d, _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_srli_si128(raw, 8)))));
    }
    LOGITLAB_AVX2 static void decode(const std::byte* b, int j, __m256* q)
    {
        const int n = j / 4;
        const int k = j % 4;
        const std::byte* ql = b + 64 * n + 32 * (k & 1);
        const std::byte* qh = b + 128 + 32 * n;
        const int lowShift = k < 2 ? 0 : 4;
        const __m256i offset = _mm256_set1_epi32(32);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            const __m256i low = bitsOf(bytes8(ql + 8 * i), lowShift, 0x0F);
            const __m256i top = bitsOf(bytes8(qh + 8 * i), 2 * k, 3);
            q[i] = _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_or_si256(low, _mm256_slli_epi32(top, 4)), offset));
        }
    }
};

// R rows of type T against one state over groups [g0, g1): out[r]. Arithmetic as block_dots.h
// gives it; each row's factors are found once per block.
template <class T, int R>
LOGITLAB_AVX2 void tile(const std::byte* w, std::size_t rowBytes, const float* x, std::int64_t g0, std::int64_t g1,
                        float* out)
{
    constexpr bool kMins = std::is_same_v<T, Q4_K>;
    constexpr bool kTwoScales = std::is_same_v<T, Q6_K>;
    __m256 acc[R];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r)
        acc[r] = _mm256_setzero_ps();
    BlockScales scales[R];
    for (std::int64_t g = g0; g < g1; ++g) {
        const std::size_t blockOffset = static_cast<std::size_t>(g / T::kGroups) * T::kBytes;
        const int j = static_cast<int>(g % T::kGroups);
        if (T::kGroups > 1 && (j == 0 || g == g0)) {
#pragma GCC unroll 16
            for (int r = 0; r < R; ++r)
                T::prepare(w + r * rowBytes + blockOffset, scales[r]);
        }
        const float* xg = x + g * kGroupWeights;
        const __m256 x0 = _mm256_loadu_ps(xg);
        const __m256 x1 = _mm256_loadu_ps(xg + 8);
        const __m256 x2 = _mm256_loadu_ps(xg + 16);
        const __m256 x3 = _mm256_loadu_ps(xg + 24);
        __m256 xSum;
        if constexpr (kMins)
            xSum = _mm256_add_ps(_mm256_add_ps(x0, x1), _mm256_add_ps(x2, x3));
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
            const std::byte* block = w + r * rowBytes + blockOffset;
            _mm_prefetch(reinterpret_cast<const char*>(block) + kPrefetchBytes, _MM_HINT_T0);
            __m256 q[4];
            T::decode(block, j, q);
            const BlockScales& s = scales[r];
            if constexpr (kTwoScales) {
                const __m256 a = _mm256_fmadd_ps(q[1], x1, _mm256_mul_ps(q[0], x0));
                const __m256 b = _mm256_fmadd_ps(q[3], x3, _mm256_mul_ps(q[2], x2));
                acc[r] = _mm256_fmadd_ps(_mm256_broadcast_ss(&s.scale[2 * j]), a, acc[r]);
                acc[r] = _mm256_fmadd_ps(_mm256_broadcast_ss(&s.scale[2 * j + 1]), b, acc[r]);
            } else {
                const __m256 p0 = _mm256_fmadd_ps(q[2], x2, _mm256_mul_ps(q[0], x0));
                const __m256 p1 = _mm256_fmadd_ps(q[3], x3, _mm256_mul_ps(q[1], x1));
                // A one-group block's scale is its first two bytes (F16): no table.
                const __m256 d = T::kGroups == 1 ? _mm256_set1_ps(half(block)) : _mm256_broadcast_ss(&s.scale[2 * j]);
                acc[r] = _mm256_fmadd_ps(d, _mm256_add_ps(p0, p1), acc[r]);
                if constexpr (kMins)
                    acc[r] = _mm256_fnmadd_ps(_mm256_broadcast_ss(&s.min[j]), xSum, acc[r]);
            }
        }
    }
    for (int r = 0; r < R; ++r)
        out[r] = hsum8(acc[r]);
}

template <class T>
void rowsOf(int rows, const std::byte* w, std::size_t rowBytes, const float* x, std::int64_t g0, std::int64_t g1,
            float* out)
{
    if (rows == 4)
        tile<T, 4>(w, rowBytes, x, g0, g1, out);
    else
        tile<T, 1>(w, rowBytes, x, g0, g1, out);
}
#undef LOGITLAB_AVX2
#endif

}  // namespace

bool hasBlockDots(GgmlType type, KernelPath path)
{
    switch (type) {
    case GgmlType::Q8_0:
        return true;
    case GgmlType::Q4_0:
    case GgmlType::Q5_0:
    case GgmlType::Q4_K:
    case GgmlType::Q6_K:
        return path == KernelPath::Avx2;
    default:
        return false;
    }
}

void blockDots(GgmlType type, KernelPath path, int rows, const std::byte* w, std::size_t rowBytes, const float* x,
               std::int64_t g0, std::int64_t g1, float* out)
{
#if defined(__x86_64__)
    if (path == KernelPath::Avx2) {
        switch (type) {
        case GgmlType::Q8_0:
            return rowsOf<Q8_0>(rows, w, rowBytes, x, g0, g1, out);
        case GgmlType::Q4_0:
            return rowsOf<Q4_0>(rows, w, rowBytes, x, g0, g1, out);
        case GgmlType::Q5_0:
            return rowsOf<Q5_0>(rows, w, rowBytes, x, g0, g1, out);
        case GgmlType::Q4_K:
            return rowsOf<Q4_K>(rows, w, rowBytes, x, g0, g1, out);
        case GgmlType::Q6_K:
            return rowsOf<Q6_K>(rows, w, rowBytes, x, g0, g1, out);
        default:
            return;
        }
    }
#endif
    for (int r = 0; r < rows; ++r)
        out[r] = q8DotScalar(w + static_cast<std::size_t>(r) * rowBytes, x, g0, g1);
}

}  // namespace logitlab::engine::transformer::detail
