// The Summation order page: the lesson's examples shown with their bits, bad controls refused
// next to the controls with the control named, a run that fills the summary, charts and table
// tabs, and a file saved from the page that the CLI's reader accepts unchanged.
#include "app/kinds/result_table.h"
#include "support/experiment_page_run.h"
#include "ui/forms/summation_form.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/results_pane.h"
#include "ui/pages/summation_page.h"

#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace logitlab;

class TestSummationPage : public QObject {
    Q_OBJECT

private slots:
    void lessonShownWithBits_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("0 after 1e20") << QStringLiteral("0x0000000000000000");
        QTest::newRow("0.1 kept") << QStringLiteral("0x3fb999999999999a");
        QTest::newRow("one ULP above 0.6") << QStringLiteral("0x3fe3333333333334");
        QTest::newRow("0.6") << QStringLiteral("0x3fe3333333333333");
        QTest::newRow("value") << QStringLiteral("0.6000000000000001");
    }
    void lessonShownWithBits()
    {
        QFETCH(QString, text);
        ui::SummationPage page;
        QVERIFY2(page.lessonLabel()->text().contains(text), qPrintable(page.lessonLabel()->text()));
    }

    void badPastedTermsNamed_data()
    {
        QTest::addColumn<QString>("pasted");
        QTest::addColumn<QString>("message");
        QTest::newRow("word") << QStringLiteral("1\nx") << QStringLiteral("Pasted:2: 'x' is not a number");
        QTest::newRow("NaN") << QStringLiteral("nan") << QStringLiteral("Pasted:1: 'nan' is not finite");
        QTest::newRow("nothing") << QString() << QStringLiteral("Pasted: no terms");
    }
    void badPastedTermsNamed()
    {
        QFETCH(QString, pasted);
        QFETCH(QString, message);
        ui::SummationPage page;
        page.summationForm()->distributionBox()->setCurrentIndex(4);  // pasted list
        page.summationForm()->pastedBox()->setPlainText(pasted);
        page.run();
        QVERIFY2(page.errorLabel()->text().startsWith(message), qPrintable(page.errorLabel()->text()));
        QVERIFY(!page.isRunning());
    }

    void runFillsSummaryChartsAndTables()
    {
        ui::SummationPage page;
        // Small, so the suite stays fast under sanitizers: the page's own start spreads to 10^6.
        app::SummationSpec spec;
        spec.n = 3000;
        spec.shuffles = 40;
        spec.spreadMaxN = 1000;
        spec.spreadTerms = 20000;
        page.summationForm()->setSpec(spec);
        page.summationForm()->workersBox()->setValue(2);
        QVERIFY(test::runAndWait(page));
        const QString summary = page.results()->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("over 40 shuffles")), qPrintable(summary));
        // Methods, shuffles, histogram, spread (the start asks for one), lesson.
        QCOMPARE(page.results()->tableTabs()->count(), 5);
        QCOMPARE(page.resultTable()->rows,
                 std::size_t{12 + 2});  // every order (numpy-sum included), best and worst shuffle
        // On screen, results whose bits differ read differently (not "0.6" for every order).
        {
            const app::ResultTable methods = *page.resultTable();
            const auto column = [&methods](const char* name) {
                return std::find_if(methods.columns.begin(), methods.columns.end(),
                                    [name](const app::ResultColumn& c) { return c.name == QLatin1String(name); });
            };
            QSet<QString> bits;
            QSet<QString> shown;
            for (std::size_t r = 0; r < methods.rows; ++r) {
                bits << app::displayCell(*column("bits"), r);
                shown << app::displayCell(*column("result"), r);
            }
            QVERIFY2(bits.size() > 1, "every order gave the same bits: the check shows nothing");
            QCOMPARE(shown.size(), bits.size());
        }
        page.results()->tableTabs()->setCurrentIndex(1);
        QCOMPARE(page.resultTable()->rows, std::size_t{40});
        // The lesson's tab, then errors, histogram and spread: the charts the CLI exports.
        const auto charts = page.results()->charts();
        QCOMPARE(charts.size(), 3);
        QVERIFY(charts[0].second->title().contains(QStringLiteral("N = 3,000")));
        for (const auto& [suffix, chart] : charts)
            QVERIFY2(!chart->series().isEmpty(), qPrintable(suffix));
        QCOMPARE(page.results()->chartTabs()->count(), 4);
        QCOMPARE(page.results()->chartTabs()->currentIndex(), 1);  // the first result opens on its chart
    }

    void savedFileReadsBack()
    {
        ui::SummationPage page;
        page.summationForm()->distributionBox()->setCurrentIndex(4);
        page.summationForm()->pastedBox()->setPlainText(QStringLiteral("0.1, 0.2, 0.3"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.json"));
        QCOMPARE(page.saveExperiment(path), QString());
        const auto spec = app::readSummationFile(path);
        QVERIFY2(spec, spec ? "" : spec.error().c_str());
        QCOMPARE(spec->values, (QList<double>{0.1, 0.2, 0.3}));
        QCOMPARE(spec->distribution, QStringLiteral("list"));
    }
};

QTEST_MAIN(TestSummationPage)
#include "tst_summation_page.moc"
