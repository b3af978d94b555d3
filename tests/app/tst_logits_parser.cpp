// Parsing logits and tokens from the command line and from files: good input round-trips, bad
// input gets a message naming the field and the place.
#include "app/io/logits_file.h"
#include "engine/io/logits_parser.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace logitlab;
using namespace logitlab::engine;

class TestLogitsParser : public QObject {
    Q_OBJECT
private slots:
    void numberLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QList<double>>("values");
        QTest::newRow("lesson") << "3,2,1.5,1,-2" << QList<double>{3, 2, 1.5, 1, -2};
        QTest::newRow("spaces and plus") << " +1 , 2e-3 ,-0.5" << QList<double>{1, 0.002, -0.5};
        QTest::newRow("-inf spellings") << "-inf,-Infinity,0" << QList<double>{-INFINITY, -INFINITY, 0};
        QTest::newRow("single") << "7" << QList<double>{7};
        QTest::newRow("underflow is zero") << "1e-999,-1e-999" << QList<double>{0, -0.0};
    }
    void numberLists()
    {
        QFETCH(QString, text);
        QFETCH(QList<double>, values);
        const auto parsed = parseNumberList(text.toStdString(), "logits");
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().c_str());
        QCOMPARE(QList<double>(parsed->begin(), parsed->end()), values);
    }

    void badNumberLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << ""
                               << "logits: the list is empty";
        QTest::newRow("word") << "1,abc"
                              << "logits: item 2 ('abc') is not a number";
        QTest::newRow("empty item") << "1,,2"
                                    << "logits: item 2 ('') is not a number";
        QTest::newRow("trailing junk") << "1.5x"
                                       << "logits: item 1 ('1.5x') is not a number";
        QTest::newRow("double sign") << "++1"
                                     << "logits: item 1 ('++1') is not a number";
        QTest::newRow("overflow") << "1e999"
                                  << "logits: item 1 ('1e999') is not a number";
    }
    void badNumberLists()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto parsed = parseNumberList(text.toStdString(), "logits");
        QVERIFY(!parsed.ok());
        QCOMPARE(QString::fromStdString(parsed.error()), message);
    }

    void illegalLogits_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<QString>("message");
        QTest::newRow("nan") << QList<double>{1, NAN} << "logits: item 2 is NaN";
        QTest::newRow("+inf") << QList<double>{INFINITY}
                              << "logits: item 1 is +inf (only -inf, probability 0, is allowed)";
        QTest::newRow("all -inf") << QList<double>{-INFINITY, -INFINITY}
                                  << "logits: every logit is -inf, so no token has any probability";
        QTest::newRow("empty") << QList<double>{} << "logits: the list is empty";
    }
    void illegalLogits()
    {
        QFETCH(QList<double>, values);
        QFETCH(QString, message);
        const Eigen::ArrayXd a = Eigen::Map<const Eigen::ArrayXd>(values.data(), values.size());
        const auto problem = validateLogits(a);
        QVERIFY(problem.has_value());
        QCOMPARE(QString::fromStdString(*problem), message);
        QVERIFY(!validateLogits(Eigen::ArrayXd::Constant(2, 0.5)).has_value());
    }

    void files_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<QList<double>>("logits");
        QTest::newRow("numbers") << QByteArray("3\n2\n\n# comment\n1.5\r\n") << QStringList{}
                                 << QList<double>{3, 2, 1.5};
        QTest::newRow("csv with header") << QByteArray("token,logit\nusers,3\ndata,2\n") << QStringList{"users", "data"}
                                         << QList<double>{3, 2};
        QTest::newRow("csv quoted") << QByteArray("\",\",1\n\"say \"\"hi\"\"\",-inf\n")
                                    << QStringList{",", "say \"hi\""} << QList<double>{1, -INFINITY};
    }
    void files()
    {
        QFETCH(QByteArray, content);
        QFETCH(QStringList, tokens);
        QFETCH(QList<double>, logits);
        const auto d = parseLogitsText(std::string_view(content.constData(), std::size_t(content.size())), "f.csv");
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().c_str());
        QStringList gotTokens;
        for (const auto& t : d->tokens)
            gotTokens << QString::fromStdString(t);
        QCOMPARE(gotTokens, tokens);
        QCOMPARE(QList<double>(d->logits.data(), d->logits.data() + d->logits.size()), logits);
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QByteArray("\n# nothing\n") << "f.csv: no logits found";
        QTest::newRow("word") << QByteArray("1\nx\n") << "f.csv:2: logit 'x' is not a number";
        QTest::newRow("nan") << QByteArray("1\nnan\n") << "f.csv:2: logit is NaN";
        QTest::newRow("+inf in csv") << QByteArray("a,1\nb,inf\n")
                                     << "f.csv:2: logit is +inf (only -inf, probability 0, is allowed)";
        QTest::newRow("three fields") << QByteArray("a,1\nb,2,3\n")
                                      << "f.csv:2: expected 2 fields (token,logit), found 3";
        QTest::newRow("mixed") << QByteArray("1\na,2\n") << "f.csv:2: a token,logit row in a file of plain numbers";
        QTest::newRow("open quote") << QByteArray("\"a,1\n") << "f.csv:1: an unterminated quoted field";
        QTest::newRow("all -inf") << QByteArray("-inf\n-inf\n")
                                  << "f.csv: logits: every logit is -inf, so no token has any probability";
    }
    void badFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const auto d = parseLogitsText(std::string_view(content.constData(), std::size_t(content.size())), "f.csv");
        QVERIFY(!d.ok());
        QCOMPARE(QString::fromStdString(d.error()), message);
    }

    void readsFromDisk()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("l.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("1\n2\n");
        f.close();
        QVERIFY(app::readLogitsFile(path).ok());
        QCOMPARE(QString::fromStdString(app::readLogitsFile(dir.filePath(QStringLiteral("none"))).error()),
                 dir.filePath(QStringLiteral("none")) + QStringLiteral(": no such file"));
        QVERIFY(QString::fromStdString(app::readLogitsFile(dir.path()).error())
                    .endsWith(QLatin1String("is a folder, not a file")));
    }
};

QTEST_GUILESS_MAIN(TestLogitsParser)
#include "tst_logits_parser.moc"
