// `logitlab-cli run` as a user runs it (QProcess on the built binary): valid CSV, PNG, SVG and
// PDF with provenance, the same CSV bytes for any thread count, and exit code 2 with one
// stderr line and nothing written for every kind of bad input.
#include "support/example_files.h"
#include "support/test_support.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <csignal>
#include <sys/mount.h>

namespace {

using Run = logitlab::test::CliRun;

Run runCli(const QStringList& arguments)
{
    return logitlab::test::runCli(QStringList{QStringLiteral("run")} + arguments);
}

using logitlab::test::readAll;

// The CLI with its environment set up as runCli() does, not yet started.
void prepare(QProcess& process) { process.setProcessEnvironment(logitlab::test::headlessEnvironment()); }

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestRunCommand : public QObject {
    Q_OBJECT

private slots:
    void writesAllFormats()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run run =
            runCli({logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json")), QStringLiteral("--out"), out,
                    QStringLiteral("--set"), QStringLiteral("replies=2000"), QStringLiteral("--threads"),
                    QStringLiteral("2"), QStringLiteral("--formats"), QStringLiteral("csv,png,svg,pdf")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString base = QDir(out).filePath(QStringLiteral("junk-risk-lesson"));

        // CSV: provenance lines, the header, one row per (setting, length) with numbers in range.
        const QStringList lines =
            QString::fromUtf8(readAll(base + QStringLiteral(".csv"))).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.contains(QStringLiteral("# replies: 2000")));
        QVERIFY(lines.contains(QStringLiteral("# seed: 42")));
        const qsizetype header = lines.indexOf(QStringLiteral(
            "setting,chain,n,q_before,q_after,p_any_analytic,expected_junk,replies,replies_with_junk,p_any_mc,"
            "p_any_mc_low,p_any_mc_high,mean_junk_mc"));
        QVERIFY(header > 0);
        for (qsizetype i = 0; i < header; ++i)
            QVERIFY(lines[i].startsWith(QLatin1Char('#')));
        QCOMPARE(lines.size() - header - 1, qsizetype{2 * 12});
        bool sawLessonRow = false;
        for (qsizetype i = header + 1; i < lines.size(); ++i) {
            QString line = lines[i];
            line.replace(QStringLiteral("\"temperature=1,top-p=0.9\""), QStringLiteral("chain"));
            const QStringList f = line.split(QLatin1Char(','));
            QCOMPARE(f.size(), qsizetype{13});
            const double p = f[9].toDouble();
            QVERIFY(f[10].toDouble() <= p && p <= f[11].toDouble());
            if (f[0] == QLatin1String("plain T=1") && f[2] == QLatin1String("300")) {
                sawLessonRow = true;
                QVERIFY(std::abs(f[5].toDouble() - 0.6995297162541512) < 1e-12);
            }
        }
        QVERIFY(sawLessonRow);

        // PNG with the provenance in its text chunks.
        const QImage png(base + QStringLiteral(".png"));
        QVERIFY(!png.isNull());
        QVERIFY(png.width() > 1000);
        QVERIFY(png.text(QStringLiteral("Description")).contains(QStringLiteral("name: junk-risk-lesson")));

        // SVG: well-formed XML with an <svg> root and the provenance in <desc>.
        QXmlStreamReader xml(readAll(base + QStringLiteral(".svg")));
        bool sawDesc = false;
        QString root;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                if (root.isEmpty())
                    root = xml.name().toString();
                if (xml.name() == QLatin1String("desc"))
                    sawDesc = sawDesc || xml.readElementText().contains(QStringLiteral("junk-risk-lesson"));
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(root, QStringLiteral("svg"));
        QVERIFY(sawDesc);

        // PDF: header, trailer, and the experiment in its metadata.
        const QByteArray pdf = readAll(base + QStringLiteral(".pdf"));
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        QVERIFY(pdf.contains("junk-risk"));
    }

    void sameBytesOnAnyThreadCount()
    {
        QTemporaryDir dir;
        QByteArray first;
        for (const char* threads : {"1", "4", "4"}) {
            const QString out =
                dir.filePath(QString::fromLatin1(threads) + QStringLiteral("-") + QString::number(first.size()));
            const Run run = runCli({logitlab::test::examplePath(QStringLiteral("junk-risk-zipf-262k.json")),
                                    QStringLiteral("--out"), out, QStringLiteral("--set"),
                                    QStringLiteral("replies=1000"), QStringLiteral("--threads"),
                                    QString::fromLatin1(threads), QStringLiteral("--formats"), QStringLiteral("csv")});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            const QByteArray csv = readAll(QDir(out).filePath(QStringLiteral("junk-risk-zipf-262k.csv")));
            QVERIFY(csv.size() > 1000);
            if (first.isEmpty())
                first = csv;
            else
                QCOMPARE(csv, first);
        }
    }

    // Every file the app saves runs headless: an Explorer state file writes the Explorer's four
    // tables and charts, with the provenance of its chain and draws.
    void explorerStateRunsHeadless()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run run = runCli({logitlab::test::examplePath(QStringLiteral("explorer-llama-xtc.json")),
                                QStringLiteral("--out"), out, QStringLiteral("--formats"), QStringLiteral("csv,svg")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString base = QDir(out).filePath(QStringLiteral("explorer-llama-xtc"));
        const QStringList headers{
            QStringLiteral("token_id,token,logit,p,survivor,p_renormalised,rank"),
            QStringLiteral("temperature,survivors,p:users,p:data,p:items,p:result,p:banana"),
            QStringLiteral("token_id,token,p,expected,drawn"),
            QStringLiteral("token_id,token,p:lesson,p:llama.cpp,p:hf,p:vllm"),
        };
        const QStringList suffixes{QString(), QStringLiteral("-sweep"), QStringLiteral("-draws"),
                                   QStringLiteral("-compare")};
        for (qsizetype i = 0; i < suffixes.size(); ++i) {
            const QStringList lines = QString::fromUtf8(readAll(base + suffixes[i] + QStringLiteral(".csv")))
                                          .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QVERIFY2(lines.contains(QStringLiteral("# semantics: llama.cpp")), qPrintable(suffixes[i]));
            QVERIFY(lines.contains(QStringLiteral("# seed: 42")));
            const qsizetype header = lines.indexOf(headers[i]);
            QVERIFY2(header > 0, qPrintable(lines.join(QLatin1Char('\n'))));
            QVERIFY(lines.size() > header + 1);
            QVERIFY(readAll(base + suffixes[i] + QStringLiteral(".svg")).contains("<svg"));
        }
        // The draws add up to the file's count; the only survivor of the shown step is 'result'.
        const QStringList draws = QString::fromUtf8(readAll(base + QStringLiteral("-draws.csv")))
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        qint64 total = 0;
        for (const QString& line : draws.mid(draws.indexOf(headers[2]) + 1))
            total += line.split(QLatin1Char(',')).last().toLongLong();
        QCOMPARE(total, qint64{10000});
        QVERIFY(readAll(base + QStringLiteral(".csv")).contains("\n3,result,1,0.1004420345037589,1,1,4\n"));
        QVERIFY(run.err.contains("explorer-llama-xtc: 5 tokens, 1 survivors"));
    }

    // --size, --dpi and --font-scale reach the written files: the PNG's pixels, the PDF's page,
    // the SVG's size.
    void chartSizeOptions_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QSize>("pixels");
        QTest::addColumn<QString>("mediaBox");
        QTest::addColumn<QString>("svgSize");
        QTest::newRow("one column") << QStringList{QStringLiteral("--size"), QStringLiteral("8.5x6cm")}
                                    << QSize(1004, 709) << "0 0 241.000000 170.000000"
                                    << "width=\"8.5cm\" height=\"6cm\"";
        QTest::newRow("inches, 150 dpi, font scale 1.5")
            << QStringList{QStringLiteral("--size"), QStringLiteral("3.3x2.4in"),    QStringLiteral("--dpi"),
                           QStringLiteral("150"),    QStringLiteral("--font-scale"), QStringLiteral("1.5")}
            << QSize(495, 360) << "0 0 238.000000 173.000000"
            << "width=\"3.3in\" height=\"2.4in\"";
        // Without --size: today's 960x600 logical pixels (10 x 6.25 in).
        QTest::newRow("dpi only") << QStringList{QStringLiteral("--dpi"), QStringLiteral("96")} << QSize(960, 600)
                                  << "0 0 720.000000 450.000000"
                                  << "width=\"10in\" height=\"6.25in\"";
    }
    void chartSizeOptions()
    {
        QFETCH(QStringList, options);
        QFETCH(QSize, pixels);
        QFETCH(QString, mediaBox);
        QFETCH(QString, svgSize);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run run = runCli(QStringList{logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json")),
                                           QStringLiteral("--out"), out, QStringLiteral("--formats"),
                                           QStringLiteral("png,pdf,svg")} +
                               options);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QDir folder(out);
        const QStringList pngs = folder.entryList({QStringLiteral("*.png")});
        QVERIFY(!pngs.isEmpty());
        for (const QString& png : pngs)
            QCOMPARE(QImage(folder.filePath(png)).size(), pixels);
        for (const QString& pdf : folder.entryList({QStringLiteral("*.pdf")}))
            QVERIFY2(readAll(folder.filePath(pdf)).contains("/MediaBox [" + mediaBox.toLatin1() + "]"),
                     qPrintable(pdf));
        for (const QString& svg : folder.entryList({QStringLiteral("*.svg")}))
            QVERIFY2(readAll(folder.filePath(svg)).contains("<svg " + svgSize.toLatin1()), qPrintable(svg));
    }

    // Figures carry no title unless --title asks (the paper's caption names a figure).
    void titleOnlyWithTheOption_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<bool>("title");
        QTest::newRow("default") << QStringList{} << false;
        QTest::newRow("--title") << QStringList{QStringLiteral("--title")} << true;
        QTest::newRow("screen size, --title") << QStringList{QStringLiteral("--title")} << true;
    }
    void titleOnlyWithTheOption()
    {
        QFETCH(QStringList, options);
        QFETCH(bool, title);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        const QStringList size = QString::fromLatin1(QTest::currentDataTag()).startsWith(QLatin1String("screen"))
                                     ? QStringList{}
                                     : QStringList{QStringLiteral("--size"), QStringLiteral("8.5x6cm")};
        const Run run =
            runCli(QStringList{logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json")),
                               QStringLiteral("--out"), out, QStringLiteral("--formats"), QStringLiteral("svg")} +
                   size + options);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QStringList svgs = QDir(out).entryList({QStringLiteral("*.svg")});
        QVERIFY(!svgs.isEmpty());
        const QByteArray svg = readAll(QDir(out).filePath(svgs.first()));
        QVERIFY2(svg.contains("reply length N"), "the axis titles are drawn either way");
        QCOMPARE(svg.contains("Risk of"), title);
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("arguments");  // FILE is replaced by the lesson example
        QTest::addColumn<QString>("message");        // expected in the single stderr line
        const QString file = QStringLiteral("FILE");
        QTest::newRow("unknown key") << QStringList{file, QStringLiteral("--set"), QStringLiteral("colour=1")}
                                     << "colour: unknown key";
        QTest::newRow("wrong type") << QStringList{file, QStringLiteral("--set"), QStringLiteral("replies=\"x\"")}
                                    << "replies: must be a whole number";
        QTest::newRow("out of range") << QStringList{file, QStringLiteral("--set"), QStringLiteral("junk.ids=[99]")}
                                      << "junk.ids.0: token id 99 is outside";
        QTest::newRow("unknown version") << QStringList{file, QStringLiteral("--set"), QStringLiteral("logitlab=7")}
                                         << "logitlab: unknown version 7";
        QTest::newRow("bad --set") << QStringList{file, QStringLiteral("--set"), QStringLiteral("nothing")}
                                   << "--set: expected key=value";
        QTest::newRow("bad --threads") << QStringList{file, QStringLiteral("--threads"), QStringLiteral("0")}
                                       << "threads: must be between 1 and 1024";
        QTest::newRow("bad --formats") << QStringList{file, QStringLiteral("--formats"), QStringLiteral("csv,gif")}
                                       << "--formats: unknown format 'gif'";
        QTest::newRow("zero --size") << QStringList{file, QStringLiteral("--size"), QStringLiteral("0x6cm")}
                                     << "--size: width: must be between 1 and 100 cm, got 0";
        QTest::newRow("--size without unit") << QStringList{file, QStringLiteral("--size"), QStringLiteral("8.5x6")}
                                             << "--size: '8.5x6' is not WIDTHxHEIGHT";
        QTest::newRow("--size in mm") << QStringList{file, QStringLiteral("--size"), QStringLiteral("85x60mm")}
                                      << "--size: '85x60mm' is not WIDTHxHEIGHT";
        QTest::newRow("--dpi 95") << QStringList{file, QStringLiteral("--dpi"), QStringLiteral("95")}
                                  << "dpi: must be between 96 and 600, got 95";
        QTest::newRow("--dpi 601") << QStringList{file, QStringLiteral("--dpi"), QStringLiteral("601")}
                                   << "dpi: must be between 96 and 600, got 601";
        QTest::newRow("--font-scale 4") << QStringList{file, QStringLiteral("--font-scale"), QStringLiteral("4")}
                                        << "--font-scale: font scale: must be between 0.5 and 3, got 4";
        QTest::newRow("--font-scale nan")
            << QStringList{file, QStringLiteral("--font-scale"), QStringLiteral("nan")} << "--font-scale: ";
        QTest::newRow("--font-scale text") << QStringList{file, QStringLiteral("--font-scale"), QStringLiteral("big")}
                                           << "font-scale: 'big' is not a number";
        QTest::newRow("missing file") << QStringList{QStringLiteral("/nonexistent/x.json")}
                                      << "/nonexistent/x.json: no such file";
        QTest::newRow("no file") << QStringList{} << "missing the experiment file";
        QTest::newRow("two files") << QStringList{file, file} << "unexpected argument";
        QTest::newRow("malformed") << QStringList{QStringLiteral("MALFORMED")} << "malformed JSON at offset";
        QTest::newRow("work over the limit")
            << QStringList{file, QStringLiteral("--set"), QStringLiteral("replies=1000000000")}
            << "replies: about 4.0e12 draws of work, over the limit of 1.0e11";
        QTest::newRow("unknown kind") << QStringList{file, QStringLiteral("--set"), QStringLiteral("experiment=beam")}
                                      << "experiment: must be one of junk-risk, seed-sweep";
    }

