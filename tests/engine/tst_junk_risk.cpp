// The junk-risk experiment in the engine: junk definitions, the Wilson interval, analytic and
// Monte Carlo agreement on several settings, and the lesson's numbers.
#include "engine/experiments/decoder.h"
#include "engine/experiments/junk_definition.h"
#include "engine/experiments/junk_risk.h"
#include "engine/models/synthetic_logits.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/statistics.h"
#include "engine/stats/wilson_interval.h"

#include "support/test_support.h"

#include <QFile>
#include <QTest>

#include <cmath>

using namespace logitlab::engine;
using logitlab::test::array;

Q_DECLARE_METATYPE(JunkRiskParameters)

namespace {

// The lesson's T = 1 probabilities as printed (they sum to 1): banana holds exactly 0.4%.
Eigen::ArrayXd lessonTailLogits() { return array({0.577, 0.212, 0.129, 0.078, 0.004}).log(); }
Eigen::ArrayXd lessonLogits() { return array({3.0, 2.0, 1.5, 1.0, -2.0}); }

JunkRiskCounts runAll(const JunkRiskExperiment& experiment)
{
    JunkRiskCounts counts = experiment.emptyCounts();
    for (std::size_t i = 0; i < experiment.itemCount(); ++i)
        experiment.runItem(i, counts);
    return counts;
}

SamplerSettings settings(double temperature, std::optional<int> topK = {}, std::optional<double> topP = {})
{
    return SamplerSettings{temperature, topK, topP};
}

}  // namespace

