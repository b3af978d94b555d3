// The first window, offscreen: the lesson's example on the Explorer page, top-p changes the
// survivors shown, bad edits are refused in place, exports write real files, and the table
// model passes QAbstractItemModelTester.
#include "explorer_page.h"
#include "logits_table_model.h"
#include "main_window.h"
#include "test_support.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

int survivorsShown(const LogitsTableModel& model)
{
    int n = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        n += model.data(model.index(r, LogitsTableModel::SurvivorColumn), Qt::EditRole).toBool();
    return n;
}

}  // namespace

class TestExplorerPage : public QObject {
    Q_OBJECT
private slots:
    void topPChangesTheSurvivors_data()
    {
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("topP");
        QTest::addColumn<int>("survivors");
        QTest::newRow("T=1 top-p 0.9") << 1.0 << 0.9 << 3;
        QTest::newRow("T=1 top-p 0.75") << 1.0 << 0.75 << 2;
        QTest::newRow("T=0.5 top-p 0.9") << 0.5 << 0.9 << 2;
        QTest::newRow("T=1.5 top-p 0.9") << 1.5 << 0.9 << 4;
        QTest::newRow("T=0 greedy") << 0.0 << 0.9 << 1;
        QTest::newRow("T=1 top-p off") << 1.0 << 0.0 << 5;
    }
    void topPChangesTheSurvivors()
    {
        QFETCH(double, temperature);
        QFETCH(double, topP);
        QFETCH(int, survivors);
        MainWindow window;
        auto* page = new ExplorerPage;
        window.addPage(page);
        window.show();
        QCOMPARE(survivorsShown(*page->model()), 3);  // the lesson's defaults: T = 1, top-p 0.9
        page->temperatureBox()->setValue(temperature);
        page->topPBox()->setValue(topP);
        QCOMPARE(survivorsShown(*page->model()), survivors);
        QCOMPARE(static_cast<int>(page->model()->survivors().size()), survivors);
        QVERIFY(page->readoutText().contains(QStringLiteral("Survivors: <b>%1</b>").arg(survivors)));
        if (temperature == 0.0)
            QVERIFY(page->readoutText().contains(QLatin1String("greedy: argmax")));
    }

    void editingALogitChangesTheSurvivors()
    {
        ExplorerPage page;
        LogitsTableModel* model = page.model();
        // Raise banana to 5: it becomes the top token and survives.
        QVERIFY(model->setData(model->index(4, LogitsTableModel::LogitColumn), QStringLiteral("5")));
        QCOMPARE(model->survivors().front().id, 4);
    }

    void badEditsAreRefusedInPlace_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("word") << "lots" << "'lots' is not a number";
        QTest::newRow("nan") << "nan" << "is NaN";
        QTest::newRow("+inf") << "inf" << "+inf";
    }
    void badEditsAreRefusedInPlace()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        ExplorerPage page;
        page.show();
        LogitsTableModel* model = page.model();
        const QModelIndex cell = model->index(1, LogitsTableModel::LogitColumn);
        QVERIFY(!model->setData(cell, text));
        QCOMPARE(model->data(cell, Qt::EditRole).toDouble(), 2.0);  // unchanged
        QVERIFY(page.errorLabel()->isVisible());
        QVERIFY2(page.errorLabel()->text().contains(message), qPrintable(page.errorLabel()->text()));
        QCOMPARE(static_cast<int>(model->survivors().size()), 3);  // still working
    }

    void modelPassesTheTester()
    {
        ExplorerPage page;
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.topPBox()->setValue(0.5);
        page.temperatureBox()->setValue(0.0);
        page.model()->setData(page.model()->index(0, LogitsTableModel::TokenColumn), QStringLiteral("people"));
        page.model()->setDistribution(page.model()->distribution());
    }

    void exportsWriteRealFiles()
    {
        QTemporaryDir dir;
        MainWindow window;
        window.addPage(new ExplorerPage);
        window.show();
        const QString png = dir.filePath(QStringLiteral("c.png"));
        QCOMPARE(window.exportChartTo(png, 192), QString());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1920, 1200));  // 960x600 at 2x
        QVERIFY(image.text(QStringLiteral("Description")).contains(QLatin1String("settings: temperature=1,top-p=0.9")));

        const QString svg = dir.filePath(QStringLiteral("c.svg"));
        QCOMPARE(window.exportChartTo(svg), QString());
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        const QByteArray svgText = s.readAll();
        QVERIFY(svgText.contains("viewBox=\"0 0 960 600\""));
        QVERIFY(svgText.contains("users"));  // text kept as text

        const QString pdf = dir.filePath(QStringLiteral("c.pdf"));
        QCOMPARE(window.exportChartTo(pdf), QString());
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.readAll().startsWith("%PDF-"));

        const QString csv = dir.filePath(QStringLiteral("t.csv"));
        QCOMPARE(window.exportTableTo(csv), QString());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(c.readAll());
        QVERIFY(text.startsWith(QLatin1String("# app: LogitLab\n")));
        QVERIFY(text.contains(QLatin1String("users,3,0.5770064660454952,yes,0.6285317192117624,1\n")));

        QVERIFY(!window.exportChartTo(dir.filePath(QStringLiteral("c.bmp"))).isEmpty());
        // A failed write names the file and leaves nothing behind.
        const QString bad = dir.filePath(QStringLiteral("missing/c.png"));
        QVERIFY(window.exportChartTo(bad).contains(bad));
        QVERIFY(!QFile::exists(bad));
    }
};

QTEST_MAIN(TestExplorerPage)
#include "tst_explorer_page.moc"
