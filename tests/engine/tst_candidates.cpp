// candidates(): hand-worked cases, edge cases, properties, and the partial-selection fast path
// against a plain full sort on large vocabularies.
#include "engine/kernels/cpu_features.h"
#include "engine/kernels/softmax_kernel.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/softmax.h"
#include "support/test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace logitlab;
using namespace logitlab::engine;
using test::array;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// The lesson's algorithm written the slow, obvious way: full stable sort, slice, walk.
CandidateList reference(const Eigen::ArrayXd& logits, const SamplerSettings& s)
{
    if (s.temperature == 0.0)
        return {Candidate{argmax(logits), 1.0, 1.0}};
    const Eigen::ArrayXd p = softmax(logits, s.temperature);
    std::vector<int> order(static_cast<std::size_t>(p.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&p](int a, int b) { return p[a] > p[b]; });
    if (s.topK)
        order.resize(std::min<std::size_t>(order.size(), static_cast<std::size_t>(*s.topK)));
    if (s.topP) {
        double cum = 0.0;
        std::size_t keep = 0;
        for (int id : order) {
            ++keep;
            cum += p[id];
            if (cum > *s.topP)
                break;
        }
        order.resize(keep);
    }
    double total = 0.0;
    for (int id : order)
        total += p[id];
    CandidateList out;
    for (int id : order)
        out.push_back({id, p[id] / total, p[id]});
    return out;
}

Eigen::ArrayXd normalLogits(int n, double sigma, unsigned seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> dist(0.0, sigma);
    Eigen::ArrayXd a(n);
    for (int i = 0; i < n; ++i)
        a[i] = dist(gen);
    return a;
}

}  // namespace

class TestCandidates : public QObject {
    Q_OBJECT
private slots:
    void handWorked_data()
    {
        QTest::addColumn<Eigen::ArrayXd>("logits");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<int>("topK");
        QTest::addColumn<double>("topP");
        QTest::addColumn<QList<int>>("ids");
        QTest::addColumn<QList<double>>("p");

        // Two equal logits: softmax 1/2 each; top-p 0.5 needs cum > 0.5, so both survive.
        QTest::newRow("tie, top-p 0.5 keeps the crossing token")
            << array({1, 1}) << 1.0 << 0 << 0.5 << QList<int>{0, 1} << QList<double>{0.5, 0.5};
        // Ties sort by id: [1, 0, 0] -> ids 1 and 2 tie at the cut; top-k 2 keeps 0 and 1 (lower id).
        // Renormalised over {0, 1}: e/(e+1) = 0.7310585786300049 and 1/(e+1).
        QTest::newRow("tie at the top-k cut: lower id wins")
            << array({1, 0, 0}) << 1.0 << 2 << 0.0 << QList<int>{0, 1}
            << QList<double>{std::exp(1.0) / (std::exp(1.0) + 1), 1 / (std::exp(1.0) + 1)};
        // -inf has probability 0 and sorts last; with top-k 2 it is cut.
        QTest::newRow("-inf is probability 0")
            << array({-kInf, 0, 0}) << 1.0 << 0 << 0.0 << QList<int>{1, 2, 0} << QList<double>{0.5, 0.5, 0.0};
        // T = 0 ignores top-k/top-p and returns the first maximum with p = 1.
        QTest::newRow("greedy, tie: lowest id")
            << array({1, 3, 3}) << 0.0 << 1 << 0.5 << QList<int>{1} << QList<double>{1.0};
        // V = 1: the only token survives every filter.
        QTest::newRow("single token") << array({-4}) << 0.7 << 1 << 0.01 << QList<int>{0} << QList<double>{1.0};
        // [ln 4, ln 2, ln 1, ln 1] -> p = [0.5, 0.25, 0.125, 0.125]; top-p 0.75: cum 0.5, 0.75 (not > 0.75),
        // 0.875 > 0.75 -> three survive, renormalised by 0.875: 4/7, 2/7, 1/7.
        QTest::newRow("exact boundary is not exceeded")
            << array({std::log(4.0), std::log(2.0), 0, 0}) << 1.0 << 0 << 0.75 << QList<int>{0, 1, 2}
            << QList<double>{4.0 / 7, 2.0 / 7, 1.0 / 7};
    }
    void handWorked()
    {
        QFETCH(Eigen::ArrayXd, logits);
        QFETCH(double, temperature);
        QFETCH(int, topK);
        QFETCH(double, topP);
        QFETCH(QList<int>, ids);
        QFETCH(QList<double>, p);
        SamplerSettings s{temperature, topK > 0 ? std::optional<int>(topK) : std::nullopt,
                          topP > 0 ? std::optional<double>(topP) : std::nullopt};
        const CandidateList got = candidates(logits, s);
        QCOMPARE(static_cast<qsizetype>(got.size()), ids.size());
        for (int i = 0; i < ids.size(); ++i) {
            QCOMPARE(got[static_cast<std::size_t>(i)].id, ids[i]);
            QVERIFY(std::abs(got[static_cast<std::size_t>(i)].p - p[i]) < 1e-12);
        }
    }

