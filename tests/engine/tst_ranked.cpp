// The pieces candidates() ranks with (src/engine/kernels/ranked.h): the gather of every id at or above a
// threshold on each instruction set, from the values or by their float32 logits, and the radix
// sort, against plain loops and std::stable_sort.
#include "engine/kernels/lesson_exp_sum.h"
#include "engine/kernels/ranked.h"

#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <vector>

using namespace logitlab::engine::detail;

namespace {

enum class Values { Exps, FewDistinct, ZerosAndDenormals, AllEqual, CloseTogether, ClusterAndOutliers };

// Exps of normal logits (the usual input), values with many exact ties, values with +0 and
// denormals mixed in, one value throughout, or values that differ only in their low bits (one
// long run for the sort's passes over the high bytes, as a flat distribution gives), or such a
// cluster with a few values far above it (the sort's buckets span them, so the cluster's values
// crowd into one bucket, too many for an insertion sort).
std::vector<double> makeValues(Values kind, int n, unsigned seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, 3.5);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) {
        switch (kind) {
        case Values::Exps:
            x = std::exp(std::min(0.0, normal(gen) - 9.0));
            break;
        case Values::FewDistinct:
            x = 0.125 * static_cast<double>(gen() % 5);
            break;
        case Values::ZerosAndDenormals: {
            const unsigned pick = gen() % 4;
            x = pick == 0   ? 0.0
                : pick == 1 ? std::bit_cast<double>(std::uint64_t{gen() % 1000 + 1})
                            : std::exp(normal(gen) - 9.0);
            break;
        }
        case Values::AllEqual:
            x = 0.25;
            break;
        case Values::CloseTogether:
            x = std::bit_cast<double>(std::bit_cast<std::uint64_t>(1e-5) + gen() % 100000);
            break;
        case Values::ClusterAndOutliers:
            x = gen() % 50 == 0 ? 0.5 + 0.01 * static_cast<double>(gen() % 7)
                                : std::bit_cast<double>(std::bit_cast<std::uint64_t>(1e-5) + gen() % 100000);
            break;
        }
    }
    return v;
}

bool same(const std::vector<Ranked>& a, const std::vector<Ranked>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Ranked& x, const Ranked& y) {
        return std::bit_cast<std::uint64_t>(x.p) == std::bit_cast<std::uint64_t>(y.p) && x.id == y.id;
    });
}

}  // namespace

Q_DECLARE_METATYPE(Values)

class TestRanked : public QObject {
    Q_OBJECT

private slots:
    void sortRankedEqualsAStableSort_data()
    {
        QTest::addColumn<Values>("kind");
        QTest::addColumn<int>("size");
        // Sizes on both sides of the comparison-sort cutoff, and a whole vocabulary.
        for (int n : {0, 1, 2, 63, 64, 65, 3000, 128256}) {
            QTest::addRow("exps, %d", n) << Values::Exps << n;
            QTest::addRow("few distinct values (ties), %d", n) << Values::FewDistinct << n;
            QTest::addRow("zeros and denormals, %d", n) << Values::ZerosAndDenormals << n;
            QTest::addRow("all equal, %d", n) << Values::AllEqual << n;
            QTest::addRow("close together, %d", n) << Values::CloseTogether << n;
            QTest::addRow("a cluster and outliers, %d", n) << Values::ClusterAndOutliers << n;
        }
    }

    void sortRankedEqualsAStableSort()
    {
        QFETCH(Values, kind);
        QFETCH(int, size);
        const std::vector<double> values = makeValues(kind, size, 7);
        std::vector<Ranked> items;
        for (int i = 0; i < size; ++i)
            items.emplace_back(values[static_cast<std::size_t>(i)], i);
        std::vector<Ranked> expected = items;
        std::stable_sort(expected.begin(), expected.end(), [](const Ranked& a, const Ranked& b) { return a.p > b.p; });
        std::vector<Ranked> scratch(5, Ranked{9.0, -1});  // stale contents must not leak in
        sortRanked(items, scratch);
        QVERIFY(same(items, expected));
        QVERIFY(std::is_sorted(items.begin(), items.end(), rankedBefore));
    }

    void gatherAtLeastKeepsEveryIdAtTheThreshold_data()
    {
        QTest::addColumn<bool>("avx2");
        QTest::addColumn<int>("size");
        QTest::addColumn<double>("share");  // of the values at or above the threshold
        for (bool avx2 : {false, true})
            for (int n : {0, 1, 15, 16, 17, 1000, 12345})
                for (double share : {0.0, 0.03, 0.5, 1.0})
                    QTest::addRow("%s, %d values, %g kept", avx2 ? "AVX2" : "SSE2", n, share) << avx2 << n << share;
    }