    void badInput()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString malformed = dir.filePath(QStringLiteral("malformed.json"));
        QFile m(malformed);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write("{\"logitlab\": 1,,");
        m.close();
        for (QString& a : arguments) {
            if (a == QLatin1String("FILE"))
                a = logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json"));
            else if (a == QLatin1String("MALFORMED"))
                a = malformed;
        }
        const QString out = dir.filePath(QStringLiteral("out"));
        const Run run = runCli(arguments + QStringList{QStringLiteral("--out"), out, QStringLiteral("--formats"),
                                                       arguments.contains(QStringLiteral("--formats"))
                                                           ? QStringLiteral("csv,gif")
                                                           : QStringLiteral("csv,png")});
        QCOMPARE(run.exitCode, 2);
        const QStringList errLines = QString::fromUtf8(run.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(errLines.size() == 1, run.err.constData());
        QVERIFY2(errLines[0].startsWith(QStringLiteral("logitlab-cli run: error: ")), run.err.constData());
        QVERIFY2(errLines[0].contains(message), run.err.constData());
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFileInfo::exists(out));  // nothing written, not even the folder
    }

    // --out under a regular file is refused before the file is read or anything computed.
    void outUnderARegularFileFailsFirst()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const Run run =
            runCli({logitlab::test::examplePath(QStringLiteral("seed-sweep-200-seeds.json")), QStringLiteral("--out"),
                    file + QStringLiteral("/out"), QStringLiteral("--set"), QStringLiteral("seeds.count=1000000"),
                    QStringLiteral("--formats"), QStringLiteral("csv")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(QString::fromUtf8(run.err),
                 QStringLiteral("logitlab-cli run: error: --out: %1/out: cannot create the folder: Not a directory\n")
                     .arg(file));
        QCOMPARE(entries(dir.path()), QStringList{"file"});
    }

    // A run that fails after --out was created removes the folder again, and an existing folder
    // keeps exactly what it held.
    void failedRunLeavesNoFolder()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("new/out"));
        const Run run = runCli({logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json")),
                                QStringLiteral("--out"), out, QStringLiteral("--set"), QStringLiteral("replies=-1")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(entries(dir.path()), QStringList());
    }

    // A full disk while the set is written: the earlier CSV stays byte for byte, the new PNG
    // never appears, no staging folder is left, and the message is the operating system's.
    void fullDiskKeepsTheEarlierSet()
    {
        QTemporaryDir dir;
        const QString disk = dir.filePath(QStringLiteral("disk"));
        QVERIFY(QDir().mkpath(disk));
        if (::mount("tmpfs", QFile::encodeName(disk).constData(), "tmpfs", 0, "size=64k") != 0)
            QSKIP("cannot mount a 64 KiB tmpfs here (needs root)");
        const auto unmount = qScopeGuard([&disk] { ::umount2(QFile::encodeName(disk).constData(), MNT_DETACH); });
        const QString out = QDir(disk).filePath(QStringLiteral("out"));
        const QString file = logitlab::test::examplePath(QStringLiteral("junk-risk-lesson.json"));
        const Run first = runCli({file, QStringLiteral("--out"), out, QStringLiteral("--set"),
                                  QStringLiteral("replies=1000"), QStringLiteral("--formats"), QStringLiteral("csv")});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const QString csv = QDir(out).filePath(QStringLiteral("junk-risk-lesson.csv"));
        const QByteArray earlier = readAll(csv);
        QVERIFY(earlier.contains("# replies: 1000"));

        const Run second =
            runCli({file, QStringLiteral("--out"), out, QStringLiteral("--set"), QStringLiteral("replies=2000"),
                    QStringLiteral("--formats"), QStringLiteral("csv,png")});
        QCOMPARE(second.exitCode, 2);
        const QString err = QString::fromUtf8(second.err);
        QVERIFY2(err.startsWith(QStringLiteral("logitlab-cli run: error: ") + out) &&
                     err.contains(QStringLiteral("No space left on device")) && err.count(QLatin1Char('\n')) == 1,
                 second.err.constData());
        QVERIFY2(!err.contains(QStringLiteral(".logitlab-tmp")), second.err.constData());
        QCOMPARE(readAll(csv), earlier);
        QCOMPARE(entries(out), QStringList{"junk-risk-lesson.csv"});

        // A folder created for the failed run goes again.
        const Run fresh = runCli({file, QStringLiteral("--out"), QDir(disk).filePath(QStringLiteral("fresh")),
                                  QStringLiteral("--formats"), QStringLiteral("csv,png")});
        QCOMPARE(fresh.exitCode, 2);
        QCOMPARE(entries(disk), QStringList{"out"});
    }

    void signalCancelsTheRun_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<bool>("earlierSet");
        QTest::newRow("SIGINT, new folder") << int(SIGINT) << false;
        QTest::newRow("SIGTERM, earlier set") << int(SIGTERM) << true;
    }
    // Ctrl-C or kill during a long run: exit 128 + signal, one line, nothing of the run left.
    void signalCancelsTheRun()
    {
        QFETCH(int, signal);
        QFETCH(bool, earlierSet);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("out"));
        if (earlierSet) {
            QVERIFY(QDir().mkpath(out));
            QFile earlier(QDir(out).filePath(QStringLiteral("seed-sweep-200-seeds.csv")));
            QVERIFY(earlier.open(QIODevice::WriteOnly));
            earlier.write("earlier");
        }
        QProcess process;
        prepare(process);
        // 2 x 10^9 draws on one thread: far longer than the test waits (and under the work limit).
        process.start(logitlab::test::binaryPath(QStringLiteral("logitlab-cli")),
                      {QStringLiteral("run"), logitlab::test::examplePath(QStringLiteral("seed-sweep-200-seeds.json")),
                       QStringLiteral("--out"), out, QStringLiteral("--set"), QStringLiteral("seeds.count=20000"),
                       QStringLiteral("--set"), QStringLiteral("draws=100000"), QStringLiteral("--threads"),
                       QStringLiteral("1"), QStringLiteral("--formats"), QStringLiteral("csv,png")});
        QVERIFY(process.waitForStarted());
        // The staging folder appears once the handlers are in place, before the computation.
        QTRY_VERIFY_WITH_TIMEOUT(entries(out).join(QLatin1Char(' ')).contains(QStringLiteral(".logitlab-tmp-")),
                                 60'000);
        QCOMPARE(::kill(static_cast<pid_t>(process.processId()), signal), 0);
        QVERIFY(process.waitForFinished(60'000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 128 + signal);
        QCOMPARE(QString::fromUtf8(process.readAllStandardError()),
                 QStringLiteral("logitlab-cli run: interrupted by %1; nothing written\n")
                     .arg(signal == SIGINT ? QStringLiteral("SIGINT") : QStringLiteral("SIGTERM")));
        QVERIFY(process.readAllStandardOutput().isEmpty());
        if (earlierSet) {
            QCOMPARE(entries(out), QStringList{"seed-sweep-200-seeds.csv"});
            QCOMPARE(readAll(QDir(out).filePath(QStringLiteral("seed-sweep-200-seeds.csv"))), QByteArray("earlier"));
        } else {
            QVERIFY(!QFileInfo::exists(out));
        }
    }
};

QTEST_GUILESS_MAIN(TestRunCommand)
#include "tst_run_command.moc"
