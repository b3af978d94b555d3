// Statistical tests with fixed seeds: 10^5 draws through the sampler pass a chi-square
// goodness-of-fit test against the renormalised probabilities, for several settings and RNGs;
// and a deliberately biased sampler fails it, so the test has power.
#include "engine/rng/rng_factory.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/sample.h"
#include "engine/stats/statistics.h"
#include "support/test_support.h"

#include <QTest>

using namespace logitlab;
using namespace logitlab::engine;

namespace {

constexpr int kDraws = 100000;
constexpr double kAlpha = 1e-3;  // fixed seeds make this deterministic; alpha only sets the bar

struct Fit {
    FitTest test;
    std::vector<std::uint64_t> counts;
};

Fit drawAndTest(const CandidateList& list, const std::string& rngName, std::uint64_t seed, int draws)
{
    auto rng = std::move(makeRng(rngName, seed)).value();
    std::vector<std::uint64_t> counts(list.size(), 0);
    std::vector<double> expected;
    for (const auto& c : list)
        expected.push_back(c.p);
    for (int i = 0; i < draws; ++i) {
        const std::int32_t id = sample(list, *rng);
        for (std::size_t j = 0; j < list.size(); ++j)
            if (list[j].id == id)
                ++counts[j];
    }
    return {chiSquareTest(counts, expected), counts};
}

}  // namespace

class TestSamplingStatistics : public QObject {
    Q_OBJECT
private slots:
    void drawsFollowTheRenormalisedProbabilities_data()
    {
        QTest::addColumn<int>("example");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<int>("topK");
        QTest::addColumn<double>("topP");
        QTest::addColumn<QString>("rng");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("lesson T=1 plain, mulberry32") << 0 << 1.0 << 0 << 0.0 << "mulberry32" << quint64(1);
        QTest::newRow("lesson T=1.5 top-p 0.9, mt19937") << 0 << 1.5 << 0 << 0.9 << "mt19937" << quint64(2);
        QTest::newRow("exercise T=1 top-p 0.9, mulberry32") << 1 << 1.0 << 0 << 0.9 << "mulberry32" << quint64(42);
        QTest::newRow("exercise T=0.7 top-k 3, mt19937_64") << 1 << 0.7 << 3 << 0.0 << "mt19937_64" << quint64(3);
        QTest::newRow("lesson T=2 top-k 4, mt19937_64") << 0 << 2.0 << 4 << 0.0 << "mt19937_64" << quint64(4);
    }
    void drawsFollowTheRenormalisedProbabilities()
    {
        QFETCH(int, example);
        QFETCH(double, temperature);
        QFETCH(int, topK);
        QFETCH(double, topP);
        QFETCH(QString, rng);
        QFETCH(quint64, seed);
        const Distribution d = example == 0 ? lessonExample() : lessonExercise();
        const SamplerSettings s{temperature, topK > 0 ? std::optional<int>(topK) : std::nullopt,
                                topP > 0 ? std::optional<double>(topP) : std::nullopt};
        const CandidateList list = candidates(d.logits, s);
        const Fit fit = drawAndTest(list, rng.toStdString(), seed, kDraws);
        QCOMPARE(fit.test.degreesOfFreedom, static_cast<int>(list.size()) - 1);
        QVERIFY2(fit.test.pValue > kAlpha,
                 qPrintable(QStringLiteral("chi2 = %1, p = %2").arg(fit.test.statistic).arg(fit.test.pValue)));
    }

    void aBiasedSamplerIsDetected()
    {
        // Shift 2% of the probability from the top token to the second: the draws no longer
        // match the claimed probabilities and the test must say so.
        const CandidateList honest = candidates(lessonExercise().logits, {1.0, std::nullopt, 0.9});
        CandidateList biased = honest;
        biased[0].p -= 0.02;
        biased[1].p += 0.02;
        auto rng = std::move(makeRng("mulberry32", 5)).value();
        std::vector<std::uint64_t> counts(honest.size(), 0);
        for (int i = 0; i < kDraws; ++i) {
            const auto id = sample(biased, *rng);
            for (std::size_t j = 0; j < honest.size(); ++j)
                counts[j] += honest[j].id == id;
        }
        std::vector<double> claimed;
        for (const auto& c : honest)
            claimed.push_back(c.p);
        QVERIFY(chiSquareTest(counts, claimed).pValue < 1e-6);
    }

    void chiSquareKnownValue()
    {
        // Counts 10, 20, 30 against 1/3 each: chi2 = (100 + 0 + 100) / 20 = 10, 2 dof,
        // p = exp(-10/2) = 0.006737946999085467.
        const FitTest t = chiSquareTest({10, 20, 30}, {1.0 / 3, 1.0 / 3, 1.0 / 3});
        QVERIFY(std::abs(t.statistic - 10.0) < 1e-12);
        QCOMPARE(t.degreesOfFreedom, 2);
        QVERIFY(std::abs(t.pValue - std::exp(-5.0)) < 1e-12);
        // An impossible count is a certain failure.
        QCOMPARE(chiSquareTest({5, 1}, {1.0, 0.0}).pValue, 0.0);
    }
};

QTEST_GUILESS_MAIN(TestSamplingStatistics)
#include "tst_sampling_statistics.moc"