    void gatherAtLeastKeepsEveryIdAtTheThreshold()
    {
        QFETCH(bool, avx2);
        QFETCH(int, size);
        QFETCH(double, share);
        if (avx2 && !hasAvx2())
            QSKIP("this processor has no AVX2: only the SSE2 gather runs here");
        const std::vector<double> values = makeValues(Values::Exps, size, 3);
        // The threshold is one of the values, so ids equal to it must be kept (>=).
        std::vector<double> sorted = values;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        const auto at = static_cast<std::size_t>(share * static_cast<double>(size));
        const double threshold = size == 0 ? 0.5 : at >= sorted.size() ? 0.0 : share == 0.0 ? 2.0 : sorted[at];
        std::vector<Ranked> expected;
        for (int i = 0; i < size; ++i)
            if (values[static_cast<std::size_t>(i)] >= threshold)
                expected.emplace_back(values[static_cast<std::size_t>(i)], i);
        std::vector<Ranked> gathered(3, Ranked{1.0, 99});
        gatherAtLeast(values, threshold, gathered, avx2);
        QVERIFY(same(gathered, expected));
        if (share == 0.0)
            QVERIFY(gathered.empty());
        if (share == 1.0)
            QCOMPARE(gathered.size(), values.size());
    }

    // The gather by logit reads an exp only where the logit reaches logitFloor(threshold): the
    // ids it returns must be gatherAtLeast's on the exps, bit for bit, and every logit below the
    // floor must have an exp below the threshold. Thresholds are exps themselves (ids equal to
    // one are kept), at temperatures whose divisions round differently.
    void gatherByLogitEqualsTheGatherOfExps_data()
    {
        QTest::addColumn<bool>("avx2");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("share");  // of the exps at or above the threshold
        for (bool avx2 : {false, true})
            for (double t : {0.7, 1.0, 0.05, 3.3})
                for (double share : {0.0005, 0.02, 0.3, 1.0})
                    QTest::addRow("%s, T=%g, %g kept", avx2 ? "AVX2" : "SSE2", t, share) << avx2 << t << share;
    }

    void gatherByLogitEqualsTheGatherOfExps()
    {
        QFETCH(bool, avx2);
        QFETCH(double, temperature);
        QFETCH(double, share);
        if (avx2 && !hasAvx2())
            QSKIP("this processor has no AVX2: only the SSE2 gather runs here");
        std::mt19937 gen(9);
        std::normal_distribution<float> normal(0.0f, 2.5f);
        std::vector<float> logits(20011);  // no multiple of a group: the tail runs too
        for (float& l : logits)
            l = normal(gen);
        logits[17] = logits[18] = logits[19];  // ties on the threshold
        const double maxScaled = static_cast<double>(*std::max_element(logits.begin(), logits.end())) / temperature;
        std::vector<double> exps(logits.size());
        lessonExpSum(logits.data(), logits.size(), temperature, maxScaled, exps.data());
        std::vector<double> sorted = exps;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        const double threshold =
            sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(share * static_cast<double>(sorted.size())))];

        const std::optional<float> floor = logitFloor(threshold, temperature, maxScaled);
        QVERIFY(floor.has_value());
        for (std::size_t i = 0; i < logits.size(); ++i)
            if (logits[i] < *floor)
                QVERIFY2(exps[i] < threshold,
                         qPrintable(QStringLiteral("logit %1 below the floor %2").arg(logits[i]).arg(*floor)));
        std::vector<Ranked> expected, gathered(5, Ranked{1.0, 7});
        gatherAtLeast(exps, threshold, expected, avx2);
        gatherAtLeastByLogit(logits.data(), exps, *floor, threshold, gathered, avx2);
        QVERIFY(same(gathered, expected));
        QVERIFY(!expected.empty());
    }

    // No floor where the arithmetic has none: a threshold of 0 or NaN, T = inf.
    void logitFloorRefusesWhatHasNoFloor()
    {
        QVERIFY(!logitFloor(0.0, 0.7, 1.0).has_value());
        QVERIFY(!logitFloor(std::nan(""), 0.7, 1.0).has_value());
        QVERIFY(!logitFloor(0.5, std::numeric_limits<double>::infinity(), 1.0).has_value());
        // Far out of float's range: the nearest floats, never a cast out of range.
        const std::optional<float> high = logitFloor(0.5, 1e30, 1e10);  // the bound is about 1e40
        QVERIFY(high.has_value());
        QCOMPARE(*high, std::numeric_limits<float>::max());
        const std::optional<float> low = logitFloor(1e-300, 1e300, 0.0);  // about -7e302
        QVERIFY(low.has_value());
        QCOMPARE(*low, -std::numeric_limits<float>::infinity());
    }
};

QTEST_APPLESS_MAIN(TestRanked)
#include "tst_ranked.moc"
