// Junk risk with any stateless chain of the zoo (settings {"label", "semantics", "chain"}):
// the analytic risk under llama.cpp's min-p and hf's and llama.cpp's top-k with ties equals
// 1 - (1 - q)^N for the junk mass q the chain's own survivors give, the Monte Carlo agrees with
// it, stateful stages and mixed keys are refused by name, and the page's settings lines
// round-trip.
#include "app/io/experiment_file.h"
#include "app/kinds/junk_risk_job.h"
#include "app/kinds/junk_risk_spec.h"
#include "app/text/setting_lines.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace logitlab;

namespace {

QJsonObject fileWith(const QJsonArray& logits, const QJsonArray& junkIds, const QJsonObject& setting, qint64 replies)
{
    return QJsonObject{{QStringLiteral("logitlab"), 1},
                       {QStringLiteral("experiment"), QStringLiteral("junk-risk")},
                       {QStringLiteral("name"), QStringLiteral("t")},
                       {QStringLiteral("distribution"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("logits")},
                                                                    {QStringLiteral("logits"), logits}}},
                       {QStringLiteral("junk"),
                        QJsonObject{{QStringLiteral("kind"), QStringLiteral("ids")}, {QStringLiteral("ids"), junkIds}}},
                       {QStringLiteral("settings"), QJsonArray{setting}},
                       {QStringLiteral("lengths"), QJsonArray{1, 10, 100, 1000}},
                       {QStringLiteral("replies"), replies},
                       {QStringLiteral("seed"), 11}};
}

QJsonObject chainSetting(const QString& semantics, const QString& chain)
{
    return {{QStringLiteral("semantics"), semantics}, {QStringLiteral("chain"), chain}};
}

// Softmax of the logits at T = 1, by hand.
std::vector<double> softmax(const std::vector<double>& logits)
{
    double max = logits[0];
    for (double l : logits)
        max = std::max(max, l);
    std::vector<double> p;
    double sum = 0;
    for (double l : logits)
        sum += std::exp(l - max);
    for (double l : logits)
        p.push_back(std::exp(l - max) / sum);
    return p;
}

}  // namespace

