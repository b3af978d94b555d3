// What the attack on the engine found (issue 11), one regression each: an Explorer top-k of 0
// ("off" under llama.cpp, hf and vllm) emptied the survivors; statistics with 0 degrees of freedom
// or NaN input; a seed sweep of one outcome; boundary ties in epsilon, eta, min-p and typical;
// DRY's linear Z-algorithm against the direct definition; work limits; llama.cpp's divergences.
#include "engine/core/work_limits.h"
#include "engine/experiments/seed_sweep.h"
#include "engine/experiments/sweep_source.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/chain_divergences.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/stats/statistics.h"
#include "support/chain_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>

using namespace logitlab;
using namespace logitlab::engine;
using test::applied;
using test::arrayFromProbs;
using test::keptIds;

Q_DECLARE_METATYPE(logitlab::engine::Semantics)

namespace {

// DRY's penalty per token by its definition, position by position (the pre-Z-algorithm code):
// the longest match, capped at the breaker, of the text before each earlier position with the
// text now, recorded for the token that followed it.
std::map<std::int32_t, std::size_t> dryLengthsByDefinition(const std::vector<std::int32_t>& h, std::size_t allowed,
                                                           std::size_t n, const std::vector<std::int32_t>& breakers)
{
    std::map<std::int32_t, std::size_t> longest;
    if (n <= allowed)
        return longest;
    const auto back = [&h](std::size_t i) { return h[h.size() - 1 - i]; };
    std::size_t limit = n;
    for (std::size_t i = 0; i < n; ++i)
        if (std::find(breakers.begin(), breakers.end(), back(i)) != breakers.end()) {
            limit = i;
            break;
        }
    if (limit < allowed)
        return longest;
    for (std::size_t k = 1; k < n; ++k) {
        std::size_t len = 0;
        while (k + len < n && back(k + len) == back(len) && len < limit)
            ++len;
        if (len >= allowed)
            longest[back(k - 1)] = std::max(longest[back(k - 1)], len);
    }
    return longest;
}

}  // namespace

class TestEngineRobustness : public QObject {
    Q_OBJECT

private slots:
    // Issue 11, item 1: {"semantics":"hf","topK":0} crashed the Explorer in summarise().
    void explorerTopKOffNeverEmpties_data()
    {
        QTest::addColumn<Semantics>("semantics");
        QTest::addColumn<int>("topK");
        QTest::newRow("hf 0") << Semantics::Hf << 0;
        QTest::newRow("llama.cpp 0") << Semantics::LlamaCpp << 0;
        QTest::newRow("llama.cpp -5") << Semantics::LlamaCpp << -5;
        QTest::newRow("vllm 0") << Semantics::Vllm << 0;
        QTest::newRow("vllm -1") << Semantics::Vllm << -1;
    }

    void explorerTopKOffNeverEmpties()
    {
        QFETCH(Semantics, semantics);
        QFETCH(int, topK);
        const Eigen::ArrayXd logits = (Eigen::ArrayXd(3) << 1.0, 2.0, 3.0).finished();
        ExplorerChain chain{semantics, SamplerSettings{1.0, topK, std::nullopt}, {}, {}};
        QVERIFY(!validateExplorerChain(chain, 3));  // off, as in the library
        const SamplerAnalysis a = analyseExplorerChain(logits, chain, idsByDescendingLogit(logits));
        QCOMPARE(a.survivors.size(), std::size_t{3});  // top-k off keeps everything
        QCOMPARE(a.survivors.front().id, 2);
        QCOMPARE(a.rule, CutRule::None);
        QVERIFY(std::isfinite(a.outsideTop1));
    }

    void explorerGreedyTemperaturesShowTheArgmax_data()
    {
        QTest::addColumn<Semantics>("semantics");
        QTest::addColumn<double>("temperature");
        QTest::newRow("llama.cpp -1") << Semantics::LlamaCpp << -1.0;
        QTest::newRow("vllm 0") << Semantics::Vllm << 0.0;  // 1e-6 is raised to 0.01 (vLLM's floor): not greedy
        QTest::newRow("hf 1e-320") << Semantics::Hf << 1e-320;
    }

