// Junk risk along a reply: the per-step risk 1 - prod (1 - q_t) against hand-worked numbers and
// against the one-distribution experiment when q never changes, the Monte Carlo against its
// interval, the two sources of a reply (an imported file's steps, the built-in model's reply),
// the experiment-file keys (strict, round trip), the same CSV bytes for 1 and 4 threads, and
// `logitlab-cli run` writing a CSV whose values are read back.
#include "app/kinds/junk_risk_job.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/reply_junk_risk_job.h"
#include "app/kinds/step_source.h"
#include "engine/experiments/decoder.h"
#include "engine/experiments/junk_risk.h"
#include "engine/experiments/reply_junk_risk.h"
#include "engine/sampler/softmax.h"
#include "engine/stats/statistics.h"
#include "support/array_fixtures.h"
#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace logitlab;
using engine::JunkDefinition;

namespace {

engine::Decoder plain() { return engine::decoderFromSettings("plain", engine::SamplerSettings{1.0, {}, {}}); }

// Two tokens per step, "other" and "junk", junk with probability q.
Eigen::ArrayXd pairLogits(double q)
{
    Eigen::ArrayXd logits(2);
    logits << std::log1p(-q), std::log(q);
    return logits;
}

engine::ReplyJunkRiskParameters replyParameters(std::uint64_t replies, std::uint64_t seed)
{
    engine::ReplyJunkRiskParameters p;
    p.junk = {JunkDefinition::Kind::Ids, 0.0, {1}};
    p.decoders = {plain()};
    p.replies = replies;
    p.seed = seed;
    return p;
}

engine::JunkRiskCounts runAll(const engine::ReplyJunkRiskExperiment& experiment)
{
    engine::JunkRiskCounts counts = experiment.emptyCounts();
    for (std::size_t i = 0; i < experiment.itemCount(); ++i)
        experiment.runItem(i, counts);
    return counts;
}

// A [steps, 3] float64 .npy whose step s has probabilities {0.5, 0.5 - q_s, q_s} (token 2 junk).
QByteArray stepsNpy(const std::vector<double>& q)
{
    QByteArray data;
    for (double x : q)
        for (double p : {0.5, 0.5 - x, x})
            data += test::elementBytes(std::log(p), 'd', false);
    return test::npyFile("<f8", false, test::pythonShape({q.size(), 3}), data);
}

const std::vector<double> kFileQ{0.01, 0.2, 0.05, 0.3, 0.125};

QString experimentJson(const QString& distributionOrReply, const QString& extra = {})
{
    return QStringLiteral(R"({"logitlab": 1, "experiment": "junk-risk", "name": "reply-test", %1,
        "junk": {"kind": "ids", "ids": [2]}, "settings": [{"label": "plain", "temperature": 1}],
        "replies": 4000, "seed": 11 %2})")
        .arg(distributionOrReply, extra);
}

QString builtinReplyJson(const QString& replyKeys)
{
    return QStringLiteral(R"({"logitlab": 1, "experiment": "junk-risk", "name": "reply-test", "reply": {%1},
        "junk": {"kind": "below-probability", "threshold": 0.001},
        "settings": [{"label": "plain", "temperature": 1}, {"label": "min-p", "semantics": "llama.cpp", "chain": "min-p=0.05,temperature=1"}],
        "replies": 3000, "seed": 5})")
        .arg(replyKeys);
}

app::JunkRiskSpec parsed(const QString& json)
{
    auto spec = app::parseJunkRiskText(json.toUtf8(), QStringLiteral("t.json"));
    if (!spec)
        qFatal("%s", spec.error().c_str());
    return spec.value();
}

// The CSV's data rows (after the '#' provenance lines and the header) as cells by column name.
QList<QMap<QString, QString>> csvRows(const QString& text)
{
    QList<QMap<QString, QString>> rows;
    QStringList header;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList cells = test::csvFields(line);
        if (header.isEmpty()) {
            header = cells;
            continue;
        }
        QMap<QString, QString> row;
        for (qsizetype i = 0; i < header.size() && i < cells.size(); ++i)
            row.insert(header[i], cells[i]);
        rows << row;
    }
    return rows;
}

}  // namespace