class TestJunkRiskChain : public QObject {
    Q_OBJECT

private slots:
    void analyticRiskFollowsTheChain_data()
    {
        QTest::addColumn<QString>("semantics");
        QTest::addColumn<QString>("chain");
        QTest::addColumn<std::vector<double>>("logits");
        QTest::addColumn<int>("junk");
        QTest::addColumn<double>("q");  // the junk token's share after the chain, worked out by hand
        const std::vector<double> lesson{3, 2, 1.5, 1, -2};
        const auto p = softmax(lesson);
        // min-p keeps p >= min-p * p_max: banana (p = 0.0046) falls under 0.01 * 0.51 and stays above 0.005 * 0.51.
        QTest::newRow("llama.cpp min-p 0.01 cuts banana")
            << QStringLiteral("llama.cpp") << QStringLiteral("min-p=0.01,temperature=1") << lesson << 4 << 0.0;
        QTest::newRow("llama.cpp min-p 0.005 keeps it")
            << QStringLiteral("llama.cpp") << QStringLiteral("min-p=0.005,temperature=1") << lesson << 4 << p[4];
        // hf min-p scales by the top probability too, and keeps the rest renormalised.
        QTest::newRow("hf min-p 0.2 keeps users, data, items")
            << QStringLiteral("hf") << QStringLiteral("min-p=0.2,temperature=1") << lesson << 2
            << p[2] / (p[0] + p[1] + p[2]);
        // Three tokens tied at the boundary of top-k 2: HF keeps every token whose logit equals the
        // k-th (torch.topk's value, then `logits < kth` masked), llama.cpp exactly k (lower ids).
        const std::vector<double> tied{2, 2, 2, 1};
        const double third = std::exp(2.0) / (3 * std::exp(2.0));
        QTest::newRow("hf top-k 2 keeps the tie")
            << QStringLiteral("hf") << QStringLiteral("top-k=2") << tied << 2 << third;
        QTest::newRow("llama.cpp top-k 2 keeps exactly two")
            << QStringLiteral("llama.cpp") << QStringLiteral("top-k=2,temperature=1") << tied << 2 << 0.0;
    }
    void analyticRiskFollowsTheChain()
    {
        QFETCH(QString, semantics);
        QFETCH(QString, chain);
        QFETCH(std::vector<double>, logits);
        QFETCH(int, junk);
        QFETCH(double, q);
        QJsonArray values;
        for (double l : logits)
            values.append(l);
        const auto spec = app::parseJunkRisk(fileWith(values, QJsonArray{junk}, chainSetting(semantics, chain), 40000),
                                             QStringLiteral("t.json"));
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->settings.front().label, semantics + QStringLiteral(": ") + chain);
        app::WorkControl control;
        const auto outcome = app::runJunkRisk(spec.value(), QString(), QStringLiteral("t.json"), 2, control);
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.rows.size(), std::size_t{4});
        for (const auto& row : outcome.rows) {
            QVERIFY2(std::abs(row.qAfter - q) < 1e-12,
                     qPrintable(QStringLiteral("q after %1, expected %2").arg(row.qAfter).arg(q)));
            const double analytic = 1 - std::pow(1 - q, static_cast<double>(row.length));
            QVERIFY(std::abs(row.analytic - analytic) < 1e-12);
            // 40,000 replies: the Monte Carlo's 95% interval holds the truth (a fixed seed, so
            // this is a fixed check; exact zero stays exactly zero).
            if (q == 0.0)
                QCOMPARE(row.repliesWithJunk, std::uint64_t{0});
            else
                QVERIFY2(row.low <= analytic && analytic <= row.high,
                         qPrintable(QStringLiteral("N=%1: %2 outside [%3, %4]")
                                        .arg(row.length)
                                        .arg(analytic)
                                        .arg(row.low)
                                        .arg(row.high)));
        }
    }

    void badChainsAreRefusedByName_data()
    {
        QTest::addColumn<QJsonObject>("setting");
        QTest::addColumn<QString>("message");
        QTest::newRow("stateful") << chainSetting(QStringLiteral("llama.cpp"),
                                                  QStringLiteral("xtc:probability=0.5:threshold=0.1"))
                                  << QStringLiteral("t.json: settings.0.chain: '");
        QTest::newRow("unknown stage") << chainSetting(QStringLiteral("hf"), QStringLiteral("beam=3"))
                                       << QStringLiteral("t.json: settings.0.chain: ");
        QTest::newRow("unknown preset") << chainSetting(QStringLiteral("ollama"), QStringLiteral("top-k=3"))
                                        << QStringLiteral("t.json: settings.0.semantics: ");
        QTest::newRow("empty chain") << chainSetting(QStringLiteral("hf"), QString())
                                     << QStringLiteral("t.json: settings.0.chain: must not be empty");
        QJsonObject mixed = chainSetting(QStringLiteral("hf"), QStringLiteral("top-k=3"));
        mixed.insert(QStringLiteral("top-p"), 0.9);
        QTest::newRow("lesson keys beside a chain") << mixed << QStringLiteral("t.json: settings.0.top-p: ");
        QJsonObject fast = chainSetting(QStringLiteral("vllm"), QStringLiteral("top-p=0.8"));
        fast.insert(QStringLiteral("arithmetic"), QStringLiteral("fast"));
        QTest::newRow("unknown arithmetic")
            << fast << QStringLiteral("t.json: settings.0.arithmetic: must be one of exact, library, got \"fast\"");
    }
    void badChainsAreRefusedByName()
    {
        QFETCH(QJsonObject, setting);
        QFETCH(QString, message);
        const auto spec = app::parseJunkRisk(fileWith({1, 2}, {0}, setting, 100), QStringLiteral("t.json"));
        QVERIFY(!spec);
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(message), spec.error().c_str());
        if (QTest::currentDataTag() == QByteArray("stateful"))
            QVERIFY(QString::fromStdString(spec.error()).contains(QStringLiteral("stateless chain")));
    }

    void fileRoundTripsAChain()
    {
        QJsonObject setting = chainSetting(QStringLiteral("vllm"), QStringLiteral("top-p=0.99"));
        setting.insert(QStringLiteral("label"), QStringLiteral("vllm nucleus"));
        const auto spec = app::parseJunkRisk(fileWith({3, 2, 1}, {2}, setting, 100), QStringLiteral("t.json"));
        QVERIFY(spec);
        const QJsonObject written = app::toJson(spec.value());
        QCOMPARE(written[QStringLiteral("settings")].toArray().first().toObject(), setting);
        QVERIFY(app::parseJunkRisk(written, QStringLiteral("again")).value() == spec.value());
    }

    // Issue 18: a setting's arithmetic round-trips and the provenance names what each used.
    void arithmeticRoundTripsAndIsRecorded()
    {
        QJsonObject setting = chainSetting(QStringLiteral("vllm"), QStringLiteral("top-p=0.8"));
        setting.insert(QStringLiteral("label"), QStringLiteral("float"));
        setting.insert(QStringLiteral("arithmetic"), QStringLiteral("library"));
        const auto spec = app::parseJunkRisk(fileWith({3, 2, 1}, {2}, setting, 100), QStringLiteral("t.json"));
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->settings.first().arithmetic, QStringLiteral("library"));
        QCOMPARE(app::toJson(spec.value())[QStringLiteral("settings")].toArray().first().toObject(), setting);
        const QStringList lines = app::junkRiskProvenance(spec.value(), QString()).csvCommentLines();
        QVERIFY2(lines.contains(QStringLiteral("# arithmetic: float = library")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
    }

    void settingLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("labels");     // joined by |
        QTest::addColumn<QString>("described");  // joined by |
        QTest::newRow("lesson keys") << QStringLiteral("plain: temperature=1\ntop-p=0.9, temperature=1")
                                     << QStringLiteral("plain|temperature=1,top-p=0.9")
                                     << QStringLiteral("temperature=1|temperature=1,top-p=0.9");
        QTest::newRow("preset without label")
            << QStringLiteral("hf: top-k=50, temperature=0.7") << QStringLiteral("hf: top-k=50,temperature=0.7")
            << QStringLiteral("hf: top-k=50,temperature=0.7");
        QTest::newRow("label and preset")
            << QStringLiteral("min p: llama.cpp: min-p=0.1, temperature=1") << QStringLiteral("min p")
            << QStringLiteral("llama.cpp: min-p=0.1,temperature=1");
        QTest::newRow("a chain's own colons") << QStringLiteral("cut: hf: top-p=0.9:min-keep=2")
                                              << QStringLiteral("cut") << QStringLiteral("hf: top-p=0.9:min-keep=2");
        QTest::newRow("a zoo stage under the lesson")
            << QStringLiteral("lesson: min-p=0.1") << QStringLiteral("lesson: min-p=0.1")
            << QStringLiteral("lesson: min-p=0.1");
    }
    void settingLines()
    {
        QFETCH(QString, text);
        QFETCH(QString, labels);
        QFETCH(QString, described);
        const auto settings = app::settingsFromLines(text);
        QVERIFY2(settings, settings ? "" : settings.error().c_str());
        QStringList gotLabels, gotDescribed;
        for (const auto& s : settings.value()) {
            gotLabels << s.label;
            gotDescribed << s.describe();
        }
        QCOMPARE(gotLabels.join(QLatin1Char('|')), labels);
        QCOMPARE(gotDescribed.join(QLatin1Char('|')), described);
        // What the page writes back reads the same.
        const auto again = app::settingsFromLines(app::settingsToLines(settings.value()));
        QVERIFY(again);
        QVERIFY(again.value() == settings.value());
    }

    void badSettingLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("stateful") << QStringLiteral("x: llama.cpp: xtc:probability=0.5:threshold=0.1")
                                  << QStringLiteral("Settings, line 1: chain: ");
        QTest::newRow("unknown preset") << QStringLiteral("x: ollama: top-k=2")
                                        << QStringLiteral("Settings, line 1: 'ollama' is not a preset");
        QTest::newRow("second line") << QStringLiteral("temperature=1\nhf: top-k=-3")
                                     << QStringLiteral("Settings, line 2: ");
        QTest::newRow("too many colons") << QStringLiteral("a: b: c: d")
                                         << QStringLiteral("Settings, line 1: expected");
        QTest::newRow("nothing") << QStringLiteral("\n \n") << QStringLiteral("Settings: give 1 to 16 settings");
        QTest::newRow("lesson temperature NaN")
            << QStringLiteral("temperature=nan") << QStringLiteral("Settings, line 1: ");
    }
    void badSettingLines()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto settings = app::settingsFromLines(text);
        QVERIFY(!settings);
        QVERIFY2(QString::fromStdString(settings.error()).startsWith(message), settings.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TestJunkRiskChain)
#include "tst_junk_risk_chain.moc"