class TestJunkRisk : public QObject {
    Q_OBJECT

private slots:
    // Issue 35, item 6: the q-per-token die holds q as softmax(ln(1 - q), ln q); for the lesson's
    // q = 0.004 that is 0.004000000000000001, one ulp above 0.004, so (1 - q)^N is an ulp or so
    // from the lesson's value, as docs/experiments.md says (it said "exactly").
    void qPerTokenDieHoldsQToAnUlp()
    {
        Eigen::ArrayXd logits(2);
        logits << std::log1p(-0.004), std::log(0.004);
        const Eigen::ArrayXd p = softmax(logits, 1.0);
        QCOMPARE(p[1], std::nextafter(0.004, 1.0));
        QCOMPARE(QString::number(p[1], 'g', 17), QStringLiteral("0.004000000000000001"));
        QFile docs(logitlab::test::dataPath(QStringLiteral("../../docs/experiments.md")));
        QVERIFY(docs.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(docs.readAll());
        QVERIFY(text.contains(QStringLiteral("0.004000000000000001")));
        QVERIFY(!text.contains(QStringLiteral("gives exactly the lesson's risk")));
        // And docs/lesson.md says where the lesson rounded its renormalised 0.628 / 0.141.
        QFile lesson(logitlab::test::dataPath(QStringLiteral("../../docs/lesson.md")));
        QVERIFY(lesson.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(lesson.readAll()).contains(QStringLiteral("0.62853, 0.23122, 0.14024")));
    }

    void wilson_data()
    {
        QTest::addColumn<qulonglong>("hits");
        QTest::addColumn<qulonglong>("trials");
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        // The closed form evaluated independently in Python; 0 and all hits pin a bound exactly.
        QTest::newRow("50/100") << 50ull << 100ull << 0.4038315303659956 << 0.5961684696340044;
        QTest::newRow("0/10") << 0ull << 10ull << 0.0 << 0.2775327998628892;
        QTest::newRow("10/10") << 10ull << 10ull << 0.7224672001371107 << 1.0;
        QTest::newRow("3/1000") << 3ull << 1000ull << 0.0010207838811386186 << 0.008783014053503173;
    }

    void wilson()
    {
        QFETCH(qulonglong, hits);
        QFETCH(qulonglong, trials);
        QFETCH(double, low);
        QFETCH(double, high);
        const Interval interval = wilsonInterval(hits, trials);
        QVERIFY2(std::abs(interval.low - low) < 1e-12, qPrintable(QString::number(interval.low, 'g', 17)));
        QVERIFY2(std::abs(interval.high - high) < 1e-12, qPrintable(QString::number(interval.high, 'g', 17)));
    }

    void junkDefinitions()
    {
        const Eigen::ArrayXd p = softmax(lessonLogits(), 1.0);  // .577 .212 .129 .078 .0039
        using K = JunkDefinition::Kind;
        QCOMPARE(junkMask(p, {K::BelowProbability, 0.01, {}}).value(), (std::vector<std::uint8_t>{0, 0, 0, 0, 1}));
        QCOMPARE(junkMask(p, {K::BelowProbability, 0.1, {}}).value(), (std::vector<std::uint8_t>{0, 0, 0, 1, 1}));
        // The tail holding at most 5%: banana (0.0039) only; adding result (0.078) would exceed it.
        QCOMPARE(junkMask(p, {K::TailMass, 0.05, {}}).value(), (std::vector<std::uint8_t>{0, 0, 0, 0, 1}));
        QCOMPARE(junkMask(p, {K::TailMass, 0.001, {}}).value(), (std::vector<std::uint8_t>{0, 0, 0, 0, 0}));
        QCOMPARE(junkMask(p, {K::Ids, 0, {1, 3}}).value(), (std::vector<std::uint8_t>{0, 1, 0, 1, 0}));
        const auto outside = junkMask(p, {K::Ids, 0, {5}});
        QVERIFY(!outside.ok());
        QVERIFY(outside.error().find("junk.ids.0:") != std::string::npos);
    }

    // The lesson: q = 0.004 per step, N = 300 gives P(no junk) = 0.996^300 = 0.30047...; the
    // Monte Carlo interval over 10^5 replies must contain it. Top-p 0.9 cuts banana: zero risk.
    void lessonCase()
    {
        JunkRiskParameters p;
        p.logits = lessonTailLogits();
        p.junk = {JunkDefinition::Kind::Ids, 0, {4}};
        p.decoders = {decoderFromSettings("plain", settings(1.0)),
                      decoderFromSettings("top-p 0.9", settings(1.0, {}, 0.9))};
        p.lengths = {1, 300};
        p.replies = 100'000;
        p.seed = 42;
        const auto experiment = JunkRiskExperiment::prepare(p);
        QVERIFY2(experiment.ok(), experiment.ok() ? "" : experiment.error().c_str());
        const auto rows = experiment->rows(runAll(*experiment));
        QCOMPARE(rows.size(), std::size_t{4});

        const JunkRiskRow& plain = rows[1];
        QCOMPARE(plain.length, std::int64_t{300});
        QVERIFY(std::abs(plain.qAfter - 0.004) < 1e-15);
        QVERIFY(std::abs((1.0 - plain.analytic) - 0.3004702837458487) < 1e-12);
        QVERIFY(std::abs(plain.expectedCount - 1.2) < 1e-12);
        const double noJunkLow = 1.0 - plain.high;
        const double noJunkHigh = 1.0 - plain.low;
        QVERIFY2(noJunkLow <= 0.3004702837458487 && 0.3004702837458487 <= noJunkHigh,
                 qPrintable(QStringLiteral("[%1, %2]").arg(noJunkLow).arg(noJunkHigh)));
        QVERIFY(std::abs(plain.meanCount - 1.2) < 0.02);

        for (const JunkRiskRow& row : {rows[2], rows[3]}) {
            QCOMPARE(row.setting, std::string("top-p 0.9"));
            QCOMPARE(row.qAfter, 0.0);
            QCOMPARE(row.analytic, 0.0);
            QCOMPARE(row.repliesWithJunk, std::uint64_t{0});
            QCOMPARE(row.monteCarlo, 0.0);
            QCOMPARE(row.low, 0.0);
            QVERIFY(std::abs(row.qBefore - 0.004) < 1e-15);
        }
    }

    void analyticMatchesMonteCarlo_data()
    {
        QTest::addColumn<JunkRiskParameters>("parameters");
        const auto make = [](Eigen::ArrayXd logits, JunkDefinition junk, SamplerSettings s, std::uint64_t seed,
                             std::string rng) {
            JunkRiskParameters p;
            p.logits = std::move(logits);
            p.junk = std::move(junk);
            p.decoders = {decoderFromSettings(describeSettings(s), s)};
            p.lengths = {1, 10, 50, 300, 1000};
            p.replies = 20'000;
            p.seed = seed;
            p.rng = std::move(rng);
            return p;
        };
        using K = JunkDefinition::Kind;
        QTest::newRow("lesson T=1 mulberry32")
            << make(lessonLogits(), {K::Ids, 0, {4}}, settings(1.0), 1, "mulberry32");
        QTest::newRow("lesson T=1.5 mt19937") << make(lessonLogits(), {K::Ids, 0, {3, 4}}, settings(1.5), 2, "mt19937");
        QTest::newRow("lesson T=2 top-p .99")
            << make(lessonLogits(), {K::Ids, 0, {4}}, settings(2.0, {}, 0.99), 3, "mt19937_64");
        QTest::newRow("zipf 5000 tail 1%")
            << make(zipfLogits(5000, 1.0), {K::TailMass, 0.01, {}}, settings(1.0), 4, "mt19937_64");
        QTest::newRow("zipf 5000 T=1.2 top-k 4000")
            << make(zipfLogits(5000, 1.0), {K::TailMass, 0.05, {}}, settings(1.2, 4000), 5, "mt19937_64");
        QTest::newRow("normal 20000 p<1e-5")
            << make(normalLogits(20000, 2.0, 9), {K::BelowProbability, 1e-5, {}}, settings(1.0), 6, "mt19937_64");
    }

    // Each Monte Carlo point against the analytic curve, with a 99.9% Wilson interval: 30 checks
    // at 95% would be expected to miss once or twice by chance.
    void analyticMatchesMonteCarlo()
    {
        QFETCH(JunkRiskParameters, parameters);
        const auto experiment = JunkRiskExperiment::prepare(parameters);
        QVERIFY2(experiment.ok(), experiment.ok() ? "" : experiment.error().c_str());
        QVERIFY(experiment->qAfter(0) > 0.0);
        const JunkRiskCounts counts = runAll(*experiment);
        for (const JunkRiskRow& row : experiment->rows(counts)) {
            const Interval wide = wilsonInterval(row.repliesWithJunk, row.replies, 3.2905);
            QVERIFY2(wide.low <= row.analytic && row.analytic <= wide.high,
                     qPrintable(QStringLiteral("N=%1 analytic %2 outside [%3, %4]")
                                    .arg(row.length)
                                    .arg(row.analytic)
                                    .arg(wide.low)
                                    .arg(wide.high)));
            QVERIFY(row.low <= row.monteCarlo && row.monteCarlo <= row.high);
        }
    }

    // The same comparison notices a junk rate that is 10% off: the check above has power.
    void monteCarloDetectsWrongRate()
    {
        JunkRiskParameters p;
        p.logits = lessonTailLogits();
        p.junk = {JunkDefinition::Kind::Ids, 0, {4}};
        p.decoders = {decoderFromSettings("plain", settings(1.0))};
        p.lengths = {300};
        p.replies = 100'000;
        const auto experiment = JunkRiskExperiment::prepare(p);
        const JunkRiskRow row = experiment->rows(runAll(*experiment)).front();
        const double wrong = probabilityAtLeastOnce(0.0044, 300);
        QVERIFY(wrong > row.high);
    }

    // Item i gives the same tallies whichever order the items run in, and settings do not
    // influence each other's streams.
    void itemsAreIndependent()
    {
        JunkRiskParameters p;
        p.logits = zipfLogits(1000, 1.0);
        p.junk = {JunkDefinition::Kind::TailMass, 0.02, {}};
        p.decoders = {decoderFromSettings("plain", settings(1.0))};
        p.lengths = {100, 2000};
        p.replies = 3000;
        const auto one = JunkRiskExperiment::prepare(p).value();
        QVERIFY(one.itemCount() > 2);
        JunkRiskCounts forward = one.emptyCounts();
        for (std::size_t i = 0; i < one.itemCount(); ++i)
            one.runItem(i, forward);
        JunkRiskCounts backward = one.emptyCounts();
        for (std::size_t i = one.itemCount(); i-- > 0;)
            one.runItem(i, backward);
        QCOMPARE(forward.firstJunk, backward.firstJunk);
        QCOMPARE(forward.junkTokens, backward.junkTokens);

        p.decoders.push_back(decoderFromSettings("top-k 50", settings(1.0, 50)));
        const auto two = JunkRiskExperiment::prepare(p).value();
        const JunkRiskCounts both = runAll(two);
        QCOMPARE(both.firstJunk[0], forward.firstJunk[0]);
        QCOMPARE(both.junkTokens[1], std::vector<std::uint64_t>(2, 0));  // top-50 keeps no tail token
    }

    void rejectsBadParameters()
    {
        JunkRiskParameters p;
        p.logits = lessonLogits();
        p.decoders = {decoderFromSettings("plain", settings(1.0))};
        p.lengths = {300, 10};
        QVERIFY(JunkRiskExperiment::prepare(p).error().find("lengths") == 0);
        p.lengths = {0};
        QVERIFY(JunkRiskExperiment::prepare(p).error().find("lengths") == 0);
        p.lengths = {10};
        p.rng = "dice";
        QVERIFY(JunkRiskExperiment::prepare(p).error().find("rng") == 0);
        p.rng = "mulberry32";
        p.decoders.clear();
        QVERIFY(JunkRiskExperiment::prepare(p).error().find("settings") == 0);
    }
};

QTEST_APPLESS_MAIN(TestJunkRisk)
#include "tst_junk_risk.moc"