    void explorerGreedyTemperaturesShowTheArgmax()
    {
        QFETCH(Semantics, semantics);
        QFETCH(double, temperature);
        const Eigen::ArrayXd logits = (Eigen::ArrayXd(3) << 3.0, 1.0, 2.0).finished();
        ExplorerChain chain{semantics, SamplerSettings{temperature, std::nullopt, std::nullopt}, {}, {}};
        QVERIFY(!validateExplorerChain(chain, 3));
        const SamplerAnalysis a = analyseExplorerChain(logits, chain, idsByDescendingLogit(logits));
        QCOMPARE(a.rule, CutRule::Greedy);
        QCOMPARE(a.probabilities[0], 1.0);  // not softmax at a negative T (the reversed order)
        QCOMPARE(a.entropyNats, 0.0);
        QCOMPARE(a.survivors.front().id, 0);
    }

    // Refused by validateSettings(), but should a lesson top-k < 1 arrive, one token survives.
    void lessonTopKBelowOneKeepsTheArgmax()
    {
        const Eigen::ArrayXd logits = (Eigen::ArrayXd(3) << 1.0, 3.0, 2.0).finished();
        for (int k : {0, -3}) {
            const SamplerSettings settings{1.0, k, std::nullopt};
            QVERIFY(validateSettings(settings));
            QCOMPARE(candidates(logits, settings).size(), std::size_t{1});
            const SamplerAnalysis a = analyse(logits, settings, idsByDescendingLogit(logits));
            QCOMPARE(a.survivors.size(), std::size_t{1});
            QCOMPARE(a.survivors.front().id, 1);
        }
    }

    // Issue 11, item 2: chi-square with a NaN or 0 parameter threw boost::math's domain_error.
    void chiSquareSurvivalNeverThrows_data()
    {
        QTest::addColumn<double>("statistic");
        QTest::addColumn<int>("dof");
        QTest::addColumn<double>("expected");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("NaN statistic") << nan << 3 << 1.0;
        QTest::newRow("0 dof") << 5.0 << 0 << 1.0;
        QTest::newRow("negative dof") << 5.0 << -2 << 1.0;
        QTest::newRow("negative statistic") << -1.0 << 2 << 1.0;
        QTest::newRow("zero statistic") << 0.0 << 2 << 1.0;
        QTest::newRow("infinite statistic") << inf << 2 << 0.0;
        QTest::newRow("huge statistic") << 1e308 << 2 << 0.0;
        QTest::newRow("ordinary") << 2.0 << 2 << std::exp(-1.0);  // chi-square(2) survival is exp(-x/2)
    }

    void chiSquareSurvivalNeverThrows()
    {
        QFETCH(double, statistic);
        QFETCH(int, dof);
        QFETCH(double, expected);
        QCOMPARE(chiSquareSurvival(statistic, dof), expected);
    }

