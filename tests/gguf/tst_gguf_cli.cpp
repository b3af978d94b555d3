// `logitlab-cli tokenize` and `logitlab-cli logits` (issue 36) on a tiny random llama model the
// test writer makes (a SentencePiece vocabulary of 12 tokens, one layer, Q8_0 and F16 matrices):
// the ids and pieces, the logits equal to the engine's own forward pass bit for bit (their text
// reads back as the same floats), the same for a prompt and its ids and for 1 and 2 threads,
// the top-K table and the one-per-line form, and each mistake refused with one line, exit 2.
#include "engine/gguf/gguf_file.h"
#include "engine/transformer/transformer.h"
#include "support/gguf_writer.h"
#include "support/test_support.h"
#include "support/tiny_gguf_model.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <bit>

using namespace logitlab;
using engine::gguf::GgmlType;

namespace {

QString writeModel(const QTemporaryDir& dir, const test::GgufWriter& w,
                   const QString& name = QStringLiteral("tiny.gguf"))
{
    const QString path = dir.filePath(name);
    if (!w.writeFile(path.toStdString()))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QJsonObject json(const test::CliRun& run) { return QJsonDocument::fromJson(run.out).object(); }

}  // namespace

class TestGgufCli : public QObject {
    Q_OBJECT
private slots:
    void tokenize()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, test::tinyLlama(GgmlType::Q8_0));
        auto run = test::runCli({QStringLiteral("tokenize"), QStringLiteral("--model"), model, QStringLiteral("--text"),
                                 QStringLiteral("hi!"), QStringLiteral("--json")});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = json(run);
        QCOMPARE(o.value(QStringLiteral("token_ids")).toArray(), (QJsonArray{1, 7, 9}));
        QCOMPARE(o.value(QStringLiteral("pieces")).toArray(),
                 (QJsonArray{QStringLiteral("<s>"), QStringLiteral(" hi"), QStringLiteral("!")}));
        QCOMPARE(o.value(QStringLiteral("count")).toInt(), 3);
        QCOMPARE(o.value(QStringLiteral("model")).toString(), model);

        run = test::runCli({QStringLiteral("tokenize"), QStringLiteral("--model"), model, QStringLiteral("--text"),
                            QStringLiteral("hi"), QStringLiteral("--no-bos")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("7\t\" hi\"\n"));
    }

