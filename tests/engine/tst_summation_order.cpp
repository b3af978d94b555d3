// The summation-order lab's engine: the lesson's float64 examples (against lesson-golden.json),
// bfloat16 / float16 rounding against known bit patterns (ties to even, overflow, subnormals),
// the exact sum and Kahan / Neumaier on known hard cases, each order on small inputs whose
// results can be worked out by hand, and shuffles that depend on their seed only.
#include "engine/experiments/summation_lesson.h"
#include "engine/experiments/summation_methods.h"
#include "engine/experiments/summation_order.h"
#include "engine/experiments/summation_terms.h"
#include "engine/kernels/float_formats.h"
#include "engine/stats/exact_sum.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>
#include <set>
#include <vector>

using namespace logitlab::engine;

Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(logitlab::engine::FloatFormat)
Q_DECLARE_METATYPE(logitlab::engine::SumMethod)
Q_DECLARE_METATYPE(logitlab::engine::TermDistribution)

namespace {

const double kInf = std::numeric_limits<double>::infinity();
double p2(int e) { return std::ldexp(1.0, e); }

}  // namespace

class TestSummationOrder : public QObject {
    Q_OBJECT

private slots:
    // The lesson's four evaluations, in its order, with the values its own code printed.
    void lessonValuesMatchTheGolden()
    {
        const QJsonArray golden = logitlab::test::lessonGolden().value(QStringLiteral("float_order")).toArray();
        const auto sums = lessonSums();
        QCOMPARE(golden.size(), qsizetype(sums.size()));
        for (qsizetype i = 0; i < golden.size(); ++i) {
            const QJsonObject g = golden[i].toObject();
            QCOMPARE(sums[static_cast<std::size_t>(i)].value, g.value(QStringLiteral("value")).toDouble());
            if (g.contains(QStringLiteral("repr")))
                QCOMPARE(QString::fromStdString(sums[static_cast<std::size_t>(i)].shortest),
                         g.value(QStringLiteral("repr")).toString());
            QVERIFY(!sums[static_cast<std::size_t>(i)].explanation.empty());
        }
    }

