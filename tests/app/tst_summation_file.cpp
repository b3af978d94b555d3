// The summation-order experiment file and job: strict reading (every bad value refused with its
// key named), the JSON round trip, the same result tables for 1 and 4 threads, and failures
// (a term that overflows the storage format, a terms file with NaN) named with the file.
#include "app/kinds/summation_job.h"
#include "app/kinds/summation_spec.h"
#include "support/example_files.h"
#include "support/result_csv.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

QJsonObject base()
{
    return QJsonDocument::fromJson(R"({"logitlab": 1, "experiment": "summation-order", "name": "t",
        "terms": {"distribution": "normal", "n": 1000}, "shuffles": 20})")
        .object();
}

// `base()` with one key changed, by dotted path.
QJsonObject with(const QString& assignment)
{
    const auto root = app::applyOverride(base(), assignment);
    if (!root)
        qFatal("bad override %s", qPrintable(assignment));
    return root.value();
}

app::ExperimentResult runSpec(const app::SummationSpec& spec, const QString& dir, int threads)
{
    return app::summationResult(spec, dir, app::runSummation(spec, dir, QStringLiteral("t.json"), threads, {}),
                                threads);
}

}  // namespace

class TestSummationFile : public QObject {
    Q_OBJECT

private slots:
    void badInputNamesTheKey_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("message");
        QTest::newRow("N = 0") << QStringLiteral("terms.n=0")
                               << QStringLiteral("t.json: terms.n: must be in 1..10000000, got 0");
        QTest::newRow("unknown distribution")
            << QStringLiteral("terms.distribution=lognormal") << QStringLiteral("t.json: terms.distribution:");
        QTest::newRow("unknown method") << QStringLiteral(R"(methods=["pairwise","fastest"])")
                                        << QStringLiteral("t.json: methods.1: must be one of left-to-right,");
        QTest::newRow("method twice") << QStringLiteral(R"(methods=["kahan","kahan"])")
                                      << QStringLiteral("t.json: methods.1: \"kahan\" is listed twice");
        QTest::newRow("unknown storage") << QStringLiteral("storage=float8") << QStringLiteral("t.json: storage:");
        QTest::newRow("unknown accumulator")
            << QStringLiteral("accumulator=fp8") << QStringLiteral("t.json: accumulator:");
        QTest::newRow("lanes not a power of two")
            << QStringLiteral("shape.lanes=6") << QStringLiteral("t.json: shape.lanes: must be a power of two, got 6");
        QTest::newRow("split 0") << QStringLiteral("shape.split=0") << QStringLiteral("t.json: shape.split:");
        QTest::newRow("spread not a power of ten")
            << QStringLiteral("spread.max_n=5000") << QStringLiteral("t.json: spread.max_n:");
        QTest::newRow("negative shuffles") << QStringLiteral("shuffles=-1") << QStringLiteral("t.json: shuffles:");
        QTest::newRow("NaN as a term") << QStringLiteral(R"(terms={"distribution":"list","values":[1,"NaN",2]})")
                                       << QStringLiteral("t.json: terms.values.1: must be a number, not a string");
        QTest::newRow("empty list") << QStringLiteral(R"(terms={"distribution":"list","values":[]})")
                                    << QStringLiteral("t.json: terms.values: must hold");
        QTest::newRow("values and file") << QStringLiteral(
                                                R"(terms={"distribution":"list","values":[1],"file":"a.txt"})")
                                         << QStringLiteral("t.json: terms.values: a list takes either");
        QTest::newRow("unknown key") << QStringLiteral("terms.sigma=2") << QStringLiteral("t.json: terms.sigma:");
        QTest::newRow("nothing to sum") << QStringLiteral("methods=[]") << QString();
    }
    void badInputNamesTheKey()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, message);
        QJsonObject root = with(assignment);
        if (message.isEmpty()) {  // no methods and no shuffles
            root.insert(QStringLiteral("shuffles"), 0);
            message = QStringLiteral("t.json: methods: list at least one method");
        }
        const auto spec = app::parseSummation(root, QStringLiteral("t.json"));
        QVERIFY(!spec);
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(message), spec.error().c_str());
    }

    void roundTrip()
    {
        const auto spec = app::parseSummation(with(QStringLiteral(R"(shape={"split":3,"lanes":16,"threads":5})")),
                                              QStringLiteral("t.json"));
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->split, 3);
        QCOMPARE(spec->lanes, 16);
        QCOMPARE(spec->methods.size(), qsizetype(12));
        const auto again = app::parseSummation(app::toJson(spec.value()), QStringLiteral("again"));
        QVERIFY(again);
        QVERIFY(again.value() == spec.value());
    }

    void sameTablesForAnyThreadCount()
    {
        auto root = with(QStringLiteral(R"(spread={"max_n":1000,"terms":20000})"));
        root.insert(QStringLiteral("storage"), QStringLiteral("bf16"));
        const auto spec = app::parseSummation(root, QStringLiteral("t.json"));
        QVERIFY(spec);
        const auto one = runSpec(spec.value(), QString(), 1);
        const auto four = runSpec(spec.value(), QString(), 4);
        QVERIFY2(one.status.finished(), qPrintable(one.status.message));
        QCOMPARE(one.tables.size(), std::size_t{5});
        QCOMPARE(test::resultCsv(four), test::resultCsv(one));
    }

    void termOverflowingStorageFails()
    {
        auto root = with(QStringLiteral(R"(terms={"distribution":"list","values":[1,1e5]})"));
        root.insert(QStringLiteral("storage"), QStringLiteral("f16"));
        const auto spec = app::parseSummation(root, QStringLiteral("t.json"));
        QVERIFY(spec);
        const auto result = runSpec(spec.value(), QString(), 2);
        QCOMPARE(result.status.state, app::RunStatus::State::Failed);
        QCOMPARE(result.status.message,
                 QStringLiteral("t.json: terms: term 2 (1e+05) overflows f16 (largest finite 65504)"));
    }

    void termsFileIsReadStrictly_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("message");
        QTest::newRow("good") << QByteArray("# terms\n1\n1e100\n1\n-1e100\n") << QString();
        QTest::newRow("NaN") << QByteArray("1\nNaN\n")
                             << QStringLiteral("t.json: terms.file: terms.txt:2: 'NaN' is not finite");
        QTest::newRow("word") << QByteArray("1\n2\nbanana\n")
                              << QStringLiteral("t.json: terms.file: terms.txt:3: 'banana' is not a number");
    }
    void termsFileIsReadStrictly()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("terms.txt")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(contents);
        file.close();
        auto root = with(QStringLiteral(R"(terms={"distribution":"list","file":"terms.txt"})"));
        root.insert(QStringLiteral("storage"), QStringLiteral("float64"));
        root.insert(QStringLiteral("accumulator"), QStringLiteral("float64"));
        const auto spec = app::parseSummation(root, QStringLiteral("t.json"));
        QVERIFY(spec);
        const auto result = runSpec(spec.value(), dir.path(), 2);
        if (!message.isEmpty()) {
            QCOMPARE(result.status.state, app::RunStatus::State::Failed);
            QVERIFY2(result.status.message.startsWith(message), qPrintable(result.status.message));
            return;
        }
        QVERIFY2(result.status.finished(), qPrintable(result.status.message));
        const auto* methods = result.table(QString());
        QVERIFY(methods);
        // The exact sum of [1, 1e100, 1, -1e100] is 2; Neumaier finds it, left to right does not.
        const QStringList names = methods->columnNames();
        const auto cell = [&](const QString& method, const QString& column) {
            for (std::size_t r = 0; r < methods->rows; ++r)
                if (app::csvCell(methods->columns[0], r) == method)
                    return app::csvCell(methods->columns[static_cast<std::size_t>(names.indexOf(column))], r);
            return QString();
        };
        QCOMPARE(cell(QStringLiteral("exact"), QStringLiteral("result")), QStringLiteral("2"));
        QCOMPARE(cell(QStringLiteral("neumaier"), QStringLiteral("result")), QStringLiteral("2"));
        QCOMPARE(cell(QStringLiteral("left-to-right"), QStringLiteral("result")), QStringLiteral("0"));
        QVERIFY(result.provenance.asText().contains(QStringLiteral("sha256=")));
    }
};

QTEST_GUILESS_MAIN(TestSummationFile)
#include "tst_summation_file.moc"
