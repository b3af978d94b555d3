// `logitlab-cli run --formats py,tex` (issue 33): for every example, each chart's data CSV, a
// matplotlib script and a pgfplots file. Each script runs under Debian's python3-matplotlib
// (scripts/setup.sh installs it), writes a PDF, and the y values it plotted equal the CSV's,
// series by series; each .tex draws one \addplot per series from that CSV.
#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <vector>

using namespace logitlab;

namespace {

// The y column of a -data.csv, by series index (the si column); `boxes`, per box plot series,
// its boxes (a box's five rows are box-min .. box-max).
std::map<int, std::vector<double>> csvSeries(const QString& path, std::map<int, int>* boxes = nullptr)
{
    std::map<int, std::vector<double>> series;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return series;
    bool header = true;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('#')) || line.isEmpty())
            continue;
        if (header) {
            header = false;
            continue;
        }
        const QStringList fields = test::csvFields(line);
        series[fields.value(1).toInt()].push_back(fields.value(5).toDouble());
        if (boxes && fields.value(2) == QLatin1String("box-median"))
            ++(*boxes)[fields.value(1).toInt()];
    }
    return series;
}

// Runs every script in one interpreter (matplotlib is imported once): {script: its --dump}.
const char* kDriver = R"PY(
import contextlib, io, json, runpy, sys
out = {}
for script in sys.argv[1:]:
    sys.argv = [script, script[:-3] + ".pdf", "--dump"]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        runpy.run_path(script, run_name="__main__")
    out[script] = json.loads(buffer.getvalue())
print(json.dumps(out))
)PY";

}  // namespace

class TestChartScripts : public QObject {
    Q_OBJECT
private slots:
    void everyExampleReplotsFromItsCsv_data()
    {
        QTest::addColumn<QString>("example");
        for (const QString& path : test::exampleFiles())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }
    void everyExampleReplotsFromItsCsv()
    {
        QFETCH(QString, example);
        QString why;
        const QString python = test::pythonWith({QStringLiteral("matplotlib")}, &why);
        if (python.isEmpty())
            QSKIP(qPrintable(why));
        QTemporaryDir dir;
        const auto run = test::runCli({QStringLiteral("run"), example, QStringLiteral("--out"), dir.path(),
                                       QStringLiteral("--formats"), QStringLiteral("csv,py,tex"),
                                       QStringLiteral("--size"), QStringLiteral("8.5x6cm")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QDir out(dir.path());
        const QStringList scripts = out.entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name);
        QVERIFY(!scripts.isEmpty());
        QStringList paths;
        for (const QString& s : scripts) {
            paths << out.filePath(s);
            const QString base = s.chopped(3);
            QVERIFY2(out.exists(base + QStringLiteral("-data.csv")), qPrintable(base));
            QFile tex(out.filePath(base + QStringLiteral(".tex")));
            QVERIFY(tex.open(QIODevice::ReadOnly));
            const QString texText = QString::fromUtf8(tex.readAll());
            // One \addplot per series, a box plot's one per box.
            std::map<int, int> boxesOf;
            const auto series = csvSeries(out.filePath(base + QStringLiteral("-data.csv")), &boxesOf);
            qsizetype boxes = 0;
            for (const auto& [si, count] : boxesOf)
                boxes += count;
            QCOMPARE(texText.count(QStringLiteral("boxplot prepared")), boxes);
            QCOMPARE(texText.count(QStringLiteral("\\addplot[")),
                     static_cast<qsizetype>(series.size() - boxesOf.size()) + boxes);
            QVERIFY(texText.contains(base + QStringLiteral("-data.csv")));
        }
        QProcess process;
        process.setProcessEnvironment(test::headlessEnvironment());
        process.start(python, QStringList{QStringLiteral("-c"), QString::fromLatin1(kDriver)} + paths);
        QVERIFY(process.waitForFinished(300000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QJsonObject dumps = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        QCOMPARE(dumps.size(), paths.size());
        for (const QString& path : paths) {
            QFile pdf(path.chopped(3) + QStringLiteral(".pdf"));
            QVERIFY2(pdf.open(QIODevice::ReadOnly) && pdf.read(5) == "%PDF-", qPrintable(pdf.fileName()));
            const auto expected = csvSeries(path.chopped(3) + QStringLiteral("-data.csv"));
            const QJsonObject dump = dumps.value(path).toObject();
            QCOMPARE(static_cast<std::size_t>(dump.size()), expected.size());
            for (const auto& [si, values] : expected) {
                const QJsonArray plotted = dump.value(QString::number(si)).toArray();
                QCOMPARE(static_cast<std::size_t>(plotted.size()), values.size());
                for (std::size_t i = 0; i < values.size(); ++i)
                    QCOMPARE(plotted.at(static_cast<qsizetype>(i)).toDouble(), values[i]);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestChartScripts)
#include "tst_chart_scripts.moc"
