// fdlibmExp() against JavaScript's Math.exp run in node, bit for bit, on millions of arguments
// over the whole range (tests/support/exp_arguments.h), and the SSE2 / AVX2 paths against the scalar on
// every lane.
#include "engine/kernels/fdlibm_exp.h"
#include "engine/kernels/lesson_exp_sum.h"
#include "engine/rng/mulberry32.h"
#include "support/exp_arguments.h"
#include "support/same_bits.h"
#include "support/test_support.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>

using namespace logitlab::engine;
using logitlab::test::expArguments;

namespace {

constexpr std::size_t kCount = 4'000'000;

// fdlibm and glibc may give NaNs of other payloads: any NaN matches any NaN here.
bool sameBits(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return logitlab::test::sameBits(a, b);
}

QString describe(double x)
{
    return QStringLiteral("%1 (0x%2)")
        .arg(x, 0, 'g', 17)
        .arg(std::bit_cast<std::uint64_t>(x), 16, 16, QLatin1Char('0'));
}

// The first few mismatches, for a readable failure.
QString mismatches(const std::vector<double>& args, const double* expected, const double* actual, int* count)
{
    QString text;
    *count = 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (sameBits(expected[i], actual[i]))
            continue;
        if (++*count <= 5)
            text += QStringLiteral("\n  exp(%1): expected %2, got %3")
                        .arg(describe(args[i]), describe(expected[i]), describe(actual[i]));
    }
    return text;
}

}  // namespace

