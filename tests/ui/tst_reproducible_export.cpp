// Every export is byte-reproducible (issue 11, item 12): the same chart written twice gives the
// same bytes in every format, also from two separate processes (Qt orders a PDF's fonts by a hash
// whose seed is random per process), and the only date a file carries is SOURCE_DATE_EPOCH.
#include "app/io/reproducible_pdf.h"
#include "charts/chart_export.h"
#include "support/example_files.h"
#include "support/test_support.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QValueAxis>

using namespace logitlab;

namespace {

using logitlab::test::readAll;

// A chart with a bold title, axis titles and labels: several fonts, so several font subsets.
std::unique_ptr<QChart> sampleChart()
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(QStringLiteral("Probabilities at T = 1"));
    QFont title = chart->titleFont();
    title.setBold(true);
    chart->setTitleFont(title);
    auto* set = new QBarSet(QStringLiteral("p"));
    *set << 0.577 << 0.212 << 0.129 << 0.078 << 0.004;
    auto* series = new QBarSeries;
    series->append(set);
    chart->addSeries(series);
    auto* tokens = new QBarCategoryAxis;
    tokens->append({QStringLiteral("users"), QStringLiteral("data"), QStringLiteral("items"), QStringLiteral("result"),
                    QStringLiteral("banana")});
    tokens->setTitleText(QStringLiteral("token"));
    QFont italic = tokens->titleFont();
    italic.setItalic(true);
    tokens->setTitleFont(italic);
    auto* p = new QValueAxis;
    p->setRange(0, 1);
    p->setTitleText(QStringLiteral("probability"));
    chart->addAxis(tokens, Qt::AlignBottom);
    chart->addAxis(p, Qt::AlignLeft);
    series->attachAxis(tokens);
    series->attachAxis(p);
    return chart;
}

}  // namespace