class TestJunkRiskReply : public QObject {
    Q_OBJECT

private slots:
    void cumulativeRiskOfConstantQ_data()
    {
        QTest::addColumn<double>("q");
        for (double q : {0.0, 1e-12, 0.004, 0.1, 0.5, 0.999, 1.0})
            QTest::newRow(qPrintable(QString::number(q))) << q;
    }
    void cumulativeRiskOfConstantQ()
    {
        QFETCH(double, q);
        const std::vector<double> risk = engine::cumulativeRisk(std::vector<double>(300, q));
        for (std::size_t n = 1; n <= risk.size(); ++n)
            QCOMPARE(risk[n - 1], engine::probabilityAtLeastOnce(q, static_cast<double>(n)));
    }

    // With the same q at every step, the reply experiment is the one-distribution experiment:
    // the same q, the same analytic risk (bit for bit) and the same Monte Carlo tallies.
    void constantQEqualsOneDistribution_data()
    {
        QTest::addColumn<double>("q");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("replies");
        QTest::newRow("lesson q, 300 tokens") << 0.004 << 300 << 2000;
        QTest::newRow("q 0.1, 7 tokens") << 0.1 << 7 << 5000;
        QTest::newRow("q 0.5, one token") << 0.5 << 1 << 1000;
        QTest::newRow("tiny q, 50 tokens") << 1e-9 << 50 << 1000;
        QTest::newRow("analytic only") << 0.02 << 40 << 0;
    }
    void constantQEqualsOneDistribution()
    {
        QFETCH(double, q);
        QFETCH(int, steps);
        QFETCH(int, replies);
        engine::JunkRiskParameters one;
        one.logits = pairLogits(q);
        one.junk = {JunkDefinition::Kind::Ids, 0.0, {1}};
        one.decoders = {plain()};
        for (int n = 1; n <= steps; ++n)
            one.lengths.push_back(n);
        one.replies = static_cast<std::uint64_t>(replies);
        one.seed = 9;
        const auto today = engine::JunkRiskExperiment::prepare(one);
        QVERIFY(today.ok());
        engine::JunkRiskCounts todayCounts = today->emptyCounts();
        for (std::size_t i = 0; i < today->itemCount(); ++i)
            today->runItem(i, todayCounts);
        const auto expected = today->rows(todayCounts);

        const auto along = engine::ReplyJunkRiskExperiment::prepare(
            replyParameters(static_cast<std::uint64_t>(replies), 9),
            engine::stepsFromLogits(std::vector<Eigen::ArrayXd>(static_cast<std::size_t>(steps), pairLogits(q))));
        QVERIFY2(along.ok(), along.ok() ? "" : along.error().c_str());
        const auto rows = along->rows(runAll(*along));
        QCOMPARE(rows.size(), expected.size());
        for (std::size_t t = 0; t < rows.size(); ++t) {
            QCOMPARE(rows[t].step, expected[t].length);
            QCOMPARE(rows[t].qAfter, expected[t].qAfter);
            QCOMPARE(rows[t].analytic, expected[t].analytic);
            QCOMPARE(rows[t].repliesWithJunk, expected[t].repliesWithJunk);
        }
    }

    void handWorkedSteps_data()
    {
        QTest::addColumn<QList<double>>("q");
        QTest::addColumn<QList<double>>("risk");
        QTest::addColumn<QList<double>>("expected");
        // 1 - 0.9 = 0.1; 1 - 0.9 * 0.8 = 0.28; 1 - 0.72 * 0.5 = 0.64.
        QTest::newRow("0.1, 0.2, 0.5") << QList<double>{0.1, 0.2, 0.5} << QList<double>{0.1, 0.28, 0.64}
                                       << QList<double>{0.1, 0.3, 0.8};
        QTest::newRow("a clean step") << QList<double>{0.5, 0.0, 0.5} << QList<double>{0.5, 0.5, 0.75}
                                      << QList<double>{0.5, 0.5, 1.0};
        QTest::newRow("certain junk last")
            << QList<double>{0.0, 0.0, 1.0} << QList<double>{0.0, 0.0, 1.0} << QList<double>{0.0, 0.0, 1.0};
    }
    void handWorkedSteps()
    {
        QFETCH(QList<double>, q);
        QFETCH(QList<double>, risk);
        QFETCH(QList<double>, expected);
        std::vector<Eigen::ArrayXd> steps;
        for (double x : q)
            steps.push_back(pairLogits(x));
        const auto along =
            engine::ReplyJunkRiskExperiment::prepare(replyParameters(0, 1), engine::stepsFromLogits(steps));
        QVERIFY(along.ok());
        const auto rows = along->rows(along->emptyCounts());
        QCOMPARE(rows.size(), std::size_t{3});
        for (std::size_t t = 0; t < 3; ++t) {
            const auto i = static_cast<qsizetype>(t);
            QVERIFY2(std::abs(rows[t].qAfter - q[i]) < 1e-15, qPrintable(QString::number(rows[t].qAfter, 'g', 17)));
            QVERIFY2(std::abs(rows[t].analytic - risk[i]) < 1e-15,
                     qPrintable(QString::number(rows[t].analytic, 'g', 17)));
            QVERIFY(std::abs(rows[t].expectedCount - expected[i]) < 1e-15);
            QVERIFY(std::isnan(rows[t].monteCarlo));  // no replies: no estimate, never a made-up 0
        }
    }

