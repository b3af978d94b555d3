// The Explorer's draws test where the issue saw it go wrong: Zipf(1.1) over V = 262,144 at
// top-p 0.9 (tens of thousands of survivors, each expecting far less than one draw in 1,000).
// Pooled, a correct sampler passes as often as a 1% test should, and a claim 2% off fails.
#include "engine/models/synthetic_vocabulary.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/explorer_draws.h"
#include "engine/stats/pooled_fit_test.h"

#include <QTest>

using namespace logitlab::engine;

namespace {

ExplorerChain topP(double p)
{
    ExplorerChain chain;
    chain.lesson.temperature = 1.0;
    chain.lesson.topP = p;
    return chain;
}

Distribution zipf262k()
{
    SyntheticSpec spec;
    spec.size = 262'144;
    return syntheticVocabulary(spec);
}

std::vector<double> probabilitiesOf(const CandidateList& expected)
{
    std::vector<double> p;
    for (const auto& c : expected)
        p.push_back(c.p);
    return p;
}

}  // namespace

class TestPooledFit : public QObject {
    Q_OBJECT
private slots:
    // 100 seeds x 1,000 draws: p > 0.01 in at least 98 (a binomial(100, 0.01) exceeds 2 failures
    // with probability 0.08; the seeds are fixed, so the count is the same on every run).
    void correctSamplerPassesAtLargeV()
    {
        const Distribution d = zipf262k();
        int passed = 0;
        int survivors = 0;
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            const auto draws = explorerDraws(d.logits, topP(0.9), 1000, "mulberry32", seed);
            QVERIFY(draws.ok());
            survivors = static_cast<int>(draws->expected.size());
            const PooledFit fit = pooledChiSquare(draws->counts.counts, probabilitiesOf(draws->expected));
            QVERIFY(fit.test.has_value() && static_cast<std::size_t>(fit.bins) < fit.originalBins);
            if (fit.test->pValue > 0.01)
                ++passed;
        }
        QVERIFY2(survivors > 10'000, qPrintable(QString::number(survivors)));
        QVERIFY2(passed >= 98, qPrintable(QString::number(passed)));
    }

    // The same draws judged against a claim 2% off: the first half of the survivors' mass 2%
    // more likely, the rest 2% less. 10^6 draws see it; the true claim passes.
    void twoPercentBiasFailsAtAMillionDraws()
    {
        const Distribution d = zipf262k();
        const auto draws = explorerDraws(d.logits, topP(0.9), 1'000'000, "mulberry32", 7);
        QVERIFY(draws.ok());
        std::vector<double> claim = probabilitiesOf(draws->expected);
        double firstHalf = 0.0;
        std::size_t split = 0;
        while (split < claim.size() && firstHalf + claim[split] <= 0.5)
            firstHalf += claim[split++];
        for (std::size_t i = 0; i < claim.size(); ++i)
            claim[i] *= i < split ? 1.02 : (1.0 - 1.02 * firstHalf) / (1.0 - firstHalf);
        const PooledFit biased = pooledChiSquare(draws->counts.counts, claim);
        QVERIFY(biased.test.has_value());
        QVERIFY2(biased.test->pValue < 1e-6, biased.describe().c_str());
        const PooledFit right = pooledChiSquare(draws->counts.counts, probabilitiesOf(draws->expected));
        QVERIFY2(right.test->pValue > 1e-3, right.describe().c_str());
    }
};

QTEST_MAIN(TestPooledFit)
#include "tst_pooled_fit.moc"
