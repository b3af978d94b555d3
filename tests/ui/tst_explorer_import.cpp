// The Explorer opening a model's dump (issue 14): the steps are scanned on the worker, the step
// dialog lists each with its entropy, the chosen step loads with the tokenizer's names, and the
// provenance names the step and the file's SHA-256. A malformed dump is said next to the
// controls and the table stays.
#include "support/array_fixtures.h"
#include "support/test_support.h"
#include "ui/forms/step_picker_dialog.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

#include <cmath>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    return test::writeFixture(dir, name, bytes);
}

// This process's resident memory in KiB (Linux's /proc/self/status), or -1.
qint64 residentKib()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

// Step 0 uniform over 4 tokens, step 1 certain, step 2 the fixture's values.
double stepValue(std::uint64_t, std::uint64_t step, std::uint64_t token)
{
    if (step == 0)
        return 0.0;
    if (step == 1)
        return token == 0 ? 0.0 : -INFINITY;
    return static_cast<double>(token) * 0.5;
}

}  // namespace

class TestExplorerImport : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

    void opensTheChosenStep()
    {
        QTemporaryDir dir;
        const QByteArray npy =
            test::npyFile("<f8", false, "(3, 4)", test::arrayData({3, 4}, false, 'd', false, stepValue));
        const QString path = write(dir, QStringLiteral("dump.npy"), npy);
        const QString tokenizer = write(dir, QStringLiteral("tokenizer.json"),
                                        QStringLiteral("{\"decoder\":{\"type\":\"ByteLevel\"},\"model\":{\"vocab\":"
                                                       "{\"Ġa\":0,\"Ġb\":1,\"Ċ\":2}}}")
                                            .toUtf8());
        QWidget window;
        auto* page = new ExplorerPage(&window);
        window.resize(1200, 800);
        window.show();

        QList<double> listed;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            auto* dialog = qobject_cast<StepPickerDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto* steps = dialog->findChild<QTableView*>(QStringLiteral("steps"));
            for (int row = 0; row < steps->model()->rowCount(); ++row)
                listed << steps->model()->index(row, 1).data().toDouble();
            steps->sortByColumn(1, Qt::AscendingOrder);  // by entropy: step 1 (0), step 2, step 0 (ln 4)
            steps->selectRow(1);
            dialog->findChild<QLineEdit*>(QStringLiteral("vocabulary"))->setText(tokenizer);
            dialog->accept();
        });
        answer.start(20);
        QCOMPARE(page->openLogitsFile(path), QString());
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 4, 30'000);
        answer.stop();

        QCOMPARE(listed.size(), 3);
        QCOMPARE(listed[0], std::round(std::log(4.0) * 1e4) / 1e4);
        QCOMPARE(listed[1], 0.0);
        const auto& distribution = page->model()->table()->distribution;
        for (Eigen::Index t = 0; t < 4; ++t)
            QCOMPARE(distribution.logits[t], stepValue(0, 2, static_cast<std::uint64_t>(t)));
        QCOMPARE(distribution.tokens, (std::vector<std::string>{" a", " b", "\\n", "<id 3>"}));

        const QString sha = QString::fromLatin1(QCryptographicHash::hash(npy, QCryptographicHash::Sha256).toHex());
        QString source;
        const app::Provenance provenance = page->provenance();
        for (const auto& [key, value] : provenance.parameters())
            if (key == QLatin1String("source"))
                source = value;
        QVERIFY2(source.startsWith(
                     QStringLiteral("file: dump.npy (step 2 of (3, 4), sha256=%1, vocabulary tokenizer.json sha256=")
                         .arg(sha)),
                 qPrintable(source));
    }

    // A [batch, steps, V] array: the dialog's batch selector lists and loads the chosen batch's
    // rows, and the provenance names the batch.
    void batchSelectorPicksItsRows_data()
    {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("step");
        QTest::newRow("batch 0, step 1") << 0 << 1;
        QTest::newRow("batch 1, step 2") << 1 << 2;
        QTest::newRow("batch 2, step 0") << 2 << 0;
    }
    void batchSelectorPicksItsRows()
    {
        QFETCH(int, batch);
        QFETCH(int, step);
        QTemporaryDir dir;
        const auto value = [](std::uint64_t b, std::uint64_t s, std::uint64_t t) {
            return static_cast<double>(b) * 10.0 + static_cast<double>(s) +
                   static_cast<double>(t) * 0.25 * static_cast<double>(b + 1);
        };
        const QString path =
            write(dir, QStringLiteral("batched.npy"),
                  test::npyFile("<f8", false, "(3, 3, 4)", test::arrayData({3, 3, 4}, false, 'd', false, value)));
        QWidget window;
        auto* page = new ExplorerPage(&window);
        window.show();
        bool selectorShown = false;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&] {
            auto* dialog = qobject_cast<StepPickerDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto* batchBox = dialog->findChild<QSpinBox*>(QStringLiteral("batch"));
            selectorShown = !batchBox->isHidden() && batchBox->maximum() == 2;
            batchBox->setValue(batch);
            auto* steps = dialog->findChild<QTableView*>(QStringLiteral("steps"));
            for (int row = 0; row < steps->model()->rowCount(); ++row)
                if (steps->model()->index(row, 0).data().toInt() == step)
                    steps->selectRow(row);
            dialog->accept();
        });
        answer.start(20);
        QCOMPARE(page->openLogitsFile(path), QString());
        QTRY_VERIFY_WITH_TIMEOUT(page->model()->table()->distribution.logits.size() == 4 &&
                                     page->model()->table()->distribution.logits[3] ==
                                         value(static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(step), 3),
                                 30'000);
        answer.stop();
        QVERIFY(selectorShown);
        const auto& distribution = page->model()->table()->distribution;
        for (Eigen::Index t = 0; t < 4; ++t)
            QCOMPARE(distribution.logits[t], value(static_cast<std::uint64_t>(batch), static_cast<std::uint64_t>(step),
                                                   static_cast<std::uint64_t>(t)));
        QString source;
        const app::Provenance provenance = page->provenance();
        for (const auto& [key, text] : provenance.parameters())
            if (key == QLatin1String("source"))
                source = text;
        QVERIFY2(source.contains(QStringLiteral("batch %1, step %2 of (3, 3, 4)").arg(batch).arg(step)),
                 qPrintable(source));
    }

    void malformedDumpIsSaid()
    {
        QTemporaryDir dir;
        const QString path =
            write(dir, QStringLiteral("short.npy"), test::npyFile("<f4", false, "(3, 4)", QByteArray(20, '\0')));
        QWidget window;
        auto* page = new ExplorerPage(&window);
        window.show();
        const int rows = page->model()->rowCount();
        QCOMPARE(page->openLogitsFile(path), QString());
        auto* error = page->findChild<QLabel*>(QStringLiteral("errorLabel"));
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 30'000);
        QCOMPARE(error->text(),
                 path + QStringLiteral(": header field 'shape' (3, 4) of '<f4' needs 48 bytes from offset 128, but "
                                       "the data ends at offset 148 (truncated, 28 bytes short)"));
        QCOMPARE(page->model()->rowCount(), rows);
    }

    // Issue 34, item 3: a dump of millions of steps lists them in the memory of their entropies
    // (a cell item per step took gigabytes, and a 5 GiB limit ended in SIGSEGV while sorting).
    void millionsOfStepsListInLittleMemory()
    {
        constexpr int kSteps = 4'000'000;
        QList<double> entropy(kSteps);
        for (int i = 0; i < kSteps; ++i)
            entropy[i] = static_cast<double>((static_cast<qint64>(i) * 7919) % 1000) / 100.0;
        const qint64 before = residentKib();
        QVERIFY(before > 0);
        StepPickerDialog dialog(QStringLiteral("long.npy"), {entropy}, QString());
        auto* steps = dialog.findChild<QTableView*>(QStringLiteral("steps"));
        QCOMPARE(steps->model()->rowCount(), kSteps);
        steps->sortByColumn(1, Qt::DescendingOrder);  // the most uncertain steps first
        QCOMPARE(steps->model()->index(0, 1).data().toDouble(), 9.99);
        steps->selectRow(0);
        QCOMPARE(dialog.step(), 321);  // the first step whose entropy is 9.99: 321 * 7919 % 1000 = 999
        const qint64 grown = residentKib() - before;
        QVERIFY2(grown < 300 * 1024, qPrintable(QStringLiteral("%1 MiB for the list").arg(grown / 1024)));
    }

    // Issue 34, item 5: a headless run (--screenshot) of a multi-step dump never waits on the step
    // dialog: it loads step 0, says so on stderr, and writes the picture.
    void headlessOpenOfADumpTakesTheFirstStep()
    {
        QTemporaryDir dir;
        const QString path =
            write(dir, QStringLiteral("dump.npy"),
                  test::npyFile("<f8", false, "(3, 4)", test::arrayData({3, 4}, false, 'd', false, stepValue)));
        const QString shot = dir.filePath(QStringLiteral("shot.png"));
        QProcess gui;
        gui.setProcessEnvironment(test::headlessEnvironment());
        gui.start(test::binaryPath(QStringLiteral("logitlab")),
                  {QStringLiteral("--open"), path, QStringLiteral("--screenshot"), shot, QStringLiteral("--size"),
                   QStringLiteral("800x600")});
        QVERIFY(gui.waitForStarted());
        if (!gui.waitForFinished(60'000)) {
            gui.kill();
            gui.waitForFinished();
            QFAIL("logitlab --open DUMP --screenshot waited (on a dialog) for over a minute");
        }
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(gui.exitStatus() == QProcess::NormalExit && gui.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("step 0")) && err.contains(QStringLiteral("without asking")),
                 qPrintable(err));
        QVERIFY(QFile::exists(shot));
    }
};

QTEST_MAIN(TestExplorerImport)
#include "tst_explorer_import.moc"
