// Input from outside that must not crash, hang or swallow memory (issue 11): files that are not
// regular files, files and lists over the size limits, overlong token names, duplicate JSON keys,
// byte order marks and UTF-16, and error text that quotes control characters.
#include "app/io/experiment_file.h"
#include "app/io/input_file.h"
#include "app/io/json_duplicate_keys.h"
#include "app/io/json_object_reader.h"
#include "app/io/logits_file.h"
#include "app/kinds/explorer_state.h"
#include "app/text/one_line_text.h"
#include "engine/core/input_limits.h"
#include "engine/io/logits_parser.h"
#include "engine/io/pasted_table.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace logitlab;

namespace {

QString errorOf(const engine::Result<engine::Distribution>& result)
{
    return result.ok() ? QString() : QString::fromStdString(result.error());
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write the test file");
    return path;
}

}  // namespace

class TestInputLimits : public QObject {
    Q_OBJECT

private slots:
    // /dev/zero would be read until memory runs out and a FIFO would block forever: both are
    // refused before a byte is read, by every reader (logits files, experiment files).
    void notARegularFile_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::newRow("device") << QStringLiteral("/dev/zero") << QStringLiteral("/dev/zero: is not a regular file");
        QTest::newRow("fifo") << QStringLiteral("FIFO") << QStringLiteral(": is not a regular file");
        QTest::newRow("folder") << QStringLiteral("DIR") << QStringLiteral(": is a folder, not a file");
    }
    void notARegularFile()
    {
        QFETCH(QString, path);
        QFETCH(QString, message);
        QTemporaryDir dir;
        if (path == QLatin1String("FIFO")) {
            path = dir.filePath(QStringLiteral("pipe"));
            QCOMPARE(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (path == QLatin1String("DIR")) {
            path = dir.path();
        }
        QVERIFY(errorOf(app::readLogitsFile(path)).contains(message));
        QVERIFY(QString::fromStdString(app::logitsFileProblem(path).value_or("")).contains(message));
        const auto experiment = app::readExperimentJson(path);
        QVERIFY(!experiment.ok());
        QVERIFY2(QString::fromStdString(experiment.error()).contains(message), experiment.error().c_str());
    }

    // A (sparse) file one byte over the limit: the message names its size and the limit.
    void fileOverTheSizeLimit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.resize(app::kMaxInputFileBytes + 1));
        file.close();
        const QString expected =
            path + QStringLiteral(": 67,108,865 bytes is over the limit of 67,108,864 bytes for an input file");
        QCOMPARE(errorOf(app::readLogitsFile(path)), expected);
        QCOMPARE(QString::fromStdString(app::readExperimentJson(path).error()), expected);
        // Under a smaller limit, the same check for a file of a few bytes.
        const QString small = writeFile(dir, QStringLiteral("small.txt"), "1\n2\n3\n");
        QCOMPARE(QString::fromStdString(app::readInputFile(small, 5).error()),
                 small + QStringLiteral(": 6 bytes is over the limit of 5 bytes for an input file"));
        QVERIFY(app::readInputFile(small, 6).ok());
    }

    // A read with progress hears each 16 MiB slice, the bytes so far growing to the file's size;
    // a false answer ends the read as cancelled (a model of a gigabyte opening in the window).
    void readReportsProgressAndCancels()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sparse.bin"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const qint64 size = (qint64{40} << 20) + 7;  // three slices
        QVERIFY(file.resize(size));
        file.close();
        QList<qint64> heard;
        const auto read = app::readInputFile(path, app::kMaxInputFileBytes, false, [&](qint64 done, qint64 total) {
            heard << done;
            return total == size;
        });
        QVERIFY(read.ok());
        QCOMPARE(read.value().size(), size);
        QCOMPARE(heard, (QList<qint64>{qint64{16} << 20, qint64{32} << 20, size}));
        int calls = 0;
        const auto cancelled =
            app::readInputFile(path, app::kMaxInputFileBytes, false, [&](qint64, qint64) { return ++calls < 2; });
        QVERIFY(!cancelled.ok());
        QCOMPARE(cancelled.error(), std::string("cancelled"));
        QCOMPARE(calls, 2);
    }

    // One limit on the number of values, whatever the source.
    void tooManyValues()
    {
        std::string text;
        text.reserve(2 * (engine::kMaxValues + 1));
        for (std::size_t i = 0; i <= engine::kMaxValues; ++i)
            text += "1\n";
        const auto over = engine::parseLogitsText(text, "big.txt");
        QCOMPARE(QString::fromStdString(over.error()),
                 QStringLiteral("big.txt: more than 1,048,576 logits (the limit for one distribution)"));
        text.resize(2 * engine::kMaxValues);
        QCOMPARE(engine::parseLogitsText(text, "big.txt")->logits.size(), Eigen::Index(engine::kMaxValues));

        std::string list(2 * engine::kMaxValues + 1, ',');
        for (std::size_t i = 0; i < list.size(); i += 2)
            list[i] = '1';
        QCOMPARE(QString::fromStdString(engine::parseNumberList(list, "logits").error()),
                 QStringLiteral("logits: 1,048,577 items; the limit is 1,048,576"));
        QCOMPARE(app::kMaxVocabulary, qint64(engine::kMaxValues));

        // Explorer state files too (their size cap alone would let 30 million through).
        QByteArray state = "{\"format\":\"logitlab-explorer\",\"version\":2,\"tokens\":[";
        for (std::size_t i = 0; i <= engine::kMaxValues; ++i)
            state += i ? ",\"t\"" : "\"t\"";
        state +=
            "],\"logits\":[" + QByteArray(QByteArray(",1").repeated(qsizetype(engine::kMaxValues + 1)).mid(1)) + "]}";
        QCOMPARE(QString::fromStdString(app::explorerStateFromJson(state, QStringLiteral("s.json")).error()),
                 QStringLiteral("s.json: logits: 1,048,577 values; the limit is 1,048,576"));
    }

    void tokenNameLength_data()
    {
        QTest::addColumn<int>("length");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("at the limit") << 1024 << true;
        QTest::newRow("one over") << 1025 << false;
        QTest::newRow("100,000") << 100000 << false;
    }
    // Every reader of token names refuses a name over the limit with its length and the limit.
    void tokenNameLength()
    {
        QFETCH(int, length);
        QFETCH(bool, accepted);
        const std::string name(static_cast<std::size_t>(length), 'a');
        const QString problem =
            QStringLiteral("is %1 characters long; token names are limited to 1,024")
                .arg(QString::fromStdString(engine::groupedNumber(static_cast<std::size_t>(length))));

        const auto csv = engine::parseLogitsText(name + ",1\nb,2\n", "t.csv");
        QCOMPARE(csv.ok(), accepted);
        if (!accepted)
            QCOMPARE(QString::fromStdString(csv.error()), QStringLiteral("t.csv:1: token name ") + problem);

        const auto list = engine::parseTokenList(name + ",b");
        QCOMPARE(list.ok(), accepted);
        if (!accepted)
            QCOMPARE(QString::fromStdString(list.error()), QStringLiteral("tokens: item 1 ") + problem);

        const auto pasted = engine::parsePastedTable(name + "\t1\nb\t2\n");
        QCOMPARE(pasted.problems.empty(), accepted);

        // (No raw string literal here: moc misreads one that ends in a quote.)
        const QByteArray state = "{\"format\":\"logitlab-explorer\",\"version\":2,\"tokens\":[\"" +
                                 QByteArray::fromStdString(name) + "\",\"b\"],\"logits\":[1,2]}";
        const auto explorer = app::explorerStateFromJson(state, QStringLiteral("s.json"));
        QCOMPARE(explorer.ok(), accepted);
        if (!accepted)
            QCOMPARE(QString::fromStdString(explorer.error()), QStringLiteral("s.json: tokens[0]: ") + problem);

        const QJsonObject distribution{
            {QStringLiteral("kind"), QStringLiteral("logits")},
            {QStringLiteral("logits"), QJsonArray{1, 2}},
            {QStringLiteral("tokens"), QJsonArray{QString::fromStdString(name), QStringLiteral("b")}}};
        app::JsonObjectReader reader(distribution, QStringLiteral("distribution"));
        if (accepted) {
            QCOMPARE(app::readDistribution(reader).tokens.front().size(), qsizetype(length));
        } else {
            try {
                app::readDistribution(reader);
                QFAIL("an overlong token name was accepted");
            } catch (const app::JsonFieldError& e) {
                QCOMPARE(e.key, QStringLiteral("distribution.tokens.0"));
                QCOMPARE(e.message, problem);
            }
        }
    }

    void bomAndEncodings_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");  // empty: accepted as the two logits 1 and 2
        QTest::newRow("UTF-8 BOM, CSV with header") << QByteArray("\xEF\xBB\xBFtoken,logit\na,1\nb,2\n") << QString();
        QTest::newRow("UTF-8 BOM, numbers") << QByteArray("\xEF\xBB\xBF"
                                                          "1\r\n2\r\n")
                                            << QString();
        QTest::newRow("UTF-16 LE") << QByteArray("\xFF\xFE"
                                                 "1\0\n\0"
                                                 "2\0\n\0",
                                                 10)
                                   << QStringLiteral("f.csv: is UTF-16 text; save it as UTF-8");
        QTest::newRow("UTF-16 BE") << QByteArray("\xFE\xFF\0"
                                                 "1\0\n",
                                                 6)
                                   << QStringLiteral("f.csv: is UTF-16 text; save it as UTF-8");
        QTest::newRow("NUL byte")
            << QByteArray("1\n2\0\n", 5)
            << QStringLiteral(
                   "f.csv: holds a NUL byte at line 2: not a text file (UTF-16 text must be saved as UTF-8)");
    }
    void bomAndEncodings()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const auto d =
            engine::parseLogitsText(std::string_view(content.constData(), std::size_t(content.size())), "f.csv");
        if (message.isEmpty()) {
            QVERIFY2(d.ok(), d.ok() ? "" : d.error().c_str());
            QCOMPARE(d->logits.size(), Eigen::Index(2));
            QCOMPARE(d->logits[0], 1.0);
            QCOMPARE(d->logits[1], 2.0);
            if (!d->tokens.empty())
                QCOMPARE(QString::fromStdString(d->tokens[0]), QStringLiteral("a"));  // no BOM in the name
        } else {
            QCOMPARE(errorOf(d), message);
        }
    }

    void duplicateKeys_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("key");  // empty: no duplicate
        QTest::newRow("none") << QByteArray(R"({"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]})") << QString();
        QTest::newRow("top level") << QByteArray(R"({"a":1,"b":2,"a":3})") << QStringLiteral("a");
        QTest::newRow("nested") << QByteArray(R"({"distribution":{"kind":"logits","kind":"file"}})")
                                << QStringLiteral("distribution.kind");
        QTest::newRow("in an array") << QByteArray(R"({"settings":[{"top_p":0.9},{"top_p":0.9,"top_p":0.1}]})")
                                     << QStringLiteral("settings.1.top_p");
        QTest::newRow("escaped spelling") << QByteArray("{\"top_p\":1,\"top\\u005fp\":2}") << QStringLiteral("top_p");
        QTest::newRow("keys in strings") << QByteArray("{\"a\":\"{\\\"a\\\":1,\\\"a\\\":2}\",\"b\":\"a\"}")
                                         << QString();
        QTest::newRow("same key in sibling objects") << QByteArray(R"([{"x":1},{"x":2}])") << QString();
        QTest::newRow("after a closed object")
            << QByteArray(R"({"o":{"x":1},"p":{"y":[1,{"z":0}],"y":2}})") << QStringLiteral("p.y");
    }
    void duplicateKeys()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, key);
        QCOMPARE(app::duplicateJsonKey(json).value_or(QString()), key);
    }

    // Every JSON reader refuses a duplicate key instead of silently keeping the last.
    void duplicateKeysRefusedByEveryReader()
    {
        const auto experiment =
            app::parseExperimentJson(R"({"logitlab":1,"replies":10,"replies":20})", QStringLiteral("e.json"));
        QCOMPARE(QString::fromStdString(experiment.error()),
                 QStringLiteral("e.json: replies: appears twice in one object (JSON keys must be unique)"));
        const auto state = app::explorerStateFromJson(
            R"({"format":"logitlab-explorer","version":2,"tokens":["a","b"],"logits":[1,2],"sampler":{"topK":2,"topK":0}})",
            QStringLiteral("s.json"));
        QCOMPARE(QString::fromStdString(state.error()),
                 QStringLiteral("s.json: sampler.topK: appears twice in one object (JSON keys must be unique)"));
        const auto set = app::applyOverride(QJsonObject(), QStringLiteral(R"(chart={"log_n":true,"log_n":false})"));
        QCOMPARE(QString::fromStdString(set.error()),
                 QStringLiteral("--set chart: log_n: appears twice in one object (JSON keys must be unique)"));
    }

    void oneLineText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << QStringLiteral("f.csv:3: logit 'x' is not a number")
                               << QStringLiteral("f.csv:3: logit 'x' is not a number");
        QTest::newRow("newlines") << QStringLiteral("a\nb\r\nc\td") << QStringLiteral("a\\nb\\r\\nc\\td");
        QTest::newRow("NUL") << QString::fromUtf16(u"x\0y", 3) << QStringLiteral("x\\0y");
        QTest::newRow("escape sequence") << QStringLiteral("\x1b[31mred") << QStringLiteral("\\x1b[31mred");
        QTest::newRow("line separator") << QString::fromUtf16(u"a\u2028b") << QStringLiteral("a\\u2028b");
        QTest::newRow("unicode kept") << QStringLiteral("caf\u00e9 \u2192 \U0001F600")
                                      << QStringLiteral("caf\u00e9 \u2192 \U0001F600");
        QTest::newRow("UTF-16 bytes read as UTF-8") << QString::fromUtf8(QByteArray("\xFF\xFE"
                                                                                    "1\0",
                                                                                    4))
                                                    << QStringLiteral("\uFFFD\uFFFD1\\0");
    }
    void oneLineText()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(app::oneLineText(text), shown);
    }

    void oneLineTextIsBounded()
    {
        const QString shown = app::oneLineText(QString(5000, QLatin1Char('\n')), 100);
        QVERIFY(shown.size() < 140);
        QVERIFY(!shown.contains(QLatin1Char('\n')));
        QVERIFY(shown.endsWith(QStringLiteral("... (4950 more characters)")));
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "tst_input_limits.moc"
