// Every number of the lesson, from lesson-golden.json (computed with the lesson's own code).
// Probabilities must agree to ~1e-15; seeded draws must agree exactly.
#include "engine/rng/mulberry32.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/sample.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/statistics.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <map>

using namespace logitlab;
using namespace logitlab::engine;

namespace {

constexpr double kTolerance = 1e-15;

Distribution distributionFor(const QString& section)
{
    return section == QLatin1String("exercise") ? lessonExercise() : lessonExample();
}

SamplerSettings settingsFrom(const QJsonObject& json)
{
    SamplerSettings s;
    s.temperature = json.value(QStringLiteral("temperature")).toDouble();
    if (json.contains(QStringLiteral("topK")))
        s.topK = json.value(QStringLiteral("topK")).toInt();
    if (json.contains(QStringLiteral("topP")))
        s.topP = json.value(QStringLiteral("topP")).toDouble();
    return s;
}

}  // namespace

class TestLessonGolden : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_golden = test::lessonGolden();
        QVERIFY(!m_golden.isEmpty());
    }

    void logitsMatchTheFile_data()
    {
        QTest::addColumn<QString>("section");
        QTest::newRow("lesson_example") << QStringLiteral("lesson_example");
        QTest::newRow("exercise") << QStringLiteral("exercise");
    }
    void logitsMatchTheFile()
    {
        QFETCH(QString, section);
        const QJsonObject s = m_golden.value(section).toObject();
        const Distribution d = distributionFor(section);
        const QJsonArray logits = s.value(QStringLiteral("logits")).toArray();
        const QJsonArray tokens = s.value(QStringLiteral("tokens")).toArray();
        QCOMPARE(d.logits.size(), logits.size());
        for (int i = 0; i < logits.size(); ++i) {
            QCOMPARE(d.logits[i], logits[i].toDouble());
            QCOMPARE(QString::fromStdString(d.tokens[static_cast<std::size_t>(i)]), tokens[i].toString());
        }
    }

    void softmaxTables_data()
    {
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("temperature");
        for (const QString& section : {QStringLiteral("lesson_example"), QStringLiteral("exercise")}) {
            const QJsonObject tables = m_golden.value(section).toObject().value(QStringLiteral("softmax")).toObject();
            for (const QString& t : tables.keys())
                QTest::addRow("%s T=%s", qPrintable(section), qPrintable(t)) << section << t;
        }
    }
    void softmaxTables()
    {
        QFETCH(QString, section);
        QFETCH(QString, temperature);
        const QJsonArray expected =
            m_golden.value(section).toObject().value(QStringLiteral("softmax")).toObject().value(temperature).toArray();
        const Eigen::ArrayXd p = softmax(distributionFor(section).logits, temperature.toDouble());
        QCOMPARE(p.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i) {
            const double e = expected[i].toDouble();
            QVERIFY2(std::abs(p[i] - e) <= kTolerance * std::max(1.0, std::abs(e)),
                     qPrintable(QStringLiteral("token %1: %2 vs %3").arg(i).arg(p[i], 0, 'g', 17).arg(e, 0, 'g', 17)));
        }
    }

    void survivors_data()
    {
        QTest::addColumn<QString>("section");
        QTest::addColumn<int>("index");
        for (const QString& section : {QStringLiteral("lesson_example"), QStringLiteral("exercise")}) {
            const QJsonArray list = m_golden.value(section).toObject().value(QStringLiteral("candidates")).toArray();
            for (int i = 0; i < list.size(); ++i) {
                const QJsonObject settings = list[i].toObject().value(QStringLiteral("settings")).toObject();
                QTest::addRow("%s %s", qPrintable(section),
                              qPrintable(QString::fromUtf8(QJsonDocument(settings).toJson(QJsonDocument::Compact))))
                    << section << i;
            }
        }
    }
    void survivors()
    {
        QFETCH(QString, section);
        QFETCH(int, index);
        const QJsonObject golden =
            m_golden.value(section).toObject().value(QStringLiteral("candidates")).toArray()[index].toObject();
        const SamplerSettings settings = settingsFrom(golden.value(QStringLiteral("settings")).toObject());
        const CandidateList got = candidates(distributionFor(section).logits, settings);
        const QJsonArray expected = golden.value(QStringLiteral("survivors")).toArray();
        QCOMPARE(static_cast<qsizetype>(got.size()), expected.size());
        for (int i = 0; i < expected.size(); ++i) {
            const QJsonObject e = expected[i].toObject();
            QCOMPARE(got[static_cast<std::size_t>(i)].id, e.value(QStringLiteral("id")).toInt());
            const double p = e.value(QStringLiteral("p")).toDouble();
            QVERIFY2(std::abs(got[static_cast<std::size_t>(i)].p - p) <= kTolerance,
                     qPrintable(
                         QStringLiteral("survivor %1: %2 vs %3").arg(i).arg(got[i].p, 0, 'g', 17).arg(p, 0, 'g', 17)));
        }
    }

    void greedyPicksTheArgmax()
    {
        QCOMPARE(argmax(lessonExample().logits), 0);   // users
        QCOMPARE(argmax(lessonExercise().logits), 0);  // =>
    }

    void mulberry32FirstOutputs_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<QString>("key");
        QTest::newRow("seed 42") << 42u << QStringLiteral("mulberry32_seed42_first5");
        QTest::newRow("seed 0") << 0u << QStringLiteral("mulberry32_seed0_first3");
    }
    void mulberry32FirstOutputs()
    {
        QFETCH(quint32, seed);
        QFETCH(QString, key);
        Mulberry32 rng(seed);
        for (const auto& v : m_golden.value(key).toArray())
            QCOMPARE(rng.nextDouble(), v.toDouble());  // exact: same bits as JavaScript
    }

    void exerciseDrawsAreExact()
    {
        const QJsonObject golden = m_golden.value(QStringLiteral("exercise_draws")).toObject();
        const Distribution d = lessonExercise();
        const CandidateList list =
            candidates(d.logits, settingsFrom(golden.value(QStringLiteral("settings")).toObject()));
        Mulberry32 rng(static_cast<std::uint64_t>(golden.value(QStringLiteral("seed")).toInt()));
        std::map<std::string, int> counts;
        QList<int> first20;
        const int draws = golden.value(QStringLiteral("draws")).toInt();
        QCOMPARE(draws, 1000);
        for (int i = 0; i < draws; ++i) {
            const int id = sample(list, rng);
            ++counts[d.tokens[static_cast<std::size_t>(id)]];
            if (i < 20)
                first20 << id;
        }
        const QJsonObject expected = golden.value(QStringLiteral("counts")).toObject();
        QCOMPARE(static_cast<qsizetype>(counts.size()), expected.size());  // async and // never appear
        for (const QString& token : expected.keys())
            QCOMPARE(counts[token.toStdString()], expected.value(token).toInt());
        QCOMPARE(counts["=>"], 493);
        QCOMPARE(counts["{"], 393);
        QCOMPARE(counts["("], 114);
        QList<int> expectedFirst;
        for (const auto& v : golden.value(QStringLiteral("first20_ids")).toArray())
            expectedFirst << v.toInt();
        QCOMPARE(first20, expectedFirst);
    }

    void junkEstimate()
    {
        const QJsonObject junk = m_golden.value(QStringLiteral("junk")).toObject();
        const double q = junk.value(QStringLiteral("per_step_junk_mass")).toDouble();
        const double n = junk.value(QStringLiteral("length")).toDouble();
        // The lesson computes 0.996 ** 300; pow is correctly rounded here, so bits agree.
        QCOMPARE(std::pow(1.0 - q, n), junk.value(QStringLiteral("p_no_junk")).toDouble());
        QVERIFY(std::abs(probabilityAtLeastOnce(q, n) - junk.value(QStringLiteral("p_at_least_one")).toDouble()) <
                1e-15);
    }

    void latency()
    {
        const QJsonObject l = m_golden.value(QStringLiteral("latency")).toObject();
        QCOMPARE(l.value(QStringLiteral("passes")).toDouble() * l.value(QStringLiteral("ms_per_pass")).toDouble() /
                     1000.0,
                 l.value(QStringLiteral("total_s")).toDouble());
    }

    void floatOrder()
    {
        const QJsonArray rows = m_golden.value(QStringLiteral("float_order")).toArray();
        // The same four expressions, evaluated in C++ doubles in the same order.
        volatile double a = 0.1, b = 1e20, c = -1e20, x = 0.2, y = 0.3;  // volatile: no constant folding
        const double values[] = {(a + b) + c, a + (b + c), (a + x) + y, a + (x + y)};
        QCOMPARE(rows.size(), 4);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(values[i], rows[i].toObject().value(QStringLiteral("value")).toDouble());
        QVERIFY(values[2] != values[3] && values[2] > values[3]);
    }

private:
    QJsonObject m_golden;
};

QTEST_GUILESS_MAIN(TestLessonGolden)
#include "tst_lesson_golden.moc"