    void lessonBits_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("bits");
        QTest::newRow("(0.1 + 1e20) - 1e20") << 0 << QStringLiteral("0x0000000000000000");
        QTest::newRow("0.1 + (1e20 - 1e20)") << 1 << QStringLiteral("0x3fb999999999999a");
        QTest::newRow("(0.1 + 0.2) + 0.3") << 2 << QStringLiteral("0x3fe3333333333334");
        QTest::newRow("0.1 + (0.2 + 0.3)") << 3 << QStringLiteral("0x3fe3333333333333");
    }
    void lessonBits()
    {
        QFETCH(int, index);
        QFETCH(QString, bits);
        QCOMPARE(QString::fromStdString(lessonSums()[static_cast<std::size_t>(index)].bits), bits);
    }

    void bfloat16Bits_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("bits");
        QTest::newRow("one") << 1.0 << 0x3f80;
        QTest::newRow("tie to even, down") << 1.0 + p2(-8) << 0x3f80;
        QTest::newRow("tie to even, up") << 1.0 + 3 * p2(-8) << 0x3f82;
        QTest::newRow("just above the tie") << 1.0 + p2(-8) + p2(-30) << 0x3f81;
        QTest::newRow("minus two") << -2.0 << 0xc000;
        QTest::newRow("negative zero") << -0.0 << 0x8000;
        QTest::newRow("largest finite") << 255.0 * p2(120) << 0x7f7f;
        QTest::newRow("rounds to largest") << 255.0 * p2(120) + p2(118) << 0x7f7f;
        QTest::newRow("overflow at the tie") << 255.5 * p2(120) << 0x7f80;
        QTest::newRow("float max overflows") << 3.4028234663852886e38 << 0x7f80;
        QTest::newRow("minus infinity") << -kInf << 0xff80;
        QTest::newRow("smallest subnormal") << p2(-133) << 0x0001;
        QTest::newRow("half of it ties to zero") << p2(-134) << 0x0000;
        QTest::newRow("1.5 of it ties to 2") << 1.5 * p2(-133) << 0x0002;
        QTest::newRow("largest subnormal") << 127.0 * p2(-133) << 0x007f;
        QTest::newRow("smallest normal") << p2(-126) << 0x0080;
        QTest::newRow("double rounding avoided") << 1.0 + p2(-8) + p2(-40) << 0x3f81;
    }
    void bfloat16Bits()
    {
        QFETCH(double, value);
        QFETCH(int, bits);
        QCOMPARE(int(toBFloat16Bits(value)), bits);
        const double back = fromBFloat16Bits(static_cast<std::uint16_t>(bits));
        QCOMPARE(roundTo(FloatFormat::BFloat16, value), back);
        QCOMPARE(int(toBFloat16Bits(back)), bits);
    }

    void float16Bits_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("bits");
        QTest::newRow("one") << 1.0 << 0x3c00;
        QTest::newRow("0.1") << 0.1 << 0x2e66;
        QTest::newRow("tie to even, down") << 1.0 + p2(-11) << 0x3c00;
        QTest::newRow("tie to even, up") << 1.0 + 3 * p2(-11) << 0x3c02;
        QTest::newRow("largest finite") << 65504.0 << 0x7bff;
        QTest::newRow("below the overflow tie") << 65519.99 << 0x7bff;
        QTest::newRow("overflow at the tie") << 65520.0 << 0x7c00;
        QTest::newRow("negative overflow") << -1e6 << 0xfc00;
        QTest::newRow("smallest subnormal") << p2(-24) << 0x0001;
        QTest::newRow("half of it ties to zero") << p2(-25) << 0x0000;
        QTest::newRow("1.5 of it ties to 2") << 3 * p2(-25) << 0x0002;
        QTest::newRow("just above half rounds up") << p2(-25) + p2(-40) << 0x0001;
        QTest::newRow("largest subnormal") << 1023 * p2(-24) << 0x03ff;
        QTest::newRow("smallest normal") << p2(-14) << 0x0400;
        QTest::newRow("negative subnormal") << -5 * p2(-24) << 0x8005;
    }
    void float16Bits()
    {
        QFETCH(double, value);
        QFETCH(int, bits);
        QCOMPARE(int(toFloat16Bits(value)), bits);
        const double back = fromFloat16Bits(static_cast<std::uint16_t>(bits));
        QCOMPARE(roundTo(FloatFormat::Float16, value), back);
        QCOMPARE(int(toFloat16Bits(back)), bits);
    }

    void ordinalsCountUlps_data()
    {
        QTest::addColumn<FloatFormat>("format");
        QTest::addColumn<double>("a");
        QTest::addColumn<double>("b");
        QTest::addColumn<qint64>("ulps");
        QTest::newRow("float32 next after 1") << FloatFormat::Float32 << 1.0 + p2(-23) << 1.0 << qint64(1);
        QTest::newRow("float32 across a binade") << FloatFormat::Float32 << 1.0 + p2(-23) << 1.0 - p2(-24) << qint64(2);
        QTest::newRow("float64 0.6 pair") << FloatFormat::Float64 << 0.6000000000000001 << 0.6 << qint64(1);
        QTest::newRow("f16 across zero") << FloatFormat::Float16 << p2(-24) << -p2(-24) << qint64(2);
        QTest::newRow("bf16 zeros") << FloatFormat::BFloat16 << 0.0 << -0.0 << qint64(0);
    }
    void ordinalsCountUlps()
    {
        QFETCH(FloatFormat, format);
        QFETCH(double, a);
        QFETCH(double, b);
        QFETCH(qint64, ulps);
        QCOMPARE(ordinalOf(format, a) - ordinalOf(format, b), ulps);
    }

    void exactSum_data()
    {
        QTest::addColumn<std::vector<double>>("terms");
        QTest::addColumn<FloatFormat>("format");
        QTest::addColumn<double>("expected");
        QTest::newRow("ones around 1e100") << std::vector<double>{1, 1e100, 1, -1e100} << FloatFormat::Float64 << 2.0;
        QTest::newRow("0.1 + 0.2 + 0.3") << std::vector<double>{0.1, 0.2, 0.3} << FloatFormat::Float64 << 0.6;
        QTest::newRow("past the double range and back")
            << std::vector<double>{1e308, 1e308, -1e308} << FloatFormat::Float64 << 1e308;
        QTest::newRow("overflow of the exact sum") << std::vector<double>{1e308, 1e308} << FloatFormat::Float64 << kInf;
        QTest::newRow("negative") << std::vector<double>{-1e-300, -3.0, 1e-300} << FloatFormat::Float64 << -3.0;
        QTest::newRow("subnormals") << std::vector<double>{p2(-1074), p2(-1074)} << FloatFormat::Float64 << p2(-1073);
        QTest::newRow("cancels to zero") << std::vector<double>{0.1, -0.1, 1e300, -1e300} << FloatFormat::Float64
                                         << 0.0;
        QTest::newRow("tie to even") << std::vector<double>{1, p2(-53)} << FloatFormat::Float64 << 1.0;
        QTest::newRow("far sticky bit breaks the tie")
            << std::vector<double>{1, p2(-53), p2(-1000)} << FloatFormat::Float64 << 1.0 + p2(-52);
        QTest::newRow("float32 tie") << std::vector<double>{1, p2(-24)} << FloatFormat::Float32 << 1.0;
        QTest::newRow("float32 above the tie")
            << std::vector<double>{1, p2(-24), p2(-70)} << FloatFormat::Float32 << 1.0 + p2(-23);
        QTest::newRow("bf16 overflow") << std::vector<double>{3e38, 3e38} << FloatFormat::BFloat16 << kInf;
        QTest::newRow("f16 rounding") << std::vector<double>{1000, 0.25, 0.25} << FloatFormat::Float16 << 1000.5;
        QTest::newRow("many small on one large")
            << std::vector<double>(1025, p2(-60)) << FloatFormat::Float64 << 1025 * p2(-60);
    }
    void exactSum()
    {
        QFETCH(std::vector<double>, terms);
        QFETCH(FloatFormat, format);
        QFETCH(double, expected);
        ExactSum sum;
        sum.add(terms);
        QCOMPARE(sum.rounded(format), expected);
        // The exact sum does not depend on the order.
        ExactSum reversed;
        for (auto it = terms.rbegin(); it != terms.rend(); ++it)
            reversed.add(*it);
        QCOMPARE(reversed.rounded(format), expected);
    }

    // Each order on inputs small enough to work out by hand. e = 2^-24 is half an ULP of 1 in
    // float32, so 1 + e ties to 1, and 1 + 3e ties up to 1 + 4e.
    void ordersByHand_data()
    {
        QTest::addColumn<std::vector<double>>("terms");
        QTest::addColumn<SumMethod>("method");
        QTest::addColumn<FloatFormat>("accumulator");
        QTest::addColumn<double>("expected");
        const double e = p2(-24);
        const std::vector<double> five{1, e, e, e, e};
        const auto f32 = FloatFormat::Float32;
        QTest::newRow("left to right loses every e") << five << SumMethod::LeftToRight << f32 << 1.0;
        QTest::newRow("reversed keeps them") << five << SumMethod::Reversed << f32 << 1.0 + 4 * e;
        QTest::newRow("ascending keeps them") << five << SumMethod::AscendingMagnitude << f32 << 1.0 + 4 * e;
        QTest::newRow("descending loses them") << five << SumMethod::DescendingMagnitude << f32 << 1.0;
        QTest::newRow("split 2: [1,e,e] + [e,e]") << five << SumMethod::Blocked << f32 << 1.0 + 2 * e;
        QTest::newRow("2 threads: [1,e] + [e,e,e]") << five << SumMethod::Threads << f32 << 1.0 + 4 * e;
        QTest::newRow("4 lanes: (1+e)+(e+e), then the tail e") << five << SumMethod::SimdLanes << f32 << 1.0 + 4 * e;
        QTest::newRow("kahan recovers them") << five << SumMethod::Kahan << f32 << 1.0 + 4 * e;
        QTest::newRow("neumaier recovers them") << five << SumMethod::Neumaier << f32 << 1.0 + 4 * e;
        QTest::newRow("exact") << five << SumMethod::Exact << f32 << 1.0 + 4 * e;
        QTest::newRow("pairwise below 8: plain loop") << five << SumMethod::Pairwise << f32 << 1.0;
        // Nine terms: r0..r7 = 1, e x 7; ((1+e)+(e+e)) + ((e+e)+(e+e)) = 1 + 6e; then + e ties up to 1 + 8e.
        QTest::newRow("pairwise 8 accumulators")
            << std::vector<double>{1, e, e, e, e, e, e, e, e} << SumMethod::Pairwise << f32 << 1.0 + 8 * e;
        QTest::newRow("kahan fails the hard case")
            << std::vector<double>{1, 1e100, 1, -1e100} << SumMethod::Kahan << FloatFormat::Float64 << 0.0;
        QTest::newRow("neumaier passes it")
            << std::vector<double>{1, 1e100, 1, -1e100} << SumMethod::Neumaier << FloatFormat::Float64 << 2.0;
        QTest::newRow("left to right on it")
            << std::vector<double>{1, 1e100, 1, -1e100} << SumMethod::LeftToRight << FloatFormat::Float64 << 0.0;
        QTest::newRow("reversed on it") << std::vector<double>{1, 1e100, 1, -1e100} << SumMethod::Reversed
                                        << FloatFormat::Float64 << 1.0;
        QTest::newRow("exact on it") << std::vector<double>{1, 1e100, 1, -1e100} << SumMethod::Exact
                                     << FloatFormat::Float64 << 2.0;
        // bf16 accumulator: 256 + 1 ties to 256 (8 bits), so ones vanish one by one.
        QTest::newRow("bf16 accumulator stalls at 256")
            << std::vector<double>(300, 1.0) << SumMethod::LeftToRight << FloatFormat::BFloat16 << 256.0;
        QTest::newRow("f16 accumulator stalls at 2048")
            << std::vector<double>(3000, 1.0) << SumMethod::LeftToRight << FloatFormat::Float16 << 2048.0;
        QTest::newRow("f16 accumulator overflows")
            << std::vector<double>(3, 30000.0) << SumMethod::LeftToRight << FloatFormat::Float16 << kInf;
        QTest::newRow("bf16 exact sum of 300 ones")
            << std::vector<double>(300, 1.0) << SumMethod::Exact << FloatFormat::BFloat16 << 300.0;
        QTest::newRow("empty") << std::vector<double>{} << SumMethod::LeftToRight << f32 << 0.0;
    }
    void ordersByHand()
    {
        QFETCH(std::vector<double>, terms);
        QFETCH(SumMethod, method);
        QFETCH(FloatFormat, accumulator);
        QFETCH(double, expected);
        SumShape shape;
        shape.split = 2;
        shape.lanes = 4;
        shape.threads = 2;
        QCOMPARE(sumInOrder(method, terms, accumulator, shape), expected);
    }

    void namesRoundTrip()
    {
        for (SumMethod m : allSumMethods())
            QCOMPARE(sumMethodFromName(sumMethodName(m)), std::optional<SumMethod>(m));
        QCOMPARE(sumMethodFromName("fastest"), std::nullopt);
        for (const auto& name : floatFormatNames())
            QCOMPARE(floatFormatName(*floatFormatFromName(name)), std::string_view(name));
        QCOMPARE(floatFormatFromName("float8"), std::nullopt);
    }

    // Three terms have six orders and two results; 60 shuffles find both, and only those.
    void shufflesOfTheLessonTerms()
    {
        const std::vector<double> terms{0.1, 0.2, 0.3};
        std::vector<double> scratch;
        std::set<double> seen;
        for (std::uint64_t seed = 0; seed < 60; ++seed)
            seen.insert(shuffledSum(std::span<const double>(terms), FloatFormat::Float64, seed, scratch));
        QCOMPARE(seen, (std::set<double>{0.6, 0.6000000000000001}));
    }

    // A shuffle depends on its seed and the terms only, not on what its scratch held before.
    void shuffleDependsOnItsSeedOnly()
    {
        const std::vector<double> wide = generateTerms(TermDistribution::Normal, 1000, 1.0, 5);
        const std::vector<float> terms(wide.begin(), wide.end());
        std::vector<float> a, b;
        const double first = shuffledSum(std::span<const float>(terms), FloatFormat::Float32, 11, a);
        shuffledSum(std::span<const float>(terms), FloatFormat::Float32, 12, b);
        QCOMPARE(shuffledSum(std::span<const float>(terms), FloatFormat::Float32, 11, b), first);
    }

    // Work items in any order and on any scratch give the same summary: what makes the results
    // the same for any thread count.
    void itemsAreIndependent()
    {
        SummationParameters p;
        p.n = 2000;
        p.shuffles = 50;
        p.spreadMaxN = 1000;
        p.spreadTerms = 20000;
        const auto experiment = SummationExperiment::prepare(p);
        QVERIFY(experiment);
        const std::size_t count = experiment->itemCount();
        QCOMPARE(count, p.methods.size() + 50 + 200 + 20);
        std::vector<double> forward(count), backward(count);
        SummationExperiment::Scratch one, two, three;
        for (std::size_t i = 0; i < count; ++i)
            forward[i] = experiment->runItem(i, one);
        for (std::size_t i = count; i-- > 0;)
            backward[i] = experiment->runItem(i, (i % 2) ? two : three);
        QCOMPARE(forward, backward);
        const SummationSummary s = experiment->summarize(forward);
        QCOMPARE(s.terms, qint64(2000));
        QCOMPARE(s.spread.size(), std::size_t{2});
        QVERIFY(s.distinctShuffles > 1);
        for (const auto& row : s.methods) {
            if (row.method == "exact")
                QCOMPARE(row.ulps, qint64(0));
            if (row.method == "neumaier")  // compensated: within an ULP, not always exact
                QVERIFY(std::abs(row.ulps) <= 1);
        }
        std::int64_t histogramTotal = 0;
        for (const auto& bin : s.histogram)
            histogramTotal += bin.count;
        QCOMPARE(histogramTotal, qint64(50));
    }

    void badParameters_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("n = 0") << 0 << QStringLiteral("n: must be 1..10,000,000");
        QTest::newRow("lanes not a power of two") << 1 << QStringLiteral("lanes: must be a power of two, 1..256");
        QTest::newRow("spread not a power of ten")
            << 2 << QStringLiteral("spread.max_n: must be 0 or a power of ten in 100..10,000,000");
        QTest::newRow("term overflows f16")
            << 3 << QStringLiteral("terms: term 2 (70000) overflows f16 (largest finite 65504)");
    }
    void badParameters()
    {
        QFETCH(int, which);
        QFETCH(QString, message);
        SummationParameters p;
        switch (which) {
        case 0:
            p.n = 0;
            break;
        case 1:
            p.shape.lanes = 6;
            break;
        case 2:
            p.spreadMaxN = 500;
            break;
        default:
            p.distribution = TermDistribution::List;
            p.listed = {1.0, 70000.0};
            p.storage = FloatFormat::Float16;
        }
        const auto experiment = SummationExperiment::prepare(p);
        QVERIFY(!experiment);
        QCOMPARE(QString::fromStdString(experiment.error()), message);
    }

    void termsText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("result");
        QTest::newRow("one per line") << QStringLiteral("1\n2.5\n# note\n\n-3\n") << QStringLiteral("1,2.5,-3");
        QTest::newRow("CRLF lines") << QStringLiteral("1\r\n 2 \r\n") << QStringLiteral("1,2");
        QTest::newRow("pasted with commas") << QStringLiteral("0.1, 0.2, 0.3") << QStringLiteral("0.1,0.2,0.3");
        QTest::newRow("NaN") << QStringLiteral("1\nnan\n")
                             << QStringLiteral("t.txt:2: 'nan' is not finite; terms must be finite numbers");
        QTest::newRow("infinity") << QStringLiteral("inf")
                                  << QStringLiteral("t.txt:1: 'inf' is not finite; terms must be finite numbers");
        QTest::newRow("word") << QStringLiteral("1\n2\nthree") << QStringLiteral("t.txt:3: 'three' is not a number");
        QTest::newRow("empty") << QStringLiteral("# nothing\n")
                               << QStringLiteral("t.txt: no terms (one number per line)");
    }
    void termsText()
    {
        QFETCH(QString, text);
        QFETCH(QString, result);
        const auto terms = parseTermsText(text.toStdString(), "t.txt");
        if (!terms) {
            QCOMPARE(QString::fromStdString(terms.error()), result);
            return;
        }
        QStringList values;
        for (double v : terms.value())
            values << QString::number(v);
        QCOMPARE(values.join(QLatin1Char(',')), result);
    }

    void generatorsAreSeeded_data()
    {
        QTest::addColumn<TermDistribution>("distribution");
        QTest::newRow("normal") << TermDistribution::Normal;
        QTest::newRow("uniform") << TermDistribution::Uniform;
        QTest::newRow("cauchy") << TermDistribution::Cauchy;
        QTest::newRow("mixed") << TermDistribution::Mixed;
    }
    void generatorsAreSeeded()
    {
        QFETCH(TermDistribution, distribution);
        const auto a = generateTerms(distribution, 500, 2.0, 9);
        QCOMPARE(generateTerms(distribution, 500, 2.0, 9), a);
        QVERIFY(generateTerms(distribution, 500, 2.0, 10) != a);
        for (double x : a)
            QVERIFY(std::isfinite(x));
    }
};

QTEST_APPLESS_MAIN(TestSummationOrder)
#include "tst_summation_order.moc"
