// ggml's dequantisation (issue 36): fp16 and bf16 exactly (every fp16 bit pattern against the
// engine's own float16 decoder, subnormals, infinities, NaN), each quantised type's blocks
// against hand-checked constants and against a decoder written here from the format's
// description, one weight at a time, bit for bit on random blocks. The writer's quantisers
// round-trip within each format's error.
#include "engine/gguf/gguf_file.h"
#include "engine/kernels/float_formats.h"
#include "support/gguf_writer.h"
#include "support/same_bits.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

using namespace logitlab;
using engine::gguf::dequantizeRow;
using engine::gguf::GgmlType;

Q_DECLARE_METATYPE(GgmlType)

namespace {

std::uint8_t at(const std::vector<std::byte>& b, std::size_t i) { return std::to_integer<std::uint8_t>(b[i]); }
float halfAt(const std::vector<std::byte>& b, std::size_t i)
{
    return engine::gguf::halfToFloat(static_cast<std::uint16_t>(at(b, i) | (at(b, i + 1) << 8)));
}

// Weight i (0..block-1) of one block, from the format's definition (ggml-common.h's layouts and
// ggml-quants.c's formulas), with the same float operations in the same order.
float reference(GgmlType type, const std::vector<std::byte>& b, int i)
{
    const auto u = static_cast<std::size_t>(i);
    switch (type) {
    case GgmlType::Q8_0:  // d, then 32 int8
        return static_cast<float>(static_cast<std::int8_t>(at(b, 2 + u))) * halfAt(b, 0);
    case GgmlType::Q4_0: {  // d, then nibbles: weight i < 16 low of byte i, i >= 16 high of byte i - 16
        const std::uint8_t byte = at(b, 2 + u % 16);
        const int q = i < 16 ? (byte & 15) : (byte >> 4);
        return static_cast<float>(q - 8) * halfAt(b, 0);
    }
    case GgmlType::Q5_0: {  // d, 32 fifth bits (bit i of a little-endian word), nibbles as Q4_0
        const std::uint8_t byte = at(b, 6 + u % 16);
        const int low = i < 16 ? (byte & 15) : (byte >> 4);
        const int fifth = (at(b, 2 + u / 8) >> (i % 8)) & 1;
        return static_cast<float>((low | (fifth << 4)) - 16) * halfAt(b, 0);
    }
    case GgmlType::Q4_K: {       // d, dmin, 12 bytes of 6-bit scales and mins, 128 bytes of nibbles
        const int sub = i / 32;  // sub-block of 32
        const std::uint8_t byte = at(b, 16 + 32 * static_cast<std::size_t>(i / 64) + u % 32);
        const int q = sub % 2 == 0 ? (byte & 15) : (byte >> 4);
        int sc = 0;
        int m = 0;
        const auto s = [&](int k) { return static_cast<int>(at(b, 4 + static_cast<std::size_t>(k))); };
        if (sub < 4) {
            sc = s(sub) & 63;
            m = s(sub + 4) & 63;
        } else {
            sc = (s(sub + 4) & 15) + 16 * (s(sub - 4) >> 6);
            m = (s(sub + 4) >> 4) + 16 * (s(sub) >> 6);
        }
        const float d1 = halfAt(b, 0) * static_cast<float>(sc);
        const float m1 = halfAt(b, 2) * static_cast<float>(m);
        return d1 * static_cast<float>(q) - m1;
    }
    case GgmlType::Q6_K: {  // 128 bytes low nibbles, 64 bytes 2-bit pairs, 16 int8 scales, d
        const int n = i / 128;
        const int k = (i % 128) / 32;
        const int l = i % 32;
        const std::uint8_t lowByte = at(b, static_cast<std::size_t>(64 * n + l + 32 * (k % 2)));
        const int low = k < 2 ? (lowByte & 15) : (lowByte >> 4);
        const int high = (at(b, static_cast<std::size_t>(128 + 32 * n + l)) >> (2 * k)) & 3;
        const float scale = static_cast<float>(static_cast<std::int8_t>(at(b, 192 + u / 16)));
        return halfAt(b, 208) * scale * static_cast<float>((low | (high << 4)) - 32);
    }
    default:
        return 0.0f;
    }
}

std::vector<std::byte> bytesOf(std::initializer_list<std::pair<std::size_t, std::uint8_t>> set, std::size_t size)
{
    std::vector<std::byte> b(size);
    for (const auto& [i, v] : set)
        b[i] = static_cast<std::byte>(v);
    return b;
}

std::vector<float> decode(GgmlType type, const std::vector<std::byte>& b, std::size_t count)
{
    std::vector<float> out(count);
    dequantizeRow(type, b.data(), out.data(), count);
    return out;
}

}  // namespace