class TestReproducibleExport : public QObject {
    Q_OBJECT

private slots:
    void sameBytesTwice_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("png") << QStringLiteral("png");
        QTest::newRow("svg") << QStringLiteral("svg");
        QTest::newRow("pdf") << QStringLiteral("pdf");
    }
    void sameBytesTwice()
    {
        QFETCH(QString, format);
        qunsetenv("SOURCE_DATE_EPOCH");
        QTemporaryDir dir;
        const auto chart = sampleChart();
        const app::Provenance provenance(QStringLiteral("reproducible"));
        QByteArray first;
        for (int i = 0; i < 2; ++i) {
            const QString path = dir.filePath(QStringLiteral("c%1.%2").arg(i).arg(format));
            QCOMPARE(ui::exportChart(chart.get(), path, *ui::chartFormatFromName(format), provenance), QString());
            const QByteArray bytes = readAll(path);
            QVERIFY(bytes.size() > 1000);
            if (i == 0)
                first = bytes;
            else
                QVERIFY2(bytes == first, qPrintable(format + QStringLiteral(" differs between two exports")));
        }
        if (format == QLatin1String("pdf"))
            QVERIFY2(!first.contains("(D:"), "a PDF without SOURCE_DATE_EPOCH carries no date");
    }

    void pdfDateFromSourceDateEpoch()
    {
        qputenv("SOURCE_DATE_EPOCH", "1577934245");  // 2020-01-02 03:04:05 UTC
        QTemporaryDir dir;
        const auto chart = sampleChart();
        const QString path = dir.filePath(QStringLiteral("c.pdf"));
        QCOMPARE(ui::exportChart(chart.get(), path, ui::ChartFormat::Pdf, app::Provenance(QStringLiteral("x"))),
                 QString());
        qunsetenv("SOURCE_DATE_EPOCH");
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.contains("/CreationDate (D:20200102030405Z)"));
        QCOMPARE(pdf.count("(D:"), qsizetype(1));
    }

    void sourceDateEpoch_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("date");  // UTC, empty for none
        QTest::newRow("unset") << QByteArray() << QString();
        QTest::newRow("zero") << QByteArray("0") << QStringLiteral("1970-01-01 00:00:00");
        QTest::newRow("2020") << QByteArray("1577934245") << QStringLiteral("2020-01-02 03:04:05");
        QTest::newRow("negative") << QByteArray("-1") << QString();
        QTest::newRow("not a number") << QByteArray("yesterday") << QString();
        QTest::newRow("after 9999") << QByteArray("253402300800") << QString();
    }
    void sourceDateEpoch()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, date);
        if (value.isEmpty())
            qunsetenv("SOURCE_DATE_EPOCH");
        else
            qputenv("SOURCE_DATE_EPOCH", value);
        const auto parsed = app::sourceDateEpoch();
        qunsetenv("SOURCE_DATE_EPOCH");
        QCOMPARE(parsed ? parsed->toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : QString(), date);
    }

    // The entry is rewritten in place: the file keeps its length, so the xref offsets stay right.
    void fixedPdfDates_data()
    {
        QTest::addColumn<QByteArray>("pdf");
        QTest::addColumn<bool>("withDate");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray utc = "<<\n/CreationDate (D:20261130115407Z)\n>>";
        const QByteArray local = "<<\n/CreationDate (D:20261130125407+01'00')\n/ModDate (D:20261130125407+01'00')\n>>";
        QTest::newRow("UTC, blanked") << utc << false << "<<\n" + QByteArray(33, ' ') + "\n>>";
        QTest::newRow("UTC, epoch") << utc << true << QByteArray("<<\n/CreationDate (D:20200102030405Z)\n>>");
        QTest::newRow("offset, epoch") << local << true
                                       << "<<\n/CreationDate (D:20200102030405Z)" + QByteArray(6, ' ') +
                                              "\n/ModDate (D:20200102030405Z)" + QByteArray(6, ' ') + "\n>>";
        QTest::newRow("no date") << QByteArray("<< /Title (x) >>") << true << QByteArray("<< /Title (x) >>");
    }
    void fixedPdfDates()
    {
        QFETCH(QByteArray, pdf);
        QFETCH(bool, withDate);
        QFETCH(QByteArray, expected);
        const std::optional<QDateTime> date =
            withDate ? std::optional(QDateTime(QDate(2020, 1, 2), QTime(3, 4, 5), QTimeZone::utc())) : std::nullopt;
        const QByteArray fixed = app::withFixedPdfDates(pdf, date);
        QCOMPARE(fixed, expected);
        QCOMPARE(fixed.size(), pdf.size());
    }

    // Two separate processes, every format: the bytes agree.
    void sameBytesFromTwoRuns()
    {
        QTemporaryDir dir;
        const QStringList formats{QStringLiteral("csv"), QStringLiteral("png"), QStringLiteral("svg"),
                                  QStringLiteral("pdf")};
        QList<QByteArray> first;
        for (int run = 0; run < 2; ++run) {
            const QString out = dir.filePath(QStringLiteral("run%1").arg(run));
            QProcess process;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove(QStringLiteral("SOURCE_DATE_EPOCH"));
            process.setProcessEnvironment(env);
            process.start(test::binaryPath(QStringLiteral("logitlab-cli")),
                          {QStringLiteral("run"), test::examplePath(QStringLiteral("seed-sweep-200-seeds.json")),
                           QStringLiteral("--out"), out, QStringLiteral("--formats"), formats.join(QLatin1Char(',')),
                           QStringLiteral("--set"), QStringLiteral("seeds.count=20"), QStringLiteral("--set"),
                           QStringLiteral("draws=1000")});
            QVERIFY(process.waitForFinished(120000));
            QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
            const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
            QVERIFY(files.size() >= formats.size());
            QList<QByteArray> contents;
            for (const QString& f : files)
                contents << readAll(QDir(out).filePath(f));
            if (run == 0) {
                first = contents;
                continue;
            }
            QCOMPARE(contents.size(), first.size());
            for (qsizetype i = 0; i < contents.size(); ++i)
                QVERIFY2(contents[i] == first[i], qPrintable(files[i] + QStringLiteral(" differs between two runs")));
        }
    }
};

QTEST_MAIN(TestReproducibleExport)
#include "tst_reproducible_export.moc"