    void logitsMatchTheEngine()
    {
        QTemporaryDir dir;
        for (const GgmlType type : {GgmlType::Q8_0, GgmlType::F32}) {
            const QString model = writeModel(dir, test::tinyLlama(type));
            const std::vector<std::int32_t> ids{1, 7, 9};
            const std::vector<float> expected = test::freshLogits(model.toStdString(), ids);
            QCOMPARE(expected.size(), test::kTinyTokens.size());
            QJsonObject first;
            for (const QStringList& how : {QStringList{QStringLiteral("--token-ids"), QStringLiteral("1,7,9")},
                                           QStringList{QStringLiteral("--token-ids"), QStringLiteral(" 1, 7 ,9"),
                                                       QStringLiteral("--threads"), QStringLiteral("2")},
                                           QStringList{QStringLiteral("--prompt"), QStringLiteral("hi!")}}) {
                const auto run = test::runCli(
                    QStringList{QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--json")} +
                    how);
                QVERIFY2(run.exitCode == 0, run.err.constData());
                const QJsonObject o = json(run);
                QCOMPARE(o.value(QStringLiteral("token_ids")).toArray(), (QJsonArray{1, 7, 9}));
                QCOMPARE(o.value(QStringLiteral("architecture")).toString(), QStringLiteral("llama"));
                QCOMPARE(o.value(QStringLiteral("vocabulary")).toInt(), static_cast<int>(test::kTinyTokens.size()));
                const QJsonArray logits = o.value(QStringLiteral("logits")).toArray();
                QCOMPARE(logits.size(), static_cast<qsizetype>(test::kTinyTokens.size()));
                for (qsizetype i = 0; i < logits.size(); ++i)
                    QCOMPARE(std::bit_cast<std::uint32_t>(static_cast<float>(logits[i].toDouble())),
                             std::bit_cast<std::uint32_t>(expected[static_cast<std::size_t>(i)]));
                if (first.isEmpty())
                    first = o;
                QCOMPARE(o, first);
            }
        }
    }

    void topAndEveryLogit()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, test::tinyLlama(GgmlType::Q8_0));
        const std::vector<float> expected = test::freshLogits(model.toStdString(), {1, 4});
        auto run =
            test::runCli({QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--token-ids"),
                          QStringLiteral("1,4"), QStringLiteral("--top"), QStringLiteral("3")});
        QCOMPARE(run.exitCode, 0);
        const QStringList lines = QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("rank\tid\tlogit\ttoken"));
        float previous = std::numeric_limits<float>::infinity();
        for (int r = 1; r <= 3; ++r) {
            const QStringList f = lines[r].split(QLatin1Char('\t'));
            QCOMPARE(f.size(), 4);
            QCOMPARE(f[0].toInt(), r);
            const int id = f[1].toInt();
            const float logit = f[2].toFloat();
            QCOMPARE(logit, expected[static_cast<std::size_t>(id)]);
            QVERIFY(logit <= previous);
            previous = logit;
            QVERIFY(f[3].startsWith(QLatin1Char('"')));
        }
        // The highest of all.
        QCOMPARE(previous <= *std::max_element(expected.begin(), expected.end()), true);
        QCOMPARE(lines[1].split(QLatin1Char('\t'))[2].toFloat(), *std::max_element(expected.begin(), expected.end()));

        run = test::runCli({QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--token-ids"),
                            QStringLiteral("1,4"), QStringLiteral("--top"), QStringLiteral("0")});
        QCOMPARE(run.exitCode, 0);
        const QStringList all = QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(all.size(), static_cast<qsizetype>(test::kTinyTokens.size()));
        for (qsizetype i = 0; i < all.size(); ++i)
            QCOMPARE(all[i].toFloat(), expected[static_cast<std::size_t>(i)]);
    }

    // `candidates --model M --prompt P` samples the model's next-token distribution: the same
    // probabilities as the logits `logits --top 0` prints, read back with --logits-file, and
    // the tokens named by their text.
    void samplerCommandsTakeAModel()
    {
        QTemporaryDir dir;
        const QString model = writeModel(dir, test::tinyLlama(GgmlType::Q8_0));
        const auto logits =
            test::runCli({QStringLiteral("logits"), QStringLiteral("--model"), model, QStringLiteral("--prompt"),
                          QStringLiteral("hi!"), QStringLiteral("--top"), QStringLiteral("0")});
        QCOMPARE(logits.exitCode, 0);
        QFile file(dir.filePath(QStringLiteral("logits.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        // Each float's exact value: the shortest text of a float read as a double is another number.
        for (const QByteArray& line : logits.out.trimmed().split('\n'))
            file.write(QByteArray::number(static_cast<double>(line.toFloat()), 'g', 17) + '\n');
        file.close();
        const QStringList settings{QStringLiteral("--temperature"), QStringLiteral("0.7"), QStringLiteral("--top-p"),
                                   QStringLiteral("0.9"), QStringLiteral("--json")};
        const auto fromModel = test::runCli(QStringList{QStringLiteral("candidates"), QStringLiteral("--model"), model,
                                                        QStringLiteral("--prompt"), QStringLiteral("hi!")} +
                                            settings);
        const auto fromFile = test::runCli(
            QStringList{QStringLiteral("candidates"), QStringLiteral("--logits-file"), file.fileName()} + settings);
        QVERIFY2(fromModel.exitCode == 0, fromModel.err.constData());
        QCOMPARE(fromFile.exitCode, 0);
        const QJsonObject a = json(fromModel);
        const QJsonObject b = json(fromFile);
        const QJsonArray ca = a.value(QStringLiteral("survivors")).toArray();
        const QJsonArray cb = b.value(QStringLiteral("survivors")).toArray();
        QVERIFY(!ca.isEmpty());
        QCOMPARE(ca.size(), cb.size());
        for (qsizetype i = 0; i < ca.size(); ++i) {
            const QJsonObject x = ca[i].toObject();
            const QJsonObject y = cb[i].toObject();
            QCOMPARE(x.value(QStringLiteral("id")), y.value(QStringLiteral("id")));
            // Bit for bit (QCOMPARE of doubles is fuzzy): the same doubles went in.
            QCOMPARE(std::bit_cast<quint64>(x.value(QStringLiteral("p")).toDouble()),
                     std::bit_cast<quint64>(y.value(QStringLiteral("p")).toDouble()));
            const int id = x.value(QStringLiteral("id")).toInt();
            const std::string expected = id == 7    ? " hi"
                                         : id == 9  ? "!"
                                         : id == 11 ? "x"
                                                    : std::string();  // the text, not "▁hi"
            if (!expected.empty())
                QCOMPARE(x.value(QStringLiteral("token")).toString().toStdString(), expected);
        }
    }

    void refused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("model");  // which file --model names: tiny, bare, broken
        QTest::addColumn<QString>("message");
        QTest::newRow("no model") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                 QStringLiteral("1")}
                                  << QString() << "--model: give the GGUF model file";
        QTest::newRow("no text") << QStringList{QStringLiteral("tokenize")} << "tiny"
                                 << "--text: give the text to tokenize";
        QTest::newRow("both") << QStringList{QStringLiteral("logits"), QStringLiteral("--prompt"), QStringLiteral("a"),
                                             QStringLiteral("--token-ids"), QStringLiteral("1")}
                              << "tiny"
                              << "give either --prompt or --token-ids";
        QTest::newRow("neither") << QStringList{QStringLiteral("logits")} << "tiny"
                                 << "give either --prompt or --token-ids";
        QTest::newRow("id out of range") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                        QStringLiteral("1,12")}
                                         << "tiny"
                                         << "--token-ids: token 12 is outside the vocabulary 0..11";
        QTest::newRow("id not a number") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                        QStringLiteral("1,,2")}
                                         << "tiny"
                                         << "--token-ids: '' is not a whole number";
        QTest::newRow("over the context") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                         QStringLiteral("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1")}
                                          << "tiny"
                                          << "17 tokens are more than the model's context of 16";
        QTest::newRow("threads") << QStringList{QStringLiteral("logits"), QStringLiteral("--token-ids"),
                                                QStringLiteral("1"), QStringLiteral("--threads"), QStringLiteral("0")}
                                 << "tiny"
                                 << "threads: must be between 1 and 256, got 0";
        QTest::newRow("no tokenizer") << QStringList{QStringLiteral("logits"), QStringLiteral("--prompt"),
                                                     QStringLiteral("hi")}
                                      << "bare"
                                      << "MODEL: metadata key 'tokenizer.ggml.model' is missing";
        QTest::newRow("sample without a prompt") << QStringList{QStringLiteral("sample")} << "tiny"
                                                 << "--model: give the --prompt the model continues";
        QTest::newRow("model and logits")
            << QStringList{QStringLiteral("candidates"), QStringLiteral("--prompt"), QStringLiteral("hi"),
                           QStringLiteral("--logits"), QStringLiteral("1,2")}
            << "tiny"
            << "give either --model or --logits/--logits-file/--probs, not both";
        QTest::newRow("model and token names")
            << QStringList{QStringLiteral("sample"), QStringLiteral("--prompt"), QStringLiteral("hi"),
                           QStringLiteral("--tokens"), QStringLiteral("a,b")}
            << "tiny"
            << "--model names its tokens itself: drop --tokens and --vocabulary";
        QTest::newRow("prompt without a model")
            << QStringList{QStringLiteral("sample"), QStringLiteral("--prompt"), QStringLiteral("hi"),
                           QStringLiteral("--logits"), QStringLiteral("1,2")}
            << QString() << "--prompt needs --model (a GGUF model file)";
        QTest::newRow("sample, broken file")
            << QStringList{QStringLiteral("sample"), QStringLiteral("--prompt"), QStringLiteral("hi")} << "broken"
            << "MODEL: version at byte 4: version 1 is not read (GGUF versions 2 "
               "and 3 are; version 1 files predate 64-bit counts: convert the model "
               "again)";
        QTest::newRow("broken file") << QStringList{QStringLiteral("tokenize"), QStringLiteral("--text"),
                                                    QStringLiteral("hi")}
                                     << "broken"
                                     << "MODEL: version at byte 4: version 1 is not read (GGUF versions 2 and 3 "
                                        "are; version 1 files predate 64-bit counts: convert the model again)";
    }
    void refused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, model);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QStringList args = arguments;
        if (!model.isEmpty()) {
            test::GgufWriter w =
                model == QLatin1String("bare") ? test::tinyLlama(GgmlType::F32, false) : test::tinyLlama(GgmlType::F32);
            if (model == QLatin1String("broken"))
                w.setVersion(1);
            const QString path = writeModel(dir, w);
            args << QStringLiteral("--model") << path;
            message.replace(QStringLiteral("MODEL"), path);
        }
        const auto run = test::runCli(args);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.out, QByteArray());
        const QString err = QString::fromUtf8(run.err).trimmed();
        QVERIFY2(!err.contains(QLatin1Char('\n')), qPrintable(err));
        QVERIFY2(err.contains(message), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestGgufCli)
#include "tst_gguf_cli.moc"