    // A chain changes q_t: top-k 1 keeps the clean top token, so no step can be junk.
    void chainChangesQ()
    {
        engine::ReplyJunkRiskParameters p = replyParameters(0, 1);
        p.decoders.push_back(engine::decoderFromSettings("top-k 1", engine::SamplerSettings{1.0, 1, {}}));
        const auto along =
            engine::ReplyJunkRiskExperiment::prepare(p, engine::stepsFromLogits({pairLogits(0.3), pairLogits(0.1)}));
        QVERIFY(along.ok());
        QVERIFY(std::abs(along->qAfter(0, 0) - 0.3) < 1e-15);
        QCOMPARE(along->qAfter(1, 0), 0.0);
        QCOMPARE(along->qAfter(1, 1), 0.0);
        QVERIFY(std::abs(along->qBefore(1) - 0.1) < 1e-15);
    }

    // Each step's estimate within its 95% interval of the truth, with a fixed seed; and a 10%
    // wrong truth outside it at the last step (the check has power).
    void monteCarloWithinInterval_data()
    {
        QTest::addColumn<QString>("rng");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("mt19937_64") << QStringLiteral("mt19937_64") << quint64{42};
        QTest::newRow("mulberry32") << QStringLiteral("mulberry32") << quint64{7};
    }
    void monteCarloWithinInterval()
    {
        QFETCH(QString, rng);
        QFETCH(quint64, seed);
        const std::vector<double> q{0.01, 0.05, 0.2, 0.001, 0.3, 0.02};
        std::vector<Eigen::ArrayXd> steps;
        for (double x : q)
            steps.push_back(pairLogits(x));
        auto p = replyParameters(40'000, seed);
        p.rng = rng.toStdString();
        const auto along = engine::ReplyJunkRiskExperiment::prepare(p, engine::stepsFromLogits(steps));
        QVERIFY(along.ok());
        const auto rows = along->rows(runAll(*along));
        for (const auto& row : rows)
            QVERIFY2(row.low <= row.analytic && row.analytic <= row.high,
                     qPrintable(QStringLiteral("step %1: %2 outside [%3, %4]")
                                    .arg(row.step)
                                    .arg(row.analytic)
                                    .arg(row.low)
                                    .arg(row.high)));
        const double wrong = 1.0 - 0.9 * (1.0 - rows.back().analytic);
        QVERIFY(wrong > rows.back().high);
    }

    // The file's steps, read in the range asked, give q per step as written.
    void fileStepsReadTheRange_data()
    {
        QTest::addColumn<QString>("steps");
        QTest::addColumn<QList<int>>("rows");
        QTest::newRow("all") << QStringLiteral(R"("all")") << QList<int>{0, 1, 2, 3, 4};
        QTest::newRow("1..3") << QStringLiteral(R"({"from": 1, "to": 3})") << QList<int>{1, 2, 3};
        QTest::newRow("last two") << QStringLiteral(R"({"from": -2})") << QList<int>{3, 4};
        QTest::newRow("one step") << QStringLiteral(R"({"from": 2, "to": -3})") << QList<int>{2};
    }
    void fileStepsReadTheRange()
    {
        QFETCH(QString, steps);
        QFETCH(QList<int>, rows);
        QTemporaryDir dir;
        test::writeFixture(dir, QStringLiteral("steps.npy"), stepsNpy(kFileQ));
        const auto spec = parsed(experimentJson(
            QStringLiteral(R"("distribution": {"kind": "file", "path": "steps.npy", "steps": %1})").arg(steps)));
        QVERIFY(spec.alongReply());
        const app::JunkRiskOutcome outcome = app::runJunkRisk(spec, dir.path(), QStringLiteral("t.json"), 2, {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.replyRows.size(), static_cast<std::size_t>(rows.size()));
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const auto& row = outcome.replyRows[static_cast<std::size_t>(i)];
            QCOMPARE(row.step, i + 1);
            QCOMPARE(row.sourceStep, static_cast<std::uint64_t>(rows[i]));
            QVERIFY(std::abs(row.qAfter - kFileQ[static_cast<std::size_t>(rows[i])]) < 1e-14);
        }
    }

    // The built-in model's steps are the loop's: the reply's tokens, and at each step the
    // model's probability of the chosen token as the loop recorded it.
    void builtinStepsFollowTheLoop()
    {
        app::ReplySpec reply;
        reply.prompt = QStringLiteral("the sampler picks");
        reply.length = 12;
        reply.chain = QStringLiteral("top-k=40,temperature=0.9");
        reply.seed = 3;
        const auto steps = app::replySteps(reply, QString());
        QVERIFY2(steps.ok(), steps.ok() ? "" : steps.error().c_str());
        QCOMPARE(steps->count, std::size_t{12});
        app::LoopSpec loopSpec;
        loopSpec.prompt = reply.prompt;
        loopSpec.chain = reply.chain;
        loopSpec.seed = reply.seed;
        auto made = app::makeLoop(loopSpec);
        QVERIFY(made.ok());
        engine::GenerationLoop loop = std::move(made).value();
        for (std::size_t t = 0; t < steps->count; ++t) {
            const engine::LoopStep step = loop.step();
            const auto logits = steps->logits(t);
            QVERIFY(logits.ok());
            const Eigen::ArrayXd p = engine::softmax(*logits, 1.0);
            QVERIFY(std::abs(p[step.token] - step.modelProbability) < 1e-12);
            const std::string& name = steps->tokens[static_cast<std::size_t>(step.token)];
            QCOMPARE(steps->chosen[t], name == "\n" ? std::string("\\n") : name);
        }
    }

    void badInputNamesTheKey_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const auto file = [](const QString& name, const QString& more) {
            return QStringLiteral(R"("distribution": {"kind": "file", "path": "%1", %2})").arg(name, more);
        };
        QTest::newRow("range outside the file")
            << experimentJson(file(QStringLiteral("steps.npy"), QStringLiteral(R"("steps": {"from": 0, "to": 9})")))
            << QStringLiteral("steps.npy: distribution.steps: to 9 is outside the array's 5 steps");
        QTest::newRow("from outside the file")
            << experimentJson(file(QStringLiteral("steps.npy"), QStringLiteral(R"("steps": {"from": -6})")))
            << QStringLiteral("steps.npy: distribution.steps: from -6 is outside");
        QTest::newRow("from after to") << experimentJson(file(QStringLiteral("steps.npy"),
                                                              QStringLiteral(R"("steps": {"from": 3, "to": -4})")))
                                       << QStringLiteral("distribution.steps: from 3 (step 3) is after to -4 (step 1)");
        QTest::newRow("to before from") << experimentJson(file(QStringLiteral("steps.npy"),
                                                               QStringLiteral(R"("steps": {"from": 3, "to": 1})")))
                                        << QStringLiteral("t.json: distribution.steps.to: 1 is before from (3)");
        QTest::newRow("one-row file") << experimentJson(
                                             file(QStringLiteral("one.npy"), QStringLiteral(R"("steps": "all")")))
                                      << QStringLiteral("one.npy: distribution.steps: the array holds one step");
        QTest::newRow("one-step 2-D file")
            << experimentJson(file(QStringLiteral("one2d.npy"), QStringLiteral(R"("steps": "all")")))
            << QStringLiteral("one2d.npy: distribution.steps: the array holds one step");
        QTest::newRow("text file")
            << experimentJson(file(QStringLiteral("logits.txt"), QStringLiteral(R"("steps": "all")")))
            << QStringLiteral("logits.txt: distribution.steps: a text file holds one distribution");
        QTest::newRow("steps and row") << experimentJson(file(QStringLiteral("steps.npy"),
                                                              QStringLiteral(R"("row": 1, "steps": "all")")))
                                       << QStringLiteral("t.json: distribution.steps: cannot be given with \"row\"");
        QTest::newRow("steps not all") << experimentJson(
                                              file(QStringLiteral("steps.npy"), QStringLiteral(R"("steps": "some")")))
                                       << QStringLiteral("t.json: distribution.steps: must be \"all\" or");
        QTest::newRow("steps unknown key")
            << experimentJson(file(QStringLiteral("steps.npy"), QStringLiteral(R"("steps": {"from": 0, "end": 2})")))
            << QStringLiteral("t.json: distribution.steps.end");
        QTest::newRow("lengths along a reply")
            << experimentJson(file(QStringLiteral("steps.npy"), QStringLiteral(R"("steps": "all")")),
                              QStringLiteral(R"(, "lengths": [1, 2])"))
            << QStringLiteral("t.json: lengths: not used along a reply");
        QTest::newRow("empty prompt") << builtinReplyJson(QStringLiteral(R"("prompt": "  ", "length": 5)"))
                                      << QStringLiteral("t.json: reply.prompt: must hold at least one word");
        QTest::newRow("no prompt") << builtinReplyJson(QStringLiteral(R"("length": 5)"))
                                   << QStringLiteral("t.json: reply.prompt: ");
        QTest::newRow("length 0") << builtinReplyJson(QStringLiteral(R"("prompt": "the model", "length": 0)"))
                                  << QStringLiteral("t.json: reply.length: ");
        QTest::newRow("length above the limit")
            << builtinReplyJson(QStringLiteral(R"("prompt": "the model", "length": 4097)"))
            << QStringLiteral("t.json: reply.length: ");
        QTest::newRow("bad chain") << builtinReplyJson(QStringLiteral(R"("prompt": "the model", "chain": "top-q=3")"))
                                   << QStringLiteral("t.json: reply.chain: ");
        QTest::newRow("unknown model") << builtinReplyJson(QStringLiteral(R"("prompt": "the model", "model": "gpt")"))
                                       << QStringLiteral("t.json: reply.model: ");
        QTest::newRow("reply and distribution")
            << builtinReplyJson(QStringLiteral(R"("prompt": "the model"}, "distribution": {"kind": "zipf")"))
            << QStringLiteral("t.json: reply: give either");
    }
    void badInputNamesTheKey()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        QTemporaryDir dir;
        test::writeFixture(dir, QStringLiteral("steps.npy"), stepsNpy(kFileQ));
        test::writeFixture(dir, QStringLiteral("one.npy"),
                           test::npyFile("<f8", false, test::pythonShape({3}),
                                         test::arrayData({3}, false, 'd', false, test::fixtureValue)));
        test::writeFixture(dir, QStringLiteral("one2d.npy"),
                           test::npyFile("<f8", false, test::pythonShape({1, 3}),
                                         test::arrayData({1, 3}, false, 'd', false, test::fixtureValue)));
        test::writeFixture(dir, QStringLiteral("logits.txt"), "1\n2\n3\n");
        auto spec = app::parseJunkRiskText(json.toUtf8(), QStringLiteral("t.json"));
        QString got;
        if (!spec) {
            got = QString::fromStdString(spec.error());
        } else {
            const auto outcome = app::runJunkRisk(spec.value(), dir.path(), QStringLiteral("t.json"), 1, {});
            QCOMPARE(outcome.status.state, app::RunStatus::State::Failed);
            got = outcome.status.message;
        }
        QVERIFY2(got.contains(message), qPrintable(got));
    }

    // Other experiments read one distribution: "steps" stays an unknown key there.
    void stepsOnlyWhereAReplyIsWalked()
    {
        app::DistributionSpec d;
        d.kind = app::DistributionSpec::Kind::File;
        d.path = QStringLiteral("x.npy");
        d.steps = app::StepRange{};
        QJsonObject object = app::distributionToJson(d);
        app::JsonObjectReader strict(object, QStringLiteral("distribution"));
        try {
            app::readDistribution(strict);
            QFAIL("steps read where no reply is walked");
        } catch (const app::JsonFieldError& e) {
            QCOMPARE(e.key, QStringLiteral("distribution.steps"));
        }
        const auto resolved = app::resolveDistribution(d, QString());
        QVERIFY(!resolved);
        QVERIFY(QString::fromStdString(resolved.error()).startsWith(QStringLiteral("distribution.steps:")));
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("file steps all") << experimentJson(QStringLiteral(
            R"("distribution": {"kind": "file", "path": "a.npz", "array": "logits", "batch": 1, "steps": "all"})"));
        QTest::newRow("file steps range") << experimentJson(
            QStringLiteral(R"("distribution": {"kind": "file", "path": "a.npy", "steps": {"from": -20, "to": -1}})"));
        QTest::newRow("file steps to default") << experimentJson(
            QStringLiteral(R"("distribution": {"kind": "file", "path": "a.npy", "steps": {"from": 4}})"));
        QTest::newRow("builtin reply") << builtinReplyJson(QStringLiteral(
            R"("prompt": "the model", "length": 30, "chain": "temperature=0.7", "seed": 9, "rng": "mt19937_64", "arithmetic": "exact")"));
        QTest::newRow("builtin reply, defaults") << builtinReplyJson(QStringLiteral(R"("prompt": "a prompt")"));
    }
    void roundTrip()
    {
        QFETCH(QString, json);
        const app::JunkRiskSpec spec = parsed(json);
        QVERIFY(spec.alongReply());
        const auto again = app::parseJunkRisk(app::toJson(spec), QStringLiteral("again"));
        QVERIFY2(again.ok(), again.ok() ? "" : again.error().c_str());
        QVERIFY(again.value() == spec);
    }

    // Same inputs, same CSV bytes, whatever the thread count.
    void threadsGiveTheSameCsv_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("file steps") << experimentJson(
            QStringLiteral(R"("distribution": {"kind": "file", "path": "steps.npy", "steps": "all"})"));
        QTest::newRow("builtin reply") << builtinReplyJson(
            QStringLiteral(R"("prompt": "the sampler", "length": 15, "seed": 2)"));
    }
    void threadsGiveTheSameCsv()
    {
        QFETCH(QString, json);
        QTemporaryDir dir;
        test::writeFixture(dir, QStringLiteral("steps.npy"), stepsNpy(kFileQ));
        const app::JunkRiskSpec spec = parsed(json);
        QStringList csv;
        for (int threads : {1, 4}) {
            const auto outcome = app::runJunkRisk(spec, dir.path(), QStringLiteral("t.json"), threads, {});
            QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
            csv << app::junkRiskCsv(app::junkRiskProvenance(spec, dir.path()), outcome.replyRows);
        }
        QCOMPARE(csv[0], csv[1]);
        QVERIFY(csv[0].contains(QStringLiteral("p_any_analytic")));
        if (!spec.reply)
            QVERIFY(csv[0].contains(QStringLiteral("sha256=")));  // the imported file, by hash
    }

    // The shipped example through the CLI: the CSV read back (the risk is 1 - prod (1 - q_t)
    // of its own q column, the estimate inside its interval), the same bytes for 1 and 4 threads.
    void cliWritesTheCsv()
    {
        QTemporaryDir dir;
        QByteArray first;
        for (const QString& threads : {QStringLiteral("1"), QStringLiteral("4")}) {
            const QString out = dir.filePath(threads);
            const test::CliRun run = test::runCli(
                {QStringLiteral("run"), test::examplePath(QStringLiteral("junk-risk-reply-builtin.json")),
                 QStringLiteral("--out"), out, QStringLiteral("--formats"), QStringLiteral("csv"),
                 QStringLiteral("--threads"), threads, QStringLiteral("--set"), QStringLiteral("replies=2000")});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QFile csv(QDir(out).filePath(QStringLiteral("junk-risk-reply-builtin.csv")));
            QVERIFY2(csv.open(QIODevice::ReadOnly), qPrintable(csv.fileName()));
            const QByteArray bytes = csv.readAll();
            if (first.isEmpty()) {
                first = bytes;
                continue;
            }
            QCOMPARE(bytes, first);
        }
        const auto rows = csvRows(QString::fromUtf8(first));
        QVERIFY(rows.size() >= 2);
        QString setting;
        double none = 1.0;
        for (const auto& row : rows) {
            if (row.value(QStringLiteral("setting")) != setting) {
                setting = row.value(QStringLiteral("setting"));
                none = 1.0;
            }
            none *= 1.0 - row.value(QStringLiteral("q_after")).toDouble();
            const double analytic = row.value(QStringLiteral("p_any_analytic")).toDouble();
            QVERIFY2(std::abs(analytic - (1.0 - none)) < 1e-12, qPrintable(row.value(QStringLiteral("step"))));
            QCOMPARE(row.value(QStringLiteral("replies")), QStringLiteral("2000"));
            const double mc = row.value(QStringLiteral("p_any_mc")).toDouble();
            QVERIFY(row.value(QStringLiteral("p_any_mc_low")).toDouble() <= mc);
            QVERIFY(mc <= row.value(QStringLiteral("p_any_mc_high")).toDouble());
            QVERIFY(!row.value(QStringLiteral("token")).isEmpty());
        }
        QVERIFY(first.contains("# reply: builtin model"));
    }
};

QTEST_GUILESS_MAIN(TestJunkRiskReply)
#include "tst_junk_risk_reply.moc"
