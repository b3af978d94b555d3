// The engine pieces behind the Explorer: synthetic vocabularies (seeded, the right shape),
// candidatesFromOrder (bit for bit candidates(), ties included), the analysis readouts, the
// temperature sweep (the lesson's 2 / 3 / 4 survivors), seeded draw counts (the lesson's
// 493 / 393 / 114), the lesson presets, and pasted rows with bad rows reported by number.
#include "engine/experiments/temperature_sweep.h"
#include "engine/io/pasted_table.h"
#include "engine/models/synthetic_vocabulary.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/explorer_chain.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/lesson_presets.h"
#include "engine/sampler/sampler_analysis.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/draw_counts.h"
#include "support/test_support.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace logitlab;
using namespace logitlab::engine;
using test::array;

namespace {

std::vector<double> asVector(const Eigen::ArrayXd& a) { return {a.data(), a.data() + a.size()}; }

}  // namespace

class TestSyntheticVocabulary : public QObject {
    Q_OBJECT
private slots:
    void zipfIsSeededAndHasTheRankLaw()
    {
        SyntheticSpec spec;
        spec.size = 1000;
        spec.exponent = 1.5;
        spec.seed = 7;
        const Distribution a = syntheticVocabulary(spec);
        const Distribution b = syntheticVocabulary(spec);
        QVERIFY((a.logits == b.logits).all());
        spec.seed = 8;
        QVERIFY(!(syntheticVocabulary(spec).logits == a.logits).all());
        // Every rank 1..V appears once: sorted logits are -s ln r.
        std::vector<double> sorted = asVector(a.logits);
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        for (std::size_t r = 0; r < sorted.size(); ++r)
            QCOMPARE(sorted[r], -1.5 * std::log(static_cast<double>(r + 1)));
        QCOMPARE(a.tokens.size(), std::size_t{1000});
        QCOMPARE(a.tokens[12], std::string("t12"));
    }