class TestGgufDequantize : public QObject {
    Q_OBJECT
private slots:
    void everyHalfIsExact()
    {
        for (std::uint32_t bits = 0; bits < 65536; ++bits) {
            const auto h = static_cast<std::uint16_t>(bits);
            const float f = engine::gguf::halfToFloat(h);
            const double expected = engine::fromFloat16Bits(h);
            if (std::isnan(expected)) {
                QVERIFY2(std::isnan(f), qPrintable(QString::number(bits, 16)));
                const auto fb = std::bit_cast<std::uint32_t>(f);
                QCOMPARE(fb >> 31, bits >> 15);                // sign kept
                QCOMPARE((fb >> 13) & 0x1FFu, bits & 0x1FFu);  // payload kept
                QVERIFY(fb & 0x400000u);                       // quiet, as F16C makes it
                continue;
            }
            QVERIFY2(static_cast<double>(f) == expected && std::signbit(f) == std::signbit(expected),
                     qPrintable(QString::number(bits, 16)));
        }
    }

    void halfConstants_data()
    {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("value");
        QTest::newRow("1") << 0x3C00 << 1.0f;
        QTest::newRow("-2") << 0xC000 << -2.0f;
        QTest::newRow("max") << 0x7BFF << 65504.0f;
        QTest::newRow("smallest normal") << 0x0400 << 6.103515625e-05f;
        QTest::newRow("largest subnormal") << 0x03FF << 6.097555160522461e-05f;
        QTest::newRow("smallest subnormal") << 0x0001 << 5.960464477539063e-08f;
        QTest::newRow("-subnormal") << 0x8200 << -3.0517578125e-05f;
        QTest::newRow("+inf") << 0x7C00 << std::numeric_limits<float>::infinity();
        QTest::newRow("-inf") << 0xFC00 << -std::numeric_limits<float>::infinity();
        QTest::newRow("-0") << 0x8000 << -0.0f;
        QTest::newRow("1/3") << 0x3555 << 0.333251953125f;
    }
    void halfConstants()
    {
        QFETCH(int, bits);
        QFETCH(float, value);
        QVERIFY(test::sameBits(engine::gguf::halfToFloat(static_cast<std::uint16_t>(bits)), value));
    }

    void bfloat16()
    {
        QVERIFY(test::sameBits(engine::gguf::bfloat16ToFloat(0x3F80), 1.0f));
        QVERIFY(test::sameBits(engine::gguf::bfloat16ToFloat(0xC049), -3.140625f));
        QVERIFY(test::sameBits(engine::gguf::bfloat16ToFloat(0x7F80), std::numeric_limits<float>::infinity()));
        QVERIFY(test::sameBits(engine::gguf::bfloat16ToFloat(0x0001), std::bit_cast<float>(0x00010000u)));
        QVERIFY(std::isnan(engine::gguf::bfloat16ToFloat(0x7FC1)));
        const auto row = decode(GgmlType::BF16, bytesOf({{0, 0x80}, {1, 0x3F}, {2, 0x49}, {3, 0xC0}}, 4), 2);
        QCOMPARE(row[0], 1.0f);
        QCOMPARE(row[1], -3.140625f);
    }