    void fitTestsOnBadExpectationsAreUntested()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const FitTest chi = chiSquareTest({5, 5}, {nan, nan});
        QVERIFY(!chi.tested);
        QCOMPARE(chi.pValue, 1.0);
        QVERIFY(!gTest({5, 5}, {nan, 0.5}).tested);
        const FitTest one = chiSquareTest({10}, {1.0});
        QVERIFY(!one.tested);
        QCOMPARE(one.degreesOfFreedom, 0);
        const FitTest impossible = chiSquareTest({10, 1}, {1.0, 0.0});
        QVERIFY(impossible.tested);  // a count where nothing was expected fails, whatever the dof
        QCOMPARE(impossible.pValue, 0.0);
        QVERIFY(!ksUniformTest({}).tested);
        QVERIFY(!ksUniformTest({nan, nan}).tested);
    }

    // Issue 11, item 10: one outcome reported "KS p = 2.69e-177".
    void seedSweepOfOneOutcomeSaysNoTest()
    {
        SeedSweepParameters p;
        p.source = std::make_shared<CandidateSource>(CandidateList{Candidate{4, 1.0, 1.0}}, "one token");
        p.seeds = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
        p.drawsPerSeed = 100;
        auto prepared = SeedSweepExperiment::prepare(p);
        QVERIFY(prepared);
        auto results = prepared->emptyResults();
        for (std::size_t i = 0; i < prepared->itemCount(); ++i)
            prepared->runItem(i, results);
        const SeedSweepSummary s = prepared->summarise(results);
        QVERIFY(!s.tested());
        QCOMPARE(s.noTest, std::string("no test: one outcome"));
        QVERIFY(!s.chiSquareUniformity.tested);
        QVERIFY(!s.gTestUniformity.tested);
        QVERIFY(!s.pooledChiSquare.tested);
        QCOMPARE(s.tokens.front().pooled, std::uint64_t{1700});
        for (const SeedResult& r : results)
            QVERIFY(!r.chiSquare.tested);
    }

    void seedSweepRefusesNaNProbabilities()
    {
        SeedSweepParameters p;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        p.source =
            std::make_shared<CandidateSource>(CandidateList{Candidate{0, nan, nan}, Candidate{1, nan, nan}}, "nan");
        p.seeds = {1};
        const auto prepared = SeedSweepExperiment::prepare(p);
        QVERIFY(!prepared);
        QVERIFY(prepared.error().find("not in [0, 1]") != std::string::npos);
    }

    // Differential tests against HF and llama.cpp: a probability exactly on a cut stays.
    void boundaryTies_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<Semantics>("semantics");
        QTest::addColumn<std::vector<int>>("kept");
        const std::vector<int> all{0, 1, 2};
        // eta's cut is min(0.5, sqrt(0.5) e^-H) = 0.25 exactly (H = 1.5 ln 2); HF keeps the 0.25s.
        QTest::newRow("hf eta 0.5") << QStringLiteral("eta=0.5") << Semantics::Hf << all;
        QTest::newRow("lesson eta 0.5") << QStringLiteral("eta=0.5") << Semantics::Lesson << all;
        QTest::newRow("hf epsilon 0.25") << QStringLiteral("epsilon=0.25") << Semantics::Hf << all;
        QTest::newRow("hf min-p 0.5") << QStringLiteral("min-p=0.5") << Semantics::Hf << all;
        QTest::newRow("llama.cpp min-p 0.5") << QStringLiteral("min-p=0.5") << Semantics::LlamaCpp << all;
        QTest::newRow("vllm min-p 0.5") << QStringLiteral("min-p=0.5") << Semantics::Vllm << all;
        // Every token scores |ln 2 - 1.5 ln 2| = 0.5 ln 2: hf keeps ties on the boundary score...
        QTest::newRow("hf typical 0.3") << QStringLiteral("typical=0.3") << Semantics::Hf << all;
        // ...llama.cpp stops at the first total > p, ties in array order: the 0.5 token alone.
        QTest::newRow("llama.cpp typical 0.3")
            << QStringLiteral("typical=0.3") << Semantics::LlamaCpp << std::vector<int>{0};
        QTest::newRow("lesson typical 0.3")
            << QStringLiteral("typical=0.3") << Semantics::Lesson << std::vector<int>{0};
    }

    void boundaryTies()
    {
        QFETCH(QString, chain);
        QFETCH(Semantics, semantics);
        QFETCH(std::vector<int>, kept);
        std::vector<int> ids = keptIds(applied(chain.toStdString(), semantics, arrayFromProbs({0.5, 0.25, 0.25})));
        std::sort(ids.begin(), ids.end());
        QCOMPARE(ids, kept);
    }

    // Issue 11, item 11: DRY by the Z-algorithm gives the definition's lengths on random text.
    void dryZAlgorithmMatchesTheDefinition_data()
    {
        QTest::addColumn<int>("vocabulary");
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("allowed");
        QTest::addColumn<int>("lastN");
        QTest::addColumn<int>("breaker");
        QTest::newRow("binary, whole history") << 2 << 300 << 2 << -1 << -1;
        QTest::newRow("three tokens, window 50") << 3 << 400 << 2 << 50 << -1;
        QTest::newRow("allowed 0") << 3 << 120 << 0 << -1 << -1;
        QTest::newRow("allowed 5") << 2 << 500 << 5 << -1 << -1;
        QTest::newRow("breaker") << 4 << 300 << 1 << -1 << 3;
        QTest::newRow("one token repeated") << 1 << 200 << 2 << -1 << -1;
    }

    void dryZAlgorithmMatchesTheDefinition()
    {
        QFETCH(int, vocabulary);
        QFETCH(int, length);
        QFETCH(int, allowed);
        QFETCH(int, lastN);
        QFETCH(int, breaker);
        std::mt19937 gen(12345);
        std::uniform_int_distribution<int> token(0, vocabulary - 1);
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<std::int32_t> history(static_cast<std::size_t>(length - trial));
            for (auto& t : history)
                t = token(gen);
            const std::size_t n = lastN < 0 ? history.size() : std::min<std::size_t>(history.size(), lastN);
            std::vector<std::int32_t> breakers;
            if (breaker >= 0)
                breakers.push_back(breaker);
            const auto expected = dryLengthsByDefinition(history, static_cast<std::size_t>(allowed), n, breakers);
            // multiplier 1, base 2: a token loses 2^(length - allowed); compare the loss per token.
            std::string text =
                "dry=1:base=2:allowed-length=" + std::to_string(allowed) + ":last-n=" + std::to_string(lastN);
            if (breaker >= 0)
                text += ":breakers=" + std::to_string(breaker);
            std::vector<double> zeros(static_cast<std::size_t>(vocabulary), 0.0);
            const CandidateArray out = applied(text, Semantics::LlamaCpp, test::arrayFromLogits(zeros), history);
            for (const TokenData& t : out.data()) {
                const auto found = expected.find(t.id);
                const bool breaks = std::find(breakers.begin(), breakers.end(), t.id) != breakers.end();
                const double loss = found == expected.end() || breaks
                                        ? 0.0
                                        : std::pow(2.0, std::min<double>(static_cast<double>(found->second) - allowed,
                                                                         std::floor(88.7228391 / std::log(2.0))));
                QVERIFY(std::fabs(-t.logit - loss) <= 1e-9 * std::max(1.0, loss));
            }
        }
    }

    // A decode extends the history by one token per draw; the stage's automaton follows it, and
    // starts again when it is handed another history.
    void dryFollowsAGrowingHistory()
    {
        engine::SamplerChain chain = test::chainOf("dry=1:base=2:allowed-length=2:breakers=3", Semantics::LlamaCpp);
        std::mt19937 gen(7);
        std::uniform_int_distribution<int> token(0, 3);
        std::vector<std::int32_t> history;
        const std::vector<double> zeros(4, 0.0);
        for (int step = 0; step < 400; ++step) {
            if (step == 200)
                history.assign(history.begin() + 50, history.end());  // another history, shorter
            history.push_back(token(gen));
            engine::SamplerContext context;
            context.history = history;
            engine::CandidateArray array = test::arrayFromLogits(zeros);
            chain.apply(array, context);
            const auto expected = dryLengthsByDefinition(history, 2, history.size(), {3});
            for (const TokenData& t : array.data()) {
                const auto found = expected.find(t.id);
                const double loss =
                    found == expected.end() || t.id == 3
                        ? 0.0
                        : std::pow(2.0, std::min<double>(static_cast<double>(found->second) - 2.0, 128.0));
                QCOMPARE(-t.logit + 0.0, loss);
            }
        }
    }

    // Issue 11, item 11: the work of a request is known before it starts.
    void workEstimates()
    {
        auto lesson = parseChain("temperature=0.5", Semantics::Lesson);
        QVERIFY(lesson);
        // A chain without state: one run, then a binary search per draw.
        QCOMPARE(sampleSteps(lesson.value(), 3, 2, 1000.0, 0), 3.0 + 1000.0 * 2.0);
        auto dry = parseChain("dry=0.8", Semantics::LlamaCpp);
        QVERIFY(dry);
        // Whole history: sum of 0..999 positions, plus the vocabulary on every draw.
        QCOMPARE(sampleSteps(dry.value(), 3, 3, 1000.0, 0), 1000.0 * 3.0 + 999.0 * 1000.0 / 2.0);
        auto window = parseChain("dry=0.8:last-n=10", Semantics::LlamaCpp);
        QVERIFY(window);
        QCOMPARE(sampleSteps(window.value(), 3, 3, 1000.0, 0), 1000.0 * 3.0 + 45.0 + 990.0 * 10.0);
        QVERIFY(!checkWork("draws", kMaxSampleSteps, kMaxSampleSteps, "fewer"));
        const auto refused = checkWork("draws", 3e10, kMaxSampleSteps, "use fewer draws");
        QVERIFY(refused);
        QVERIFY2(refused->find("about 3.0e10 steps of work, over the limit of 1.0e10") != std::string::npos,
                 refused->c_str());
        QVERIFY(refused->rfind("draws: ", 0) == 0);
    }

    void seedSweepRefusesEndlessWork()
    {
        SeedSweepParameters p;
        p.source =
            std::make_shared<CandidateSource>(CandidateList{Candidate{0, 0.5, 0.5}, Candidate{1, 0.5, 0.5}}, "two");
        p.seeds = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        p.drawsPerSeed = SeedSweepExperiment::kMaxDrawsPerSeed;
        const auto prepared = SeedSweepExperiment::prepare(p);
        QVERIFY(!prepared);
        QVERIFY2(prepared.error().find("limit") != std::string::npos, prepared.error().c_str());
    }

    // llama.cpp's own stale "sorted" flag and single bias, reached by a bias after a sorting stage.
    void llamaCppDivergences_data()
    {
        QTest::addColumn<QString>("chain");
        QTest::addColumn<Semantics>("semantics");
        QTest::addColumn<int>("warnings");
        QTest::newRow("bias first") << QStringLiteral("logit-bias=0@1/0@2,top-k=2,top-p=0.9") << Semantics::LlamaCpp
                                    << 0;
        QTest::newRow("bias after top-k")
            << QStringLiteral("top-k=2,logit-bias=0@1,top-p=0.9") << Semantics::LlamaCpp << 1;
        QTest::newRow("twice after top-p")
            << QStringLiteral("top-p=0.9,logit-bias=0@1/0@2") << Semantics::LlamaCpp << 2;
        QTest::newRow("after penalties only")
            << QStringLiteral("penalties=64:repeat=1.2,logit-bias=0@1/0@2") << Semantics::LlamaCpp << 0;
        QTest::newRow("hf is not llama.cpp") << QStringLiteral("top-k=2,logit-bias=0@1") << Semantics::Hf << 0;
        QTest::newRow("top-k off") << QStringLiteral("top-k=0,logit-bias=0@1") << Semantics::LlamaCpp << 0;
    }

    void llamaCppDivergences()
    {
        QFETCH(QString, chain);
        QFETCH(Semantics, semantics);
        QFETCH(int, warnings);
        auto parsed = parseChain(chain.toStdString(), semantics);
        QVERIFY2(parsed, parsed ? "" : parsed.error().c_str());
        const auto found = engine::llamaCppDivergences(parsed.value());
        QCOMPARE(static_cast<int>(found.size()), warnings);
        if (warnings > 0)
            QVERIFY(found.front().find("sorted") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestEngineRobustness)
#include "tst_engine_robustness.moc"