class TestFdlibmExp : public QObject {
    Q_OBJECT
private slots:
    void knownValues_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("expected");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("0") << 0.0 << 1.0;
        QTest::newRow("-0") << -0.0 << 1.0;
        QTest::newRow("1 is e") << 1.0 << 2.718281828459045;
        QTest::newRow("+inf") << inf << inf;
        QTest::newRow("-inf") << -inf << 0.0;
        QTest::newRow("overflow") << 710.0 << inf;
        QTest::newRow("underflow") << -746.0 << 0.0;
        QTest::newRow("smallest denormal") << -745.0 << 4.9406564584124654e-324;
        // Math.exp(-1) in node: glibc's exp gives the same here, fdlibm and glibc differ elsewhere.
        QTest::newRow("-1") << -1.0 << 0.36787944117144233;
        QTest::newRow("tiny") << 1e-300 << 1.0;
    }

    void knownValues()
    {
        QFETCH(double, x);
        QFETCH(double, expected);
        QCOMPARE(fdlibmExp(x), expected);
        QVERIFY(std::isnan(fdlibmExp(std::numeric_limits<double>::quiet_NaN())));
    }

    void scalarMatchesNodeMathExp()
    {
        if (logitlab::test::nodeExecutable().isEmpty())
            QSKIP("node is not installed (scripts/setup.sh installs Debian's nodejs): "
                  "cannot compare with JavaScript's Math.exp");
        constexpr std::uint32_t seed = 20261130;
        QString error;
        const QByteArray bytes = logitlab::test::runNodeScript(
            QStringLiteral("math_exp_bits.js"), {QString::number(kCount), QString::number(seed)}, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(static_cast<std::size_t>(bytes.size()), kCount * sizeof(double));
        std::vector<double> node(kCount);
        std::memcpy(node.data(), bytes.constData(), bytes.size());

        const std::vector<double> args = expArguments(kCount, seed);
        std::vector<double> ours(kCount);
        for (std::size_t i = 0; i < kCount; ++i)
            ours[i] = fdlibmExp(args[i]);
        int count = 0;
        const QString text = mismatches(args, node.data(), ours.data(), &count);
        QVERIFY2(count == 0,
                 qPrintable(QStringLiteral("%1 of %2 differ from Math.exp:%3").arg(count).arg(kCount).arg(text)));
    }

    void everyPathMatchesTheScalar_data()
    {
        QTest::addColumn<ExpPath>("path");
        QTest::newRow("scalar") << ExpPath::Scalar;
        QTest::newRow("sse2") << ExpPath::Sse2;
        QTest::newRow("avx2") << ExpPath::Avx2;
        QTest::newRow("auto") << ExpPath::Auto;
    }

    void everyPathMatchesTheScalar()
    {
        QFETCH(ExpPath, path);
        if (!expPathAvailable(path))
            QSKIP("this processor has no AVX2");
        // expArguments() mixes its kinds within every group of eight, so no group of lanes is all
        // plain there; a quarter of arguments in [-708, 709] takes the AVX2 path's plain lanes.
        std::vector<double> args = expArguments(kCount, 7);
        Mulberry32 rng(11);
        for (std::size_t i = 0; i < kCount / 4; ++i)
            args[i] = -708.0 + 1417.0 * rng.nextDouble();
        std::vector<double> expected(kCount);
        for (std::size_t i = 0; i < kCount; ++i)
            expected[i] = fdlibmExp(args[i]);
        // Every start offset and a length that is no multiple of the width: lanes and tails.
        for (std::size_t start = 0; start < 4; ++start) {
            const std::size_t n = kCount - start - 1;
            std::vector<double> out(n);
            fdlibmExpArray(args.data() + start, out.data(), n, path);
            int count = 0;
            const std::vector<double> slice(args.begin() + static_cast<std::ptrdiff_t>(start),
                                            args.begin() + static_cast<std::ptrdiff_t>(start + n));
            const QString text = mismatches(slice, expected.data() + start, out.data(), &count);
            QVERIFY2(
                count == 0,
                qPrintable(
                    QStringLiteral("start %1: %2 lanes differ from the scalar:%3").arg(start).arg(count).arg(text)));
        }
    }

    // The lesson's softmax loop (l / T - max, exp, id-order sum) on each path: the same exps and
    // the same sum, for double and float32 logits, any length (tails) and temperatures that send
    // lanes into every band (T = 0.01 pushes most of them into denormal results and underflow).
    void softmaxLoopPathsAgree_data()
    {
        QTest::addColumn<ExpPath>("path");
        QTest::addColumn<double>("temperature");
        // T = 1 is a power of two, whose division the loops do as a multiplication.
        for (const double t : {0.01, 0.7, 5.0, 1.0}) {
            const QByteArray suffix = " T=" + QByteArray::number(t);
            QTest::newRow("sse2" + suffix) << ExpPath::Sse2 << t;
            QTest::newRow("avx2" + suffix) << ExpPath::Avx2 << t;
            QTest::newRow("avx2 without FMA" + suffix) << ExpPath::Avx2WithoutFma << t;
        }
    }

    void softmaxLoopPathsAgree()
    {
        QFETCH(ExpPath, path);
        QFETCH(double, temperature);
        if (!expPathAvailable(path))
            QSKIP("this processor has no AVX2");
        std::mt19937 gen(3);
        std::normal_distribution<float> normal(0.0f, 2.5f);
        for (const std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{131071}}) {
            std::vector<float> f(n);
            for (float& v : f)
                v = normal(gen);
            const std::vector<double> d(f.begin(), f.end());
            const double maxScaled = static_cast<double>(*std::max_element(f.begin(), f.end())) / temperature;
            std::vector<double> expected(n), fromDouble(n), fromFloat(n);
            const double sum =
                detail::lessonExpSum(d.data(), n, temperature, maxScaled, expected.data(), ExpPath::Scalar);
            QVERIFY(sameBits(detail::lessonExpSum(d.data(), n, temperature, maxScaled, fromDouble.data(), path), sum));
            QVERIFY(sameBits(detail::lessonExpSum(f.data(), n, temperature, maxScaled, fromFloat.data(), path), sum));
            for (std::size_t i = 0; i < n; ++i) {
                QVERIFY2(sameBits(fromDouble[i], expected[i]), qPrintable(describe(d[i])));
                QVERIFY2(sameBits(fromFloat[i], expected[i]), qPrintable(describe(d[i])));
                // ... and the scalar loop is exp(l / T - max) itself.
                QVERIFY(sameBits(expected[i], fdlibmExp(d[i] / temperature - maxScaled)));
            }
        }
    }

    // With a sample array, every path copies out[0], out[16], ... into it (candidates() guesses its
    // cut from them), for every length, whole chunks or not, and writes nothing past the last.
    void softmaxLoopSamplesEverySixteenth_data()
    {
        QTest::addColumn<ExpPath>("path");
        QTest::newRow("scalar") << ExpPath::Scalar;
        QTest::newRow("sse2") << ExpPath::Sse2;
        QTest::newRow("avx2") << ExpPath::Avx2;
        QTest::newRow("avx2 without FMA") << ExpPath::Avx2WithoutFma;
    }

    void softmaxLoopSamplesEverySixteenth()
    {
        QFETCH(ExpPath, path);
        if (!expPathAvailable(path))
            QSKIP("this processor has no AVX2");
        std::mt19937 gen(5);
        std::normal_distribution<float> normal(0.0f, 2.5f);
        for (const std::size_t n : {1, 15, 16, 17, 63, 64, 65, 72, 1000, 131071}) {
            std::vector<float> f(n);
            for (float& v : f)
                v = normal(gen);
            const double maxScaled = static_cast<double>(*std::max_element(f.begin(), f.end())) / 0.7;
            const std::size_t count = (n + detail::kExpSampleStride - 1) / detail::kExpSampleStride;
            std::vector<double> out(n), sample(count + 1, -1.0);  // one sentinel past the end
            const double sum = detail::lessonExpSum(f.data(), n, 0.7, maxScaled, out.data(), path, sample.data());
            std::vector<double> plain(n);
            QVERIFY(sameBits(detail::lessonExpSum(f.data(), n, 0.7, maxScaled, plain.data(), path), sum));
            for (std::size_t j = 0; j < count; ++j)
                QVERIFY2(sameBits(sample[j], out[j * detail::kExpSampleStride]),
                         qPrintable(QStringLiteral("n=%1 j=%2").arg(n).arg(j)));
            QCOMPARE(sample[count], -1.0);
        }
    }

    // The AVX2 loop takes a chunk of 64 logits on its plain path when every lane's x lies in
    // -708 <= x <= -1.5 ln2 (fdlibm's middle band ends at the double whose high word is
    // 0x3FF0A2B2), read off the chunk's smallest and largest logits against the logits of those
    // bounds; a chunk with one lane a step beyond, a denormal result or a NaN takes the full one.
    // Chunks built on those bounds agree with the scalar: at T = 1 with a 0 logit, so that x = l,
    // and at T = 0.7 with a max of 3.5, where the logits of the bounds are found by search.
    // x = -2.845282178285025e-9 is in fdlibm's tiny band (1 + x), where the plain path's formula
    // gives another last bit: a chunk holding it must not pass as plain.
    void softmaxLoopAtThePlainBounds_data()
    {
        QTest::addColumn<ExpPath>("path");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("maxLogit");
        for (const auto& [t, max] : {std::pair{1.0, 0.0}, std::pair{0.7, 3.5}}) {
            const QByteArray suffix = " T=" + QByteArray::number(t);
            QTest::newRow("sse2" + suffix) << ExpPath::Sse2 << t << max;
            QTest::newRow("avx2" + suffix) << ExpPath::Avx2 << t << max;
            QTest::newRow("avx2 without FMA" + suffix) << ExpPath::Avx2WithoutFma << t << max;
        }
    }

    void softmaxLoopAtThePlainBounds()
    {
        QFETCH(ExpPath, path);
        QFETCH(double, temperature);
        QFETCH(double, maxLogit);
        if (!expPathAvailable(path))
            QSKIP("this processor has no AVX2");
        const double band = std::bit_cast<double>(std::uint64_t{0x3FF0A2B2} << 32);
        const double inf = std::numeric_limits<double>::infinity();
        const double maxScaled = maxLogit / temperature;
        const auto logitOf = [&](double x) { return (x + maxScaled) * temperature; };  // x within an ulp or so
        const std::vector<double> edges{-708.0,
                                        std::nextafter(-708.0, -inf),
                                        -745.0,
                                        -band,
                                        std::nextafter(-band, inf),
                                        -2.845282178285025e-9,
                                        std::numeric_limits<double>::quiet_NaN()};
        std::vector<double> logits(64, logitOf(-3.0));
        logits[5] = maxLogit;  // the max, in a chunk of its own
        for (const double edge : edges) {
            for (const int lane : {0, 37, 63}) {
                std::vector<double> chunk(64, logitOf(edge == -708.0 || edge == -band ? edge : -2.0));
                chunk[static_cast<std::size_t>(lane)] = logitOf(edge);
                logits.insert(logits.end(), chunk.begin(), chunk.end());
            }
        }
        const std::size_t n = logits.size();
        std::vector<double> expected(n), out(n);
        const double sum =
            detail::lessonExpSum(logits.data(), n, temperature, maxScaled, expected.data(), ExpPath::Scalar);
        QVERIFY(sameBits(detail::lessonExpSum(logits.data(), n, temperature, maxScaled, out.data(), path), sum));
        for (std::size_t i = 0; i < n; ++i)
            QVERIFY2(sameBits(out[i], expected[i]), qPrintable(describe(logits[i])));
        // The same chunks as float logits. A NaN lane drops out of the chunk's minimum and maximum,
        // so its chunk may take the plain path: its exp and the sum must still be NaN.
        const std::vector<float> floats(logits.begin(), logits.end());
        const double floatSum =
            detail::lessonExpSum(floats.data(), n, temperature, maxScaled, expected.data(), ExpPath::Scalar);
        QVERIFY(std::isnan(floatSum));
        QVERIFY(sameBits(detail::lessonExpSum(floats.data(), n, temperature, maxScaled, out.data(), path), floatSum));
        for (std::size_t i = 0; i < n; ++i)
            QVERIFY2(sameBits(out[i], expected[i]), qPrintable(describe(floats[i])));
        // Without the NaN chunks every exp is a number, and the sums agree bit for bit.
        const std::size_t numbers = n - 3 * 64;
        const double numberSum =
            detail::lessonExpSum(floats.data(), numbers, temperature, maxScaled, expected.data(), ExpPath::Scalar);
        QVERIFY(!std::isnan(numberSum));
        QVERIFY(sameBits(detail::lessonExpSum(floats.data(), numbers, temperature, maxScaled, out.data(), path),
                         numberSum));
    }

    // fdlibm's k = (int)(x / ln2 - 0.5) rounds x / ln2 and then the subtraction; the AVX2 loop,
    // where the processor has FMA, rounds once (lesson_exp_sum.cpp, reducePlain, says why k is the
    // same). Where it could differ is where x / ln2 - 0.5 lies within an ulp or two of a whole
    // number: here, the 33 doubles around (n + 0.5) ln2 for every n of the plain band, -1021 to
    // -2 (which holds x / ln2 near -2^j + 0.5, where x / ln2 - 0.5 crosses a binade), at T = 1 with
    // a 0 logit, so x = l. Both AVX2 loops give the scalar's bits.
    void softmaxLoopAtTheReductionBoundaries_data()
    {
        QTest::addColumn<ExpPath>("path");
        QTest::newRow("avx2") << ExpPath::Avx2;
        QTest::newRow("avx2 without FMA") << ExpPath::Avx2WithoutFma;
    }

    void softmaxLoopAtTheReductionBoundaries()
    {
        QFETCH(ExpPath, path);
        if (!expPathAvailable(path))
            QSKIP("this processor has no AVX2");
        constexpr double kInvLn2 = 1.44269504088896338700e+00;  // fdlibm's
        const double inf = std::numeric_limits<double>::infinity();
        std::vector<double> logits(64, -3.0);
        logits[5] = 0.0;    // the max, in a chunk of its own
        int onTheEdge = 0;  // lanes whose fdlibm z = x / ln2 - 0.5 is within two ulps of a whole number
        for (int n = -1021; n <= -2; ++n) {
            double x = (n + 0.5) / kInvLn2;
            for (int step = 0; step < 16; ++step)
                x = std::nextafter(x, inf);
            for (int step = 0; step < 33; ++step, x = std::nextafter(x, -inf)) {
                logits.push_back(x);
                const double z = kInvLn2 * x + -0.5;
                onTheEdge +=
                    std::abs(z - std::round(z)) <= 2.0 * (std::nextafter(std::abs(z), inf) - std::abs(z)) ? 1 : 0;
            }
        }
        QVERIFY2(onTheEdge > 1000, qPrintable(QString::number(onTheEdge)));
        const std::size_t n = logits.size();
        std::vector<double> expected(n), out(n);
        const double sum = detail::lessonExpSum(logits.data(), n, 1.0, 0.0, expected.data(), ExpPath::Scalar);
        QVERIFY(sameBits(detail::lessonExpSum(logits.data(), n, 1.0, 0.0, out.data(), path), sum));
        for (std::size_t i = 0; i < n; ++i)
            QVERIFY2(sameBits(out[i], expected[i]), qPrintable(describe(logits[i])));
    }

    // Where the processor has FMA, the AVX2 loop scales l / T by Markstein's quotient
    // (constant_quotient.h), exact for 2^-900 <= |l| <= 2^900. Plain chunks holding zeros, tiny
    // and denormal logits (whose quotient's residual underflows) still give the scalar's bits, at
    // temperatures near both ends of the divisor's range and in between.
    void softmaxLoopScalesTinyLogitsExactly_data()
    {
        QTest::addColumn<double>("temperature");
        QTest::newRow("T=0.7") << 0.7;
        QTest::newRow("T=0.05") << 0.05;
        QTest::newRow("T=3") << 3.0;
    }

    void softmaxLoopScalesTinyLogitsExactly()
    {
        QFETCH(double, temperature);
        if (!expPathAvailable(ExpPath::Avx2))
            QSKIP("this processor has no AVX2");
        const std::vector<double> tiny{0.0, -0.0, 1e-300, -1e-300, 4.9e-324, -4.9e-324, 0x1p-901, -0x1p-1000};
        std::vector<double> logits(64 * 8);
        std::mt19937 gen(5);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (std::size_t i = 0; i < logits.size(); ++i)
            logits[i] = i % 7 == 3 ? tiny[(i / 7) % tiny.size()] : uniform(gen);
        logits[1] = 1.0 + 3.0 * temperature;  // the max: every other x is below -3
        const double maxScaled = logits[1] / temperature;
        const std::size_t n = logits.size();
        std::vector<double> expected(n), out(n);
        const double sum =
            detail::lessonExpSum(logits.data(), n, temperature, maxScaled, expected.data(), ExpPath::Scalar);
        QVERIFY(
            sameBits(detail::lessonExpSum(logits.data(), n, temperature, maxScaled, out.data(), ExpPath::Avx2), sum));
        for (std::size_t i = 0; i < n; ++i)
            QVERIFY2(sameBits(out[i], expected[i]), qPrintable(describe(logits[i])));
    }

    void inPlace()
    {
        std::vector<double> values{-1.0, -2.5, 0.0, -700.0, -740.0, -800.0, 3.0};
        std::vector<double> expected;
        for (double v : values)
            expected.push_back(fdlibmExp(v));
        fdlibmExpArray(values.data(), values.data(), values.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            QVERIFY(sameBits(values[i], expected[i]));
    }
};

QTEST_APPLESS_MAIN(TestFdlibmExp)
#include "tst_fdlibm_exp.moc"