    void plainTypes()
    {
        const auto f16 = decode(GgmlType::F16, bytesOf({{0, 0x00}, {1, 0x3C}, {2, 0x01}, {3, 0x80}}, 4), 2);
        QCOMPARE(f16[0], 1.0f);
        QVERIFY(test::sameBits(f16[1], -5.960464477539063e-08f));
        const float values[2] = {1.5f, -0.0f};
        std::vector<std::byte> raw(8);
        std::memcpy(raw.data(), values, 8);
        const auto f32 = decode(GgmlType::F32, raw, 2);
        QVERIFY(test::sameBits(f32[0], 1.5f) && test::sameBits(f32[1], -0.0f));
    }

    // Blocks whose weights were worked out by hand from the format.
    void handChecked()
    {
        // Q8_0: d = 0.5 (0x3800); qs[0] = -128, qs[31] = 127.
        auto q8 = decode(GgmlType::Q8_0, bytesOf({{1, 0x38}, {2, 0x80}, {33, 0x7F}}, 34), 32);
        QCOMPARE(q8[0], -64.0f);
        QCOMPARE(q8[31], 63.5f);
        QCOMPARE(q8[1], 0.0f);
        // Q4_0: d = 1; qs[0] = 0x9F: weight 0 = 15 - 8, weight 16 = 9 - 8; zero nibbles are -8.
        auto q4 = decode(GgmlType::Q4_0, bytesOf({{1, 0x3C}, {2, 0x9F}}, 18), 32);
        QCOMPARE(q4[0], 7.0f);
        QCOMPARE(q4[16], 1.0f);
        QCOMPARE(q4[1], -8.0f);
        // Q5_0: d = 2 (0x4000); qh bit 0 and bit 17 set; qs[1] = 0x30.
        auto q5 = decode(GgmlType::Q5_0, bytesOf({{1, 0x40}, {2, 0x01}, {4, 0x02}, {7, 0x30}}, 22), 32);
        QCOMPARE(q5[0], 0.0f);     // (0 | 16) - 16
        QCOMPARE(q5[16], -32.0f);  // (0 | 0) - 16, times 2
        QCOMPARE(q5[17], 6.0f);    // (3 | 16) - 16 = 3, times 2
        QCOMPARE(q5[1], -32.0f);
        // Q4_K: d = 1, dmin = 1; sub-block 0: scale 2, min 3; sub-block 4: scale 1 + 16 (top bits
        // in byte 0), min 2; qs[0] = 0x05 (weights 0 and 32), qs[64] = 0x03 (weights 128, 160).
        auto q4k = decode(
            GgmlType::Q4_K,
            bytesOf({{1, 0x3C}, {3, 0x3C}, {4, 2 | (1 << 6)}, {8, 3}, {12, 0x21}, {16, 0x05}, {16 + 64, 0x03}}, 144),
            256);
        QCOMPARE(q4k[0], 7.0f);     // 2 * 5 - 3
        QCOMPARE(q4k[128], 49.0f);  // 17 * 3 - 2
        QCOMPARE(q4k[160], 0.0f);   // sub-block 5: scale 0, min 0
        QCOMPARE(q4k[32], 0.0f);    // sub-block 1: scale 0, min 0
        // Q6_K: d = 1; scales[0] = 2, scales[4] = -1; ql[0] = 0x0F, qh[0] = 0x02.
        auto q6k =
            decode(GgmlType::Q6_K, bytesOf({{209, 0x3C}, {192, 2}, {196, 0xFF}, {0, 0x0F}, {128, 0x02}}, 210), 256);
        QCOMPARE(q6k[0], 30.0f);   // (15 | 2 << 4) - 32 = 15, times 2
        QCOMPARE(q6k[64], 32.0f);  // (0 | 0) - 32, times -1
        QCOMPARE(q6k[32], -0.0f);  // scale 0
    }