    void matchesFullSortOnLargeVocabularies_data()
    {
        QTest::addColumn<int>("vocabulary");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<int>("topK");
        QTest::addColumn<double>("topP");
        QTest::newRow("V=128256 T=0.7 top-p 0.9") << 128256 << 0.7 << 0 << 0.9;
        QTest::newRow("V=262144 T=1 top-p 0.95") << 262144 << 1.0 << 0 << 0.95;
        QTest::newRow("V=32000 T=1.3 top-k 40 top-p 0.95") << 32000 << 1.3 << 40 << 0.95;
        QTest::newRow("V=32000 top-k 1000") << 32000 << 1.0 << 1000 << 0.0;
        QTest::newRow("V=5000 flat T=20 top-p 0.99 (nucleus crosses chunks)") << 5000 << 20.0 << 0 << 0.99;
        QTest::newRow("V=3000 no filter") << 3000 << 1.0 << 0 << 0.0;
    }
    void matchesFullSortOnLargeVocabularies()
    {
        QFETCH(int, vocabulary);
        QFETCH(double, temperature);
        QFETCH(int, topK);
        QFETCH(double, topP);
        const Eigen::ArrayXd logits = normalLogits(vocabulary, 2.5, 7);
        SamplerSettings s{temperature, topK > 0 ? std::optional<int>(topK) : std::nullopt,
                          topP > 0 ? std::optional<double>(topP) : std::nullopt};
        const CandidateList fast = candidates(logits, s);
        QVERIFY(fast == reference(logits, s));  // bit for bit
        // From the softmax the Explorer already holds: the same list, without a second exp pass.
        const Eigen::ArrayXd p = softmax(logits, temperature);
        QVERIFY(candidatesFromProbabilities(std::vector<double>(p.begin(), p.end()), s) == fast);
        // float32 input widens to the same doubles.
        const Eigen::ArrayXf asFloat = logits.cast<float>();
        QVERIFY(candidates(asFloat, s) == reference(asFloat.cast<double>(), s));
    }

    // candidates() bounds a cut from a sample of every 16th exp (candidates.cpp, gatherCut), then
    // checks the bound with the exact histogram of what it gathered, and falls back to every exp
    // when the check fails. Heavy ids on the sample's stride make the sample overestimate the
    // mass above a threshold (the fallback runs); heavy ids between the samples make it miss
    // them; many equal logits put ties on the cut. Every case equals the full sort bit for bit.
    void matchesFullSortWhenTheSampleMisleads_data()
    {
        QTest::addColumn<int>("heavyStride");  // every heavyStride-th id from heavyOffset is heavy
        QTest::addColumn<int>("heavyOffset");
        QTest::addColumn<double>("heavyLogit");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<int>("topK");
        QTest::addColumn<double>("topP");
        QTest::newRow("heavy ids on the stride, top-p 0.9") << 16 << 0 << 4.0 << 1.0 << 0 << 0.9;
        QTest::newRow("heavy ids on the stride, top-k 300") << 16 << 0 << 4.0 << 1.0 << 300 << 0.0;
        QTest::newRow("heavy ids between samples, top-p 0.5") << 16 << 5 << 6.0 << 1.0 << 0 << 0.5;
        QTest::newRow("a few heavy ids between samples, top-p 0.99") << 1999 << 7 << 9.0 << 0.8 << 0 << 0.99;
        QTest::newRow("ties: two logit values, top-p 0.7") << 3 << 1 << 1.0 << 1.0 << 0 << 0.7;
        QTest::newRow("ties: two logit values, top-k 1000") << 3 << 1 << 1.0 << 1.0 << 1000 << 0.0;
        QTest::newRow("flat tail at T = 5, top-p 0.999") << 7 << 0 << 2.0 << 5.0 << 0 << 0.999;
    }

    void matchesFullSortWhenTheSampleMisleads()
    {
        QFETCH(int, heavyStride);
        QFETCH(int, heavyOffset);
        QFETCH(double, heavyLogit);
        QFETCH(double, temperature);
        QFETCH(int, topK);
        QFETCH(double, topP);
        constexpr int kVocabulary = 40000;
        Eigen::ArrayXd logits = Eigen::ArrayXd::Zero(kVocabulary);
        for (int i = heavyOffset; i < kVocabulary; i += heavyStride)
            logits[i] = heavyLogit;
        SamplerSettings s{temperature, topK > 0 ? std::optional<int>(topK) : std::nullopt,
                          topP > 0 ? std::optional<double>(topP) : std::nullopt};
        const CandidateList expected = reference(logits, s);
        QVERIFY(candidates(logits, s) == expected);
        const Eigen::ArrayXd p = softmax(logits, temperature);
        QVERIFY(candidatesFromProbabilities(std::vector<double>(p.begin(), p.end()), s) == expected);
        // The same logits with a little noise: no exact ties, the same kind of misleading sample.
        std::mt19937 gen(11);
        std::normal_distribution<double> noise(0.0, 0.05);
        for (double& l : logits)
            l += noise(gen);
        QVERIFY(candidates(logits, s) == reference(logits, s));
        // float32 logits gather by their logits (ranked.h, gatherAtLeastByLogit).
        const Eigen::ArrayXf asFloat = logits.cast<float>();
        QVERIFY(candidates(asFloat, s) == reference(asFloat.cast<double>(), s));
    }

