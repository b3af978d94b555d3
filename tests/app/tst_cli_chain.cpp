// logitlab-cli's chain options end to end: the built binary run through QProcess, its JSON
// read back, every parameter of the one table from its option to the chain and back, and every
// bad input ending with exit code 2 and one stderr line that names it.
#include "app/text/chain_json.h"
#include "app/text/sampler_settings_json.h"
#include "engine/core/number_format.h"
#include "engine/sampler/chain_text.h"
#include "support/sampler_parameter_values.h"
#include "support/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

using namespace logitlab;

namespace {

// Text output: the tests compare it with QString literals.
struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

Run cli(const QStringList& arguments)
{
    const test::CliRun run = test::runCli(arguments);
    return {run.exitCode, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
}

QJsonObject json(const QStringList& arguments)
{
    const Run run = cli(arguments + QStringList{QStringLiteral("--json")});
    if (run.exitCode != 0)
        qFatal("exit %d: %s", run.exitCode, qPrintable(run.err));
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

QList<int> survivorIds(const QJsonObject& result)
{
    QList<int> ids;
    for (const auto& s : result.value(QStringLiteral("survivors")).toArray())
        ids << s.toObject().value(QStringLiteral("id")).toInt();
    std::sort(ids.begin(), ids.end());
    return ids;
}

const QString kExercise = QStringLiteral("2.5,2.2,1,0.3,-0.5");

}  // namespace

class TestCliChain : public QObject {
    Q_OBJECT

private slots:
    // The lesson's behaviour is unchanged: same counts, same settings, and now a "chain".
    void lessonSampleUnchanged()
    {
        const QJsonObject result =
            json({QStringLiteral("sample"), QStringLiteral("--logits"), kExercise, QStringLiteral("--tokens"),
                  QStringLiteral("=>,{,(,async,//"), QStringLiteral("--seed"), QStringLiteral("42"),
                  QStringLiteral("--top-p"), QStringLiteral("0.9")});
        const QJsonObject counts = result.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.value(QStringLiteral("=>")).toInt(), 493);
        QCOMPARE(counts.value(QStringLiteral("{")).toInt(), 393);
        QCOMPARE(counts.value(QStringLiteral("(")).toInt(), 114);
        QCOMPARE(result.value(QStringLiteral("settings")).toObject(),
                 (QJsonObject{{QStringLiteral("temperature"), 1}, {QStringLiteral("top-p"), 0.9}}));
        QCOMPARE(result.value(QStringLiteral("semantics")).toString(), QStringLiteral("lesson"));
        QCOMPARE(result.value(QStringLiteral("chain")).toArray().size(), 1);
    }

    // D1 through the CLI, with p_raw and the chain as applied.
    void semanticsChangeTheSurvivors()
    {
        const QStringList base{QStringLiteral("candidates"), QStringLiteral("--logits"),
                               QStringLiteral("3,2,1"),      QStringLiteral("--top-p"),
                               QStringLiteral("0.8"),        QStringLiteral("--temperature"),
                               QStringLiteral("0.5")};
        const QJsonObject llama = json(base + QStringList{QStringLiteral("--semantics"), QStringLiteral("llama.cpp")});
        QCOMPARE(survivorIds(llama), (QList<int>{0, 1}));
        const QJsonArray survivors = llama.value(QStringLiteral("survivors")).toArray();
        QVERIFY(std::fabs(survivors[0].toObject().value(QStringLiteral("p")).toDouble() - 0.8808) < 1e-4);
        // p_raw: softmax of [3, 2, 1] / 0.5 over the whole vocabulary, e^6 / (e^6 + e^4 + e^2).
        const double raw = std::exp(6.0) / (std::exp(6.0) + std::exp(4.0) + std::exp(2.0));
        QVERIFY(std::fabs(survivors[0].toObject().value(QStringLiteral("p_raw")).toDouble() - raw) < 1e-12);
        const QJsonArray chain = llama.value(QStringLiteral("chain")).toArray();
        QCOMPARE(chain.size(), 2);
        QCOMPARE(chain[0].toObject().value(QStringLiteral("stage")).toString(), QStringLiteral("top-p"));
        QCOMPARE(chain[1].toObject().value(QStringLiteral("stage")).toString(), QStringLiteral("temperature"));
        QCOMPARE(chain[1].toObject().value(QStringLiteral("t")).toDouble(), 0.5);

        const QJsonObject hf = json(base + QStringList{QStringLiteral("--semantics"), QStringLiteral("hf")});
        QCOMPARE(survivorIds(hf), (QList<int>{0}));
        QCOMPARE(hf.value(QStringLiteral("chain")).toArray()[0].toObject().value(QStringLiteral("stage")).toString(),
                 QStringLiteral("temperature"));
    }

    // Issue 18: vLLM raises a temperature in (0, 0.01) to 0.01, so at T = 1e-6 it samples from all
    // three of 1, 1.000001, 0.9999995 (p ~ 1/3 each at T = 0.01); only T = 0 is greedy (id 1).
    void vllmTemperatureFloorThroughTheCli_data()
    {
        QTest::addColumn<QString>("temperature");
        QTest::addColumn<QList<int>>("ids");
        QTest::newRow("1e-6") << QStringLiteral("0.000001") << QList<int>{0, 1, 2};
        QTest::newRow("0.005") << QStringLiteral("0.005") << QList<int>{0, 1, 2};
        QTest::newRow("0.01") << QStringLiteral("0.01") << QList<int>{0, 1, 2};
        QTest::newRow("0") << QStringLiteral("0") << QList<int>{1};
    }

    void vllmTemperatureFloorThroughTheCli()
    {
        QFETCH(QString, temperature);
        QFETCH(QList<int>, ids);
        const QJsonObject result =
            json({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("1,1.000001,0.9999995"),
                  QStringLiteral("--semantics"), QStringLiteral("vllm"), QStringLiteral("--temperature"), temperature});
        QCOMPARE(survivorIds(result), ids);
        for (const auto& s : result.value(QStringLiteral("survivors")).toArray()) {
            const double p = s.toObject().value(QStringLiteral("p")).toDouble();
            QVERIFY2(ids.size() == 1 ? p == 1.0 : std::fabs(p - 1.0 / 3.0) < 0.01, qPrintable(QString::number(p)));
        }
    }

    // Issue 18: --arithmetic library runs the preset as its library computes (float32), and
    // --compare marks the token whose fate depends on rounding with both running totals.
    void libraryArithmeticAndTheRoundingMarks()
    {
        const QStringList base{
            QStringLiteral("candidates"),  QStringLiteral("--probs"), QStringLiteral("0.3,0.2,0.2,0.1,0.1,0.1"),
            QStringLiteral("--semantics"), QStringLiteral("vllm"),    QStringLiteral("--top-p"),
            QStringLiteral("0.8")};
        const QJsonObject exact = json(base);
        QCOMPARE(exact.value(QStringLiteral("arithmetic")).toString(), QStringLiteral("exact"));
        QCOMPARE(survivorIds(exact), (QList<int>{0, 1, 2, 3}));
        const QJsonObject library = json(base + QStringList{QStringLiteral("--arithmetic"), QStringLiteral("library")});
        QCOMPARE(library.value(QStringLiteral("arithmetic")).toString(), QStringLiteral("library"));
        QCOMPARE(library.value(QStringLiteral("settings")).toObject().value(QStringLiteral("arithmetic")).toString(),
                 QStringLiteral("library"));
        QCOMPARE(survivorIds(library), (QList<int>{0, 1, 2, 3, 4}));

        const Run text = cli(base + QStringList{QStringLiteral("--compare")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("rounding: vllm: token 4: kept by float32, cut in exact arithmetic: "
                                                  "top-p running total float32 0.200000018 (cut 0.199999988), exact "
                                                  "0.2 (cut 0.2)")),
                 qPrintable(text.out));
        const QJsonObject compared = json(base + QStringList{QStringLiteral("--compare")});
        QCOMPARE(compared.value(QStringLiteral("presets"))
                     .toObject()
                     .value(QStringLiteral("vllm"))
                     .toObject()
                     .value(QStringLiteral("rounding"))
                     .toArray()
                     .size(),
                 1);
        QVERIFY(!compared.value(QStringLiteral("presets"))
                     .toObject()
                     .value(QStringLiteral("lesson"))
                     .toObject()
                     .contains(QStringLiteral("rounding")));
    }

    void compareShowsAllFourAndTheRule()
    {
        const QJsonObject result =
            json({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("3,2,1"),
                  QStringLiteral("--top-p"), QStringLiteral("0.8"), QStringLiteral("--temperature"),
                  QStringLiteral("0.5"), QStringLiteral("--compare")});
        const QJsonObject presets = result.value(QStringLiteral("presets")).toObject();
        QCOMPARE(presets.keys(), (QStringList{QStringLiteral("hf"), QStringLiteral("lesson"),
                                              QStringLiteral("llama.cpp"), QStringLiteral("vllm")}));
        QCOMPARE(survivorIds(presets.value(QStringLiteral("llama.cpp")).toObject()), (QList<int>{0, 1}));
        QCOMPARE(survivorIds(presets.value(QStringLiteral("vllm")).toObject()), (QList<int>{0}));
        bool sawD1 = false;
        for (const auto& d : result.value(QStringLiteral("differences")).toArray()) {
            const auto pair = d.toObject().value(QStringLiteral("presets")).toArray();
            const QString rules = d.toObject().value(QStringLiteral("rules")).toArray().at(0).toString();
            if (pair.contains(QStringLiteral("llama.cpp")) && pair.contains(QStringLiteral("hf")))
                sawD1 = rules.startsWith(QStringLiteral("D1"));
            QVERIFY(!pair.contains(QStringLiteral("hf")) || !pair.contains(QStringLiteral("vllm")));  // they agree
        }
        QVERIFY(sawD1);

        // A preset that rejects the settings reports its error instead of survivors.
        const QJsonObject zero =
            json({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("3,2,1"),
                  QStringLiteral("--temperature"), QStringLiteral("0"), QStringLiteral("--compare")});
        QVERIFY(zero.value(QStringLiteral("presets"))
                    .toObject()
                    .value(QStringLiteral("hf"))
                    .toObject()
                    .value(QStringLiteral("error"))
                    .toString()
                    .startsWith(QStringLiteral("temperature: t:")));

        const Run text = cli({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("3,1,2,2"),
                              QStringLiteral("--top-k"), QStringLiteral("2"), QStringLiteral("--compare")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.out.contains(QStringLiteral("llama.cpp vs hf differ: D3 top-k ties")));
    }

    // Issue 11, items 6 and 7: no NaN printed, the argmax drawn, counts never merged by name.
    void extremeValuesGiveResults_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("top");
        QTest::newRow("candidates T 1e-320") << QStringList{QStringLiteral("--logits"), QStringLiteral("1,2,3"),
                                                            QStringLiteral("--temperature"), QStringLiteral("1e-320")}
                                             << 2;
        QTest::newRow("bias overflow") << QStringList{QStringLiteral("--logits"), QStringLiteral("1e308,1"),
                                                      QStringLiteral("--logit-bias"), QStringLiteral("0:1e308")}
                                       << 0;
        QTest::newRow("repeat 1e-320") << QStringList{QStringLiteral("--logits"),         QStringLiteral("1,2"),
                                                      QStringLiteral("--repeat-penalty"), QStringLiteral("1e-320"),
                                                      QStringLiteral("--history"),        QStringLiteral("0")}
                                       << 0;
    }

    void extremeValuesGiveResults()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, top);
        const Run run =
            cli(QStringList{QStringLiteral("candidates")} + arguments + QStringList{QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.out.contains(QStringLiteral("null")) && !run.out.contains(QStringLiteral("nan")),
                 qPrintable(run.out));
        const QJsonObject result = QJsonDocument::fromJson(run.out.toUtf8()).object();
        const QJsonObject first = result.value(QStringLiteral("survivors")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("id")).toInt(), top);
        QCOMPARE(first.value(QStringLiteral("p")).toDouble(), 1.0);
    }

    void sampleAtTinyTemperatureDrawsTheArgmax()
    {
        const QJsonObject result = json({QStringLiteral("sample"), QStringLiteral("--logits"), QStringLiteral("3,1,2"),
                                         QStringLiteral("--temperature"), QStringLiteral("1e-320")});
        const QJsonObject counts = result.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.keys(), QStringList{QStringLiteral("0")});
        QCOMPARE(counts.value(QStringLiteral("0")).toInt(), 1000);
    }

    void sampleCountsByIdWhenNamesRepeat()
    {
        const QJsonObject result = json({QStringLiteral("sample"), QStringLiteral("--logits"), QStringLiteral("1,1,1"),
                                         QStringLiteral("--tokens"), QStringLiteral("a,a,b")});
        const QJsonObject counts = result.value(QStringLiteral("counts")).toObject();
        QCOMPARE(counts.keys(), (QStringList{QStringLiteral("a#0"), QStringLiteral("a#1"), QStringLiteral("b")}));
        int total = 0;
        for (const auto& v : counts)
            total += v.toInt();
        QCOMPARE(total, 1000);  // 360 draws used to vanish into one "a"
        int byIdTotal = 0;
        for (const auto& entry : result.value(QStringLiteral("by_id")).toArray()) {
            const QJsonObject o = entry.toObject();
            const int id = o.value(QStringLiteral("id")).toInt();
            QCOMPARE(o.value(QStringLiteral("token")).toString(), id == 2 ? QStringLiteral("b") : QStringLiteral("a"));
            byIdTotal += o.value(QStringLiteral("count")).toInt();
        }
        QCOMPARE(byIdTotal, 1000);
    }

    void compareWarnsOfLlamaCppDivergences()
    {
        const QStringList arguments{QStringLiteral("candidates"),
                                    QStringLiteral("--logits"),
                                    QStringLiteral("3,2,1"),
                                    QStringLiteral("--semantics"),
                                    QStringLiteral("llama.cpp"),
                                    QStringLiteral("--chain"),
                                    QStringLiteral("top-k=2,logit-bias=1@1/1@2"),
                                    QStringLiteral("--compare")};
        const Run text = cli(arguments);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(QStringLiteral("warning: llama.cpp: logit-bias after top-k")), qPrintable(text.out));
        QVERIFY(text.out.contains(QStringLiteral("warning: llama.cpp: logit-bias lists a token twice")));
        const QJsonObject result = json(arguments);
        const QJsonArray warnings = result.value(QStringLiteral("presets"))
                                        .toObject()
                                        .value(QStringLiteral("llama.cpp"))
                                        .toObject()
                                        .value(QStringLiteral("warnings"))
                                        .toArray();
        QCOMPARE(warnings.size(), 2);
    }

    void chainStringAndInputs()
    {
        // --chain under llama.cpp: order as written.
        QJsonObject result = json({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("3,2,1,0"),
                                   QStringLiteral("--semantics"), QStringLiteral("llama.cpp"),
                                   QStringLiteral("--chain"), QStringLiteral("temperature=0.5,top-p=0.8")});
        QCOMPARE(survivorIds(result), (QList<int>{0}));
        // --probs: ln p; the llama.cpp test's top-p 0.7 case keeps .4 and .3.
        result = json({QStringLiteral("candidates"), QStringLiteral("--probs"), QStringLiteral("0.1,0.2,0.3,0.4"),
                       QStringLiteral("--semantics"), QStringLiteral("llama.cpp"), QStringLiteral("--top-p"),
                       QStringLiteral("0.7")});
        QCOMPARE(survivorIds(result), (QList<int>{2, 3}));
        // --logit-bias and --history with penalties.
        result = json({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("1,1,1"),
                       QStringLiteral("--semantics"), QStringLiteral("llama.cpp"), QStringLiteral("--logit-bias"),
                       QStringLiteral("2:-inf"), QStringLiteral("--history"), QStringLiteral("0,0"),
                       QStringLiteral("--repeat-penalty"), QStringLiteral("2")});
        const QJsonArray survivors = result.value(QStringLiteral("survivors")).toArray();
        QCOMPARE(survivors.size(), 2);
        QCOMPARE(survivors[0].toObject().value(QStringLiteral("id")).toInt(), 1);  // 0 was penalised: 1 / 2
        // --defaults fills llama.cpp's values.
        result = json({QStringLiteral("candidates"), QStringLiteral("--logits"), kExercise,
                       QStringLiteral("--semantics"), QStringLiteral("llama.cpp"), QStringLiteral("--defaults")});
        QCOMPARE(result.value(QStringLiteral("chain")).toArray().size(), 4);
    }

    void statefulSampling()
    {
        const QStringList args{QStringLiteral("sample"),
                               QStringLiteral("--logits"),
                               kExercise,
                               QStringLiteral("--semantics"),
                               QStringLiteral("llama.cpp"),
                               QStringLiteral("--mirostat"),
                               QStringLiteral("2"),
                               QStringLiteral("--mirostat-tau"),
                               QStringLiteral("1.5"),
                               QStringLiteral("--draws"),
                               QStringLiteral("200"),
                               QStringLiteral("--sequence")};
        const QJsonObject first = json(args);
        QCOMPARE(json(args), first);  // seeded: reproducible
        QCOMPARE(first.value(QStringLiteral("sequence")).toArray().size(), 200);
        // A presence penalty over the growing history spreads the draws over more tokens.
        const QJsonObject plain = json({QStringLiteral("sample"), QStringLiteral("--logits"), QStringLiteral("5,0,0,0"),
                                        QStringLiteral("--semantics"), QStringLiteral("llama.cpp"),
                                        QStringLiteral("--draws"), QStringLiteral("50")});
        const QJsonObject penalised =
            json({QStringLiteral("sample"), QStringLiteral("--logits"), QStringLiteral("5,0,0,0"),
                  QStringLiteral("--semantics"), QStringLiteral("llama.cpp"), QStringLiteral("--presence-penalty"),
                  QStringLiteral("3"), QStringLiteral("--penalty-last-n"), QStringLiteral("-1"),
                  QStringLiteral("--draws"), QStringLiteral("50")});
        QVERIFY(penalised.value(QStringLiteral("counts")).toObject().size() >
                plain.value(QStringLiteral("counts")).toObject().size());
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("names");
        const QStringList base{QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("3,2,1")};
        QTest::newRow("unknown preset") << base + QStringList{QStringLiteral("--semantics"), QStringLiteral("torch")}
                                        << "semantics: unknown preset 'torch'";
        QTest::newRow("arithmetic fast") << base + QStringList{QStringLiteral("--semantics"), QStringLiteral("vllm"),
                                                               QStringLiteral("--arithmetic"), QStringLiteral("fast")}
                                         << "arithmetic: 'fast' is not one of exact, library";
        QTest::newRow("arithmetic fast, compare")
            << base + QStringList{QStringLiteral("--compare"), QStringLiteral("--arithmetic"), QStringLiteral("fast")}
            << "arithmetic: 'fast' is not one of exact, library";
        QTest::newRow("unknown stage") << base + QStringList{QStringLiteral("--chain"),
                                                             QStringLiteral("top-k=2,nucleus=0.9")}
                                       << "unknown stage 'nucleus'";
        QTest::newRow("unknown parameter")
            << base + QStringList{QStringLiteral("--chain"), QStringLiteral("top-p=0.9:keep=1")}
            << "top-p: unknown parameter 'keep'";
        QTest::newRow("hf temperature 0") << base + QStringList{QStringLiteral("--semantics"), QStringLiteral("hf"),
                                                                QStringLiteral("--temperature"), QStringLiteral("0")}
                                          << "temperature: t:";
        QTest::newRow("hf min-p 2") << base + QStringList{QStringLiteral("--semantics"), QStringLiteral("hf"),
                                                          QStringLiteral("--min-p"), QStringLiteral("2")}
                                    << "min-p: p:";
        QTest::newRow("vllm typical") << base + QStringList{QStringLiteral("--semantics"), QStringLiteral("vllm"),
                                                            QStringLiteral("--typical"), QStringLiteral("0.5")}
                                      << "typical: vllm has no";
        QTest::newRow("lesson min-keep") << base + QStringList{QStringLiteral("--min-keep"), QStringLiteral("2")}
                                         << "min-keep: lesson has no min_keep";
        QTest::newRow("bad number") << base + QStringList{QStringLiteral("--min-p"), QStringLiteral("lots")}
                                    << "min-p: 'lots' is not a number";
        QTest::newRow("bias syntax") << base + QStringList{QStringLiteral("--logit-bias"), QStringLiteral("1=2")}
                                     << "logit-bias: item 1";
        QTest::newRow("bias outside vocabulary")
            << base + QStringList{QStringLiteral("--logit-bias"), QStringLiteral("9:1")}
            << "logit-bias: item 1 '9:1': the token is outside the vocabulary";
        QTest::newRow("history outside vocabulary")
            << base + QStringList{QStringLiteral("--history"), QStringLiteral("0,7"),
                                  QStringLiteral("--repeat-penalty"), QStringLiteral("1.2")}
            << "history: item 2 '7' is outside the vocabulary";
        QTest::newRow("history not a token") << base + QStringList{QStringLiteral("--history"), QStringLiteral("0,x")}
                                             << "history: item 2 'x' is neither a token in the table nor a token id";
        QTest::newRow("probs range") << QStringList{QStringLiteral("candidates"), QStringLiteral("--probs"),
                                                    QStringLiteral("0.5,1.5")}
                                     << "probs: item 2";
        QTest::newRow("probs and logits")
            << base + QStringList{QStringLiteral("--probs"), QStringLiteral("1")} << "give either --probs or --logits";
        QTest::newRow("chain and options") << base + QStringList{QStringLiteral("--chain"), QStringLiteral("top-k=1"),
                                                                 QStringLiteral("--top-p"), QStringLiteral("0.5")}
                                           << "chain: give either --chain or per-stage options";
        QTest::newRow("mirostat version")
            << base + QStringList{QStringLiteral("--semantics"), QStringLiteral("llama.cpp"),
                                  QStringLiteral("--mirostat"), QStringLiteral("3")}
            << "mirostat: must be 0 (off), 1 or 2";
        QTest::newRow("lesson top-k 0 keeps its message")
            << base + QStringList{QStringLiteral("--top-k"), QStringLiteral("0")} << "top-k:";
        QTest::newRow("sample: hf xtc") << QStringList{QStringLiteral("sample"), QStringLiteral("--logits"),
                                                       QStringLiteral("3,2,1"),  QStringLiteral("--semantics"),
                                                       QStringLiteral("hf"),     QStringLiteral("--xtc-probability"),
                                                       QStringLiteral("0.5")}
                                        << "xtc: hf has no XTC";
    }

    void endlessWorkIsRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("10^10 draws") << QStringList{QStringLiteral("--logits"), QStringLiteral("3,2,1"),
                                                    QStringLiteral("--draws"), QStringLiteral("10000000000")};
        QTest::newRow("DRY over 10^6 draws")
            << QStringList{QStringLiteral("--logits"),  QStringLiteral("3,2,1"),   QStringLiteral("--semantics"),
                           QStringLiteral("llama.cpp"), QStringLiteral("--chain"), QStringLiteral("dry=0.8"),
                           QStringLiteral("--draws"),   QStringLiteral("1000000")};
    }

    void endlessWorkIsRefused()
    {
        QFETCH(QStringList, arguments);
        const Run run = cli(QStringList{QStringLiteral("sample")} + arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(run.err.contains(QStringLiteral("draws: about")) && run.err.contains(QStringLiteral("limit of")),
                 qPrintable(run.err));
    }

    void badInput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, names);
        const Run run = cli(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(run.err.contains(names), qPrintable(run.err));
    }

    // Every parameter of engine::samplerParameters(): option -> chain -> JSON -> chain, and the
    // settings the CLI prints spelt as the option.
    void everyParameterRoundTripsFromItsOption_data() { test::addParameterRows(); }
    void everyParameterRoundTripsFromItsOption()
    {
        const engine::SamplerParameter& p = test::currentParameter();
        const QString name = QString::fromLatin1(p.name);
        const engine::Semantics semantics = test::presetFor(p);
        const engine::ChainSettings settings = test::settingsWith(p);
        QString value;
        if (p.choice)
            value = QString::fromStdString(test::choiceFor(p));
        else if (p.list)
            value =
                p.list == &engine::ChainSettings::logitBias ? QStringLiteral("1:0.5,2:-inf") : QStringLiteral("0,2");
        else
            value = QString::fromStdString(engine::formatDouble(*(settings.*p.field)));
        const QJsonObject out =
            json({QStringLiteral("candidates"), QStringLiteral("--logits"), QStringLiteral("1,2,3"),
                  QStringLiteral("--semantics"), QString::fromStdString(engine::semanticsName(semantics)),
                  QStringLiteral("--") + name, value});
        QCOMPARE(out.value(QStringLiteral("settings")).toObject().value(name),
                 app::samplerSettingsToJson(settings).value(name));
        const auto back = app::chainFromJson(out.value(QStringLiteral("chain")).toArray(), semantics);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        const auto built = engine::buildChain(settings, semantics);
        QVERIFY2(built.ok(), built.ok() ? "" : built.error().c_str());
        QCOMPARE(QString::fromStdString(engine::formatChain(back.value())),
                 QString::fromStdString(engine::formatChain(built.value(), true)));
    }
};

QTEST_GUILESS_MAIN(TestCliChain)
#include "tst_cli_chain.moc"