    void randomBlocksBitForBit_data()
    {
        QTest::addColumn<GgmlType>("type");
        for (GgmlType t : {GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q5_0, GgmlType::Q4_K, GgmlType::Q6_K})
            QTest::newRow(std::string(engine::gguf::ggmlTypeName(t)).c_str()) << t;
    }
    void randomBlocksBitForBit()
    {
        QFETCH(GgmlType, type);
        const std::size_t size = engine::gguf::blockBytes(type);
        const std::size_t per = engine::gguf::blockWeights(type);
        std::mt19937 rng(36);
        const std::size_t blocks = 64;
        std::vector<std::byte> row(blocks * size);
        for (auto& b : row)
            b = static_cast<std::byte>(rng() & 0xffu);
        // Keep the fp16 scales finite (NaN payloads are not what this test is about).
        for (std::size_t i = 0; i < blocks; ++i)
            for (const std::size_t off : type == GgmlType::Q6_K   ? std::vector<std::size_t>{208}
                                         : type == GgmlType::Q4_K ? std::vector<std::size_t>{0, 2}
                                                                  : std::vector<std::size_t>{0})
                row[i * size + off + 1] &= std::byte{0xBF};  // exponent below 31
        std::vector<float> out(blocks * per);
        dequantizeRow(type, row.data(), out.data(), out.size());
        for (std::size_t i = 0; i < blocks; ++i) {
            const std::vector<std::byte> block(row.begin() + static_cast<std::ptrdiff_t>(i * size),
                                               row.begin() + static_cast<std::ptrdiff_t>((i + 1) * size));
            for (std::size_t j = 0; j < per; ++j) {
                const float expected = reference(type, block, static_cast<int>(j));
                QVERIFY2(test::sameBits(out[i * per + j], expected),
                         qPrintable(QStringLiteral("block %1 weight %2: %3 vs %4")
                                        .arg(i)
                                        .arg(j)
                                        .arg(out[i * per + j])
                                        .arg(expected)));
            }
        }
    }

    // The writer's quantisers: every weight back within the format's step of the original.
    void quantiserRoundTrip_data()
    {
        QTest::addColumn<GgmlType>("type");
        QTest::addColumn<float>("tolerance");  // as a fraction of the largest magnitude
        QTest::newRow("F32") << GgmlType::F32 << 0.0f;
        QTest::newRow("F16") << GgmlType::F16 << 0.0005f;
        QTest::newRow("BF16") << GgmlType::BF16 << 0.004f;
        QTest::newRow("Q8_0") << GgmlType::Q8_0 << 0.005f;
        QTest::newRow("Q5_0") << GgmlType::Q5_0 << 0.04f;
        QTest::newRow("Q4_0") << GgmlType::Q4_0 << 0.08f;
        QTest::newRow("Q4_K") << GgmlType::Q4_K << 0.08f;
        QTest::newRow("Q6_K") << GgmlType::Q6_K << 0.02f;
    }
    void quantiserRoundTrip()
    {
        QFETCH(GgmlType, type);
        QFETCH(float, tolerance);
        for (const float scale : {1.0f, 0.01f, 300.0f}) {
            auto values = test::randomWeights(1024, 7, scale);
            values[5] = 0.0f;
            const auto blocks = test::quantize(type, values);
            QCOMPARE(blocks.size(), values.size() / engine::gguf::blockWeights(type) * engine::gguf::blockBytes(type));
            std::vector<float> back(values.size());
            dequantizeRow(type, blocks.data(), back.data(), back.size());
            float worst = 0.0f;
            for (std::size_t i = 0; i < values.size(); ++i)
                worst = std::max(worst, std::fabs(back[i] - values[i]));
            QVERIFY2(worst <= tolerance * scale,
                     qPrintable(QStringLiteral("scale %1: error %2").arg(scale).arg(worst)));
        }
        // All zeros stay zeros.
        const std::vector<float> zeros(256, 0.0f);
        const auto blocks = test::quantize(type, zeros);
        std::vector<float> back(zeros.size(), 1.0f);
        dequantizeRow(type, blocks.data(), back.data(), back.size());
        for (const float v : back)
            QCOMPARE(v, 0.0f);
    }
};

QTEST_GUILESS_MAIN(TestGgufDequantize)
#include "tst_gguf_dequantize.moc"