    void propertiesHoldOnRandomInputs()
    {
        std::mt19937 gen(2024);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        for (int trial = 0; trial < 300; ++trial) {
            const int n = 1 + static_cast<int>(gen() % 300);
            const Eigen::ArrayXd logits = normalLogits(n, 0.5 + 4 * unit(gen), static_cast<unsigned>(trial));
            const double t = 0.05 + 3 * unit(gen);
            const double p1 = 0.01 + 0.98 * unit(gen);
            const double p2 = p1 * unit(gen) + 1e-3;  // p2 <= p1 (nearly)
            const CandidateList wide = candidates(logits, {t, std::nullopt, p1});
            const CandidateList narrow = candidates(logits, {t, std::nullopt, std::min(p1, p2)});
            // Renormalised probabilities sum to 1.
            double sum = 0.0;
            for (const auto& c : wide)
                sum += c.p;
            QVERIFY(std::abs(sum - 1.0) < 1e-12);
            // Lowering top-p never adds a token: the narrow set is a prefix of the wide one.
            QVERIFY(narrow.size() <= wide.size());
            for (std::size_t i = 0; i < narrow.size(); ++i)
                QCOMPARE(narrow[i].id, wide[i].id);
            // Survivors are distinct ids from the input, in descending probability.
            for (std::size_t i = 1; i < wide.size(); ++i)
                QVERIFY(wide[i - 1].pRaw >= wide[i].pRaw);
            // Lowering top-k never adds a token either.
            const int k = 1 + static_cast<int>(gen() % static_cast<unsigned>(n));
            QVERIFY(candidates(logits, {t, k, std::nullopt}).size() == static_cast<std::size_t>(k));
        }
    }

    void lowTemperatureApproachesGreedy()
    {
        const Eigen::ArrayXd logits = array({3, 2, 1.5, 1, -2});
        for (double t : {1.0, 0.5, 0.2, 0.05, 0.01}) {
            const CandidateList c = candidates(logits, {t, std::nullopt, std::nullopt});
            QCOMPARE(c.front().id, 0);
            if (t <= 0.05)
                QVERIFY(c.front().p > 1 - 1e-8);
        }
    }
    // argmax() finds the maximum in vector lanes, then its first position: every length around
    // the lane widths and the AVX2 loops' blocks (64 floats, 32 doubles), the maximum at every
    // position, ties (the first wins, as indexOf does), and -0.0 against 0.0 (equal, so again
    // the first); the SSE2 and the AVX2 loops alike.
    void argmaxIsTheFirstMaximum_data()
    {
        QTest::addColumn<int>("length");
        for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200})
            QTest::newRow(qPrintable(QStringLiteral("n=%1").arg(n))) << n;
    }

    void argmaxIsTheFirstMaximum()
    {
        QFETCH(int, length);
        const auto check = [](const Eigen::ArrayXd& d, int expected) {
            QCOMPARE(argmax(d), expected);
            const Eigen::ArrayXf f = d.cast<float>();
            QCOMPARE(argmax(f), expected);
            const auto n = static_cast<std::size_t>(d.size());
            for (const bool avx2 : {false, true}) {
                if (avx2 && !engine::detail::hasAvx2())
                    continue;
                QCOMPARE(engine::detail::argmaxOf(d.data(), n, avx2), expected);
                QCOMPARE(engine::detail::argmaxOf(f.data(), n, avx2), expected);
            }
        };
        for (int at = 0; at < length; ++at) {
            Eigen::ArrayXd d = Eigen::ArrayXd::LinSpaced(length, -3.0, -1.0);
            d[at] = 2.0;
            check(d, at);
            // A tie with every later position: the first still wins.
            for (int later = at + 1; later < length; ++later) {
                Eigen::ArrayXd tie = d;
                tie[later] = 2.0;
                check(tie, at);
            }
            Eigen::ArrayXd zeros = Eigen::ArrayXd::Constant(length, -kInf);
            zeros[at] = -0.0;
            if (at + 1 < length)
                zeros[at + 1] = 0.0;
            check(zeros, at);
        }
        check(Eigen::ArrayXd::Constant(length, -kInf), 0);
    }
};

QTEST_GUILESS_MAIN(TestCandidates)
#include "tst_candidates.moc"