    void normalHasTheAskedMoments()
    {
        SyntheticSpec spec;
        spec.shape = SyntheticSpec::Shape::Normal;
        spec.size = kMaxVocabularySize;
        spec.mean = 3.0;
        spec.deviation = 2.0;
        const Distribution d = syntheticVocabulary(spec);
        QCOMPARE(d.logits.size(), Eigen::Index{kMaxVocabularySize});
        const double mean = d.logits.mean();
        const double sd = std::sqrt((d.logits - mean).square().mean());
        QVERIFY2(std::abs(mean - 3.0) < 0.02, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd - 2.0) < 0.02, qPrintable(QString::number(sd)));
        QVERIFY(d.logits.isFinite().all());
    }

    void badSpecsAreNamed_data()
    {
        QTest::addColumn<int>("size");
        QTest::addColumn<double>("exponent");
        QTest::addColumn<QString>("field");
        QTest::newRow("V = 1") << 1 << 1.0 << "vocabulary size";
        QTest::newRow("V too big") << kMaxVocabularySize + 1 << 1.0 << "vocabulary size";
        QTest::newRow("s = 0") << 100 << 0.0 << "Zipf exponent";
        QTest::newRow("s = nan") << 100 << std::nan("") << "Zipf exponent";
    }
    void badSpecsAreNamed()
    {
        QFETCH(int, size);
        QFETCH(double, exponent);
        QFETCH(QString, field);
        SyntheticSpec spec;
        spec.size = size;
        spec.exponent = exponent;
        const auto problem = validateSynthetic(spec);
        QVERIFY(problem);
        QVERIFY2(QString::fromStdString(*problem).startsWith(field), problem->c_str());
    }

    // candidatesFromOrder must be candidates(), exactly, for every setting: random logits,
    // logits with ties, and probabilities that underflow to equal zeros at low T.
    void fromOrderMatchesCandidates_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("random normal") << 0;
        QTest::newRow("many ties") << 1;
        QTest::newRow("underflow ties") << 2;
        QTest::newRow("lesson example") << 3;
    }
    void fromOrderMatchesCandidates()
    {
        QFETCH(int, kind);
        std::mt19937_64 gen(5);
        Eigen::ArrayXd logits;
        if (kind == 0) {
            std::normal_distribution<double> normal(0.0, 3.0);
            logits.resize(5000);
            for (auto& l : logits)
                l = normal(gen);
        } else if (kind == 1) {
            std::uniform_int_distribution<int> few(0, 6);
            logits.resize(3000);
            for (auto& l : logits)
                l = few(gen) * 0.5;
        } else if (kind == 2) {
            logits.resize(2000);
            for (Eigen::Index i = 0; i < logits.size(); ++i)
                logits[i] = i % 97 == 0 ? 10.0 : -800.0 - (i % 3);  // exp underflows to exactly 0
        } else {
            logits = lessonExample().logits;
        }
        const auto order = idsByDescendingLogit(logits);
        int checked = 0;
        for (double t : {0.05, 0.3, 0.5, 1.0, 1.5, 3.0})
            for (std::optional<int> k : {std::optional<int>{}, std::optional<int>{1}, std::optional<int>{3},
                                         std::optional<int>{40}, std::optional<int>{100000}})
                for (std::optional<double> p : {std::optional<double>{}, std::optional<double>{0.5},
                                                std::optional<double>{0.9}, std::optional<double>{1.0}}) {
                    const SamplerSettings s{t, k, p};
                    const auto expected = candidates(logits, s);
                    const auto probs = asVector(softmax(logits, t));
                    const auto got = candidatesFromOrder(probs, order, s);
                    QVERIFY2(got == expected, qPrintable(QString::fromStdString(describeSettings(s))));
                    ++checked;
                }
        QCOMPARE(checked, 6 * 5 * 4);
    }

    void analysisReadoutsMatchTheDefinitions()
    {
        const auto d = lessonExample();
        const SamplerSettings s{1.0, std::nullopt, 0.9};
        const SamplerAnalysis a = analyse(d.logits, s);
        const SamplerAnalysis fast = analyse(d.logits, s, idsByDescendingLogit(d.logits));
        QVERIFY(a.survivors == fast.survivors);
        const Eigen::ArrayXd p = softmax(d.logits, 1.0);
        const double entropy = -(p * p.log()).sum();
        QVERIFY(std::abs(a.entropyNats - entropy) < 1e-12);
        QVERIFY(std::abs(fast.entropyNats - entropy) < 1e-12);
        QVERIFY(std::abs(a.entropyBits - entropy / std::log(2.0)) < 1e-12);
        QVERIFY(std::abs(a.perplexity - std::exp(entropy)) < 1e-12);
        QCOMPARE(a.survivors.size(), std::size_t{3});
        QVERIFY(std::abs(a.massKept - 0.9180228) < 1e-6);  // 0.577 + 0.212 + 0.129: the lesson's 0.918
        QVERIFY(std::abs(a.massRemoved - 0.0819772) < 1e-6);
        QVERIFY(std::abs(a.outsideTop1 - (1.0 - 0.6285317192117624)) < 1e-15);
        QCOMPARE(a.rule, CutRule::TopP);
        QCOMPARE(a.cutThreshold, 0.9);

        const auto greedy = analyse(d.logits, SamplerSettings{0.0, std::nullopt, 0.9}, idsByDescendingLogit(d.logits));
        QCOMPARE(greedy.rule, CutRule::Greedy);
        QCOMPARE(greedy.entropyNats, 0.0);
        QCOMPARE(greedy.outsideTop1, 0.0);
        QCOMPARE(analyse(d.logits, SamplerSettings{1.0, 2, std::nullopt}).rule, CutRule::TopK);
        QCOMPARE(analyse(d.logits, SamplerSettings{1.0, std::nullopt, std::nullopt}).rule, CutRule::None);

        // -inf logits: probability 0, no NaN in the entropy.
        const auto withZero = analyse(array({1.0, -std::numeric_limits<double>::infinity()}), SamplerSettings{},
                                      idsByDescendingLogit(array({1.0, -std::numeric_limits<double>::infinity()})));
        QCOMPARE(withZero.entropyNats, 0.0);
    }

    void sweepShowsTheLessonsInteraction()
    {
        const auto temps = sweepTemperatures(3.0);
        QCOMPARE(temps.size(), std::size_t{60});
        QCOMPARE(temps[9], 0.5);
        QCOMPARE(temps[19], 1.0);
        QCOMPARE(temps[29], 1.5);
        const auto d = lessonExample();
        const auto points = temperatureSweep(d.logits, SamplerSettings{1.0, std::nullopt, 0.9}, temps, {0, 4});
        QCOMPARE(points[9].survivors, std::size_t{2});
        QCOMPARE(points[19].survivors, std::size_t{3});
        QCOMPARE(points[29].survivors, std::size_t{4});
        QVERIFY(std::abs(points[19].tracked[0] - 0.5770064660454952) < 1e-15);
        QVERIFY(std::abs(points[19].tracked[1] - 0.003887838986344155) < 1e-15);
        int polled = 0;
        const auto stopped =
            temperatureSweep(d.logits, SamplerSettings{}, temps, {0}, [&polled] { return ++polled > 3; });
        QCOMPARE(stopped.size(), std::size_t{3});
    }

    void drawsMatchTheLessonsCounts()
    {
        // The exercise: 1000 draws at T = 1, top-p 0.9, mulberry32 seed 42 give 493 / 393 / 114.
        const auto list = candidates(lessonExercise().logits, SamplerSettings{1.0, std::nullopt, 0.9});
        auto rng = makeRng("mulberry32", 42);
        const DrawCounts counts = drawCounts(list, 1000, *rng.value());
        QCOMPARE(counts.draws, std::uint64_t{1000});
        QCOMPARE(counts.counts, (std::vector<std::uint64_t>{493, 393, 114}));
        auto again = makeRng("mulberry32", 42);
        int polled = 0;
        const DrawCounts stopped = drawCounts(list, 1'000'000, *again.value(), [&polled] { return ++polled >= 2; });
        QCOMPARE(stopped.draws, std::uint64_t{2 * 65536});
    }

    void presetsAreTheLessons()
    {
        const auto& presets = lessonPresets();
        QCOMPARE(presets.size(), std::size_t{5});
        QCOMPARE(presets[0].name, std::string("users / data / items / result / banana"));
        QCOMPARE(candidates(presets[0].distribution.logits, presets[0].settings).size(), std::size_t{3});
        QCOMPARE(presets[1].distribution.tokens.front(), std::string("=>"));
        QCOMPARE(candidates(presets[1].distribution.logits, presets[1].settings).size(), std::size_t{3});
        QCOMPARE(presets[2].settings.temperature, 0.0);
        QCOMPARE(presets[3].settings, (SamplerSettings{0.9, std::nullopt, 0.95}));
        QCOMPARE(presets[4].settings.temperature, 0.0);
    }

    void pastedRowsReportBadRowsByNumber()
    {
        const PastedTable t =
            parsePastedTable("token\tlogit\nusers\t3\ndata\tlots\n\nitems\t1.5\nnan\tnan\nbig\tinf\n\t2\nsmall\t-inf\n"
                             "a\t1\t2\nresult\t1\r\n");
        QCOMPARE(t.distribution.tokens, (std::vector<std::string>{"users", "items", "small", "result"}));
        QCOMPARE(t.distribution.logits[3], 1.0);
        QVERIFY(std::isinf(t.distribution.logits[2]));
        QCOMPARE(t.problems.size(), std::size_t{5});
        QCOMPARE(t.problems[0].row, 3);
        QCOMPARE(t.problems[0].message, std::string("'lots' is not a number"));
        QCOMPARE(t.problems[1].row, 6);
        QCOMPARE(t.problems[2].row, 7);
        QCOMPARE(t.problems[3].row, 8);
        QCOMPARE(t.problems[3].message, std::string("the token has no name"));
        QCOMPARE(t.problems[4].row, 10);

        const PastedTable single = parsePastedTable("3\n2,5\n\"x, y\",1\n");
        QCOMPARE(single.distribution.tokens, (std::vector<std::string>{"0", "2", "x, y"}));
        QVERIFY(single.problems.empty());
    }

    void explorerChainIsTheLessonOnItsFastPathAndTheZooOtherwise()
    {
        const auto d = lessonExample();
        const auto order = idsByDescendingLogit(d.logits);
        ExplorerChain lesson{Semantics::Lesson, SamplerSettings{1.0, std::nullopt, 0.9}, {}, {}};
        QVERIFY(lesson.lessonOnly());
        QVERIFY(analyseExplorerChain(d.logits, lesson, order).survivors == candidates(d.logits, lesson.lesson));
        QCOMPARE(QString::fromStdString(describeExplorerChain(lesson)),
                 QStringLiteral("top-p=0.9"));  // T = 1 is an inactive stage

        // min-p 0.3: p >= 0.3 x 0.577 keeps users (0.577) and data (0.212), not items (0.129).
        ExplorerChain withMinP = lesson;
        withMinP.stages.minP = 0.3;
        for (Semantics s : allSemantics()) {
            withMinP.semantics = s;
            const SamplerAnalysis a = analyseExplorerChain(d.logits, withMinP, order);
            QCOMPARE(a.survivors.size(), std::size_t{2});
            QCOMPARE(a.rule, CutRule::Chain);
            QVERIFY(std::abs(a.survivors[0].p - 0.5770064660454952 / (0.5770064660454952 + 0.2122688162811256)) <
                    1e-12);
        }
        const auto compared = compareSemantics(d.logits, lesson);
        QCOMPARE(compared.size(), std::size_t{4});
        for (const auto& r : compared)
            QCOMPARE(r.value().size(), std::size_t{3});

        ExplorerChain typicalInVllm = lesson;
        typicalInVllm.semantics = Semantics::Vllm;
        typicalInVllm.stages.typical = 0.5;
        const auto problem = validateExplorerChain(typicalInVllm);
        QVERIFY(problem);
        QVERIFY2(problem->find("typical") != std::string::npos, problem->c_str());
        QVERIFY(!compareSemantics(d.logits, typicalInVllm).back().ok());

        // T = 0 is greedy under every preset that accepts it: the argmax alone. (hf refuses a
        // temperature of 0: do_sample=False is its greedy.)
        int accepted = 0;
        for (Semantics s : allSemantics()) {
            ExplorerChain greedy{s, SamplerSettings{0.0, std::nullopt, 0.9}, {}, {}};
            greedy.stages.minP = 0.05;
            if (const auto problem = validateExplorerChain(greedy)) {
                QVERIFY2(problem->find("temperature") != std::string::npos, problem->c_str());
                continue;
            }
            ++accepted;
            const SamplerAnalysis a = analyseExplorerChain(d.logits, greedy, order);
            QCOMPARE(a.survivors.size(), std::size_t{1});
            QCOMPARE(a.survivors[0].id, 0);
            QCOMPARE(a.rule, CutRule::Greedy);
        }
        QVERIFY(accepted >= 2);

        const auto sweep = explorerChainSweep(d.logits, withMinP, sweepTemperatures(), {0});
        QCOMPARE(sweep.size(), std::size_t{60});
        QVERIFY(sweep[19].survivors == 2);
    }
};

QTEST_MAIN(TestSyntheticVocabulary)
#include "tst_synthetic_vocabulary.moc"
