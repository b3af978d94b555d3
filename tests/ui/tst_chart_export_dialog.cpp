// Issue 15 (for the paper): File > Export chart's dialog. One-column defaults, a bad value
// refused next to its field (OK disabled, the dialog stays open), the unit switch keeping the
// figure's size, the suggested file name, the preview, and the choices remembered.
#include "ui/forms/chart_export_dialog.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPixmap>
#include <QSettings>
#include <QTest>
#include <QValueAxis>

using namespace logitlab;

namespace {

std::unique_ptr<QChart> chartTitled(const QString& title)
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title);
    auto* series = new QLineSeries;
    series->setName(QStringLiteral("p"));
    series->append(0, 0.2);
    series->append(1, 0.7);
    chart->addSeries(series);
    chart->createDefaultAxes();
    return chart;
}

// Bars named by long tokens under a category axis, which Qt shortens with "..." when narrow.
std::unique_ptr<QChart> barsWithLongNames()
{
    auto chart = std::make_unique<QChart>();
    auto* set = new QBarSet(QStringLiteral("p"));
    QStringList names;
    for (int i = 0; i < 6; ++i) {
        *set << 0.1 * (i + 1);
        names << QStringLiteral("a_rather_long_token_name_%1").arg(i);
    }
    auto* bars = new QBarSeries;
    bars->append(set);
    chart->addSeries(bars);
    auto* x = new QBarCategoryAxis;
    x->append(names);
    auto* y = new QValueAxis;
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    return chart;
}

QLineEdit* edit(ui::ChartExportDialog& dialog, const QString& name) { return dialog.findChild<QLineEdit*>(name); }

// Types `text` into the field as a user would (textEdited fires).
void type(QLineEdit* field, const QString& text)
{
    field->selectAll();
    QTest::keyClick(field, Qt::Key_Delete);
    QTest::keyClicks(field, text);
}

}  // namespace

class TestChartExportDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("LogitLabTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_chart_export_dialog"));
    }
    void init() { QSettings().clear(); }
    void cleanupTestCase() { QSettings().clear(); }

    void defaultsAreAOneColumnFigure()
    {
        const auto chart = chartTitled(QStringLiteral("T = 1"));
        ui::ChartExportDialog dialog(chart.get(), QStringLiteral("Explorer"));
        QVERIFY(dialog.isValid());
        QCOMPARE(edit(dialog, QStringLiteral("width"))->text(), QStringLiteral("8.5"));
        QCOMPARE(edit(dialog, QStringLiteral("height"))->text(), QStringLiteral("6"));
        QCOMPARE(edit(dialog, QStringLiteral("dpi"))->text(), QStringLiteral("300"));
        QCOMPARE(edit(dialog, QStringLiteral("font-scale"))->text(), QStringLiteral("1"));
        const ui::ChartExportOptions o = dialog.options();
        QCOMPARE(o.width, 8.5);
        QCOMPARE(o.height, 6.0);
        QCOMPARE(o.unit, ui::LengthUnit::Cm);
        QCOMPARE(o.dpi, 300);
        QCOMPARE(o.fontScale, 1.0);
        QVERIFY(!o.transparent);
        QVERIFY(!o.screenFonts);
        QVERIFY2(!o.title, "a figure's caption belongs to the paper");
        QVERIFY(!dialog.findChild<QCheckBox*>(QStringLiteral("title"))->isChecked());
        QCOMPARE(dialog.format(), ui::ChartFormat::Png);
        // The preview shows the figure's proportions: 8.5 : 6.
        const QPixmap preview = dialog.findChild<QLabel*>(QStringLiteral("preview"))->pixmap();
        QVERIFY(!preview.isNull());
        QVERIFY(std::abs(double(preview.width()) / preview.height() - 8.5 / 6) < 0.02);
    }

    void badValueRefusedNextToTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero width") << "width"
                                    << "0"
                                    << "width: must be between 1 and 100 cm, got 0";
        QTest::newRow("negative height") << "height"
                                         << "-3"
                                         << "height: must be between 1 and 100 cm, got -3";
        QTest::newRow("NaN width") << "width"
                                   << "nan"
                                   << "width: must be between 1 and 100 cm, got nan";
        QTest::newRow("text height") << "height"
                                     << "six"
                                     << "height: must be between 1 and 100 cm, got nan";
        QTest::newRow("dpi 50") << "dpi"
                                << "50"
                                << "dpi: must be between 96 and 600, got 50";
        QTest::newRow("dpi 700") << "dpi"
                                 << "700"
                                 << "dpi: must be between 96 and 600, got 700";
        QTest::newRow("font scale 4") << "font-scale"
                                      << "4"
                                      << "font scale: must be between 0.5 and 3, got 4";
        QTest::newRow("no file") << "file"
                                 << ""
                                 << "file: choose where to write the chart";
    }
    void badValueRefusedNextToTheField()
    {
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto chart = chartTitled(QStringLiteral("T = 1"));
        ui::ChartExportDialog dialog(chart.get(), QStringLiteral("Explorer"));
        dialog.show();
        QLineEdit* input = edit(dialog, field);
        QVERIFY(input);
        type(input, text);
        QCOMPARE(dialog.fieldError(field), message);
        QVERIFY(!dialog.isValid());
        // The message sits with its field (same box, just below it) and is shown.
        const QList<QLabel*> labels = input->parentWidget()->findChildren<QLabel*>(Qt::FindDirectChildrenOnly);
        QCOMPARE(labels.size(), 1);
        QVERIFY(labels.first()->isVisible());
        QCOMPARE(labels.first()->text(), message);
        // The other fields stay quiet, and Export does not close the dialog.
        for (const QString other : {"width", "height", "dpi", "font-scale", "file"})
            if (other != field)
                QCOMPARE(dialog.fieldError(other), QString());
        dialog.accept();
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        // Put right, the message goes and Export is possible again.
        type(input, field == QLatin1String("file")  ? QStringLiteral("/tmp/x.png")
                    : field == QLatin1String("dpi") ? QStringLiteral("150")
                                                    : QStringLiteral("2"));
        QCOMPARE(dialog.fieldError(field), QString());
        QVERIFY(dialog.isValid());
    }

    void suggestedName_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("chartTitle");
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("name");
        QTest::newRow("explorer") << "Explorer"
                                  << "T = 0.7, top-p = 0.9: 3 survivors of 5"
                                  << "png"
                                  << "explorer-T0.7-top-p0.9.png";
        QTest::newRow("top-k, pdf") << "Explorer"
                                    << "T = 1, top-k = 40: 40 survivors of 50"
                                    << "pdf"
                                    << "explorer-T1-top-k40.pdf";
        QTest::newRow("greedy") << "Explorer"
                                << "T = 0: greedy (argmax): 1 survivor of 5"
                                << "svg"
                                << "explorer-T0-greedy-argmax.svg";
        QTest::newRow("no title") << "Seed sweep"
                                  << ""
                                  << "png"
                                  << "seed-sweep.png";
        QTest::newRow("nothing") << ""
                                 << ""
                                 << "png"
                                 << "chart.png";
        QTest::newRow("slashes") << "Junk risk"
                                 << "a/b \\ c"
                                 << "png"
                                 << "junk-risk-a-b-c.png";
    }
    void suggestedName()
    {
        QFETCH(QString, page);
        QFETCH(QString, chartTitle);
        QFETCH(QString, format);
        QFETCH(QString, name);
        QCOMPARE(ui::suggestedChartFileName(page, chartTitle, *ui::chartFormatFromName(format)), name);
    }

    void dialogSuggestsTheNameAndFollowsTheFormat()
    {
        const auto chart = chartTitled(QStringLiteral("T = 0.7, top-p = 0.9: 3 survivors of 5"));
        ui::ChartExportDialog dialog(chart.get(), QStringLiteral("Explorer"));
        QVERIFY(dialog.path().endsWith(QStringLiteral("/explorer-T0.7-top-p0.9.png")));
        auto* format = dialog.findChild<QComboBox*>(QStringLiteral("format"));
        format->setCurrentIndex(format->findData(QStringLiteral("pdf")));
        QVERIFY(dialog.path().endsWith(QStringLiteral("/explorer-T0.7-top-p0.9.pdf")));
        QCOMPARE(dialog.format(), ui::ChartFormat::Pdf);
        QVERIFY(!edit(dialog, QStringLiteral("dpi"))->isEnabled());  // vector: no DPI
    }

    void unitSwitchKeepsTheSize()
    {
        const auto chart = chartTitled(QStringLiteral("T = 1"));
        ui::ChartExportDialog dialog(chart.get(), QStringLiteral("Explorer"));
        auto* unit = dialog.findChild<QComboBox*>(QStringLiteral("unit"));
        unit->setCurrentIndex(unit->findData(QStringLiteral("in")));
        QCOMPARE(edit(dialog, QStringLiteral("width"))->text(), QStringLiteral("3.346"));
        QCOMPARE(dialog.options().unit, ui::LengthUnit::Inch);
        QVERIFY(std::abs(dialog.options().widthInches() - 8.5 / 2.54) < 1e-3);
        QVERIFY(std::abs(dialog.options().heightInches() - 6 / 2.54) < 1e-3);
    }

    // Text the figure's size would cut is named under the preview before anything is written,
    // and the warning goes when the size shows it whole.
    void warnsWhenTextWouldBeCut()
    {
        const auto chart = barsWithLongNames();
        ui::ChartExportDialog dialog(chart.get(), QStringLiteral("Explorer"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* warning = dialog.findChild<QLabel*>(QStringLiteral("cutWarning"));
        QVERIFY(warning);
        type(edit(dialog, QStringLiteral("width")), QStringLiteral("4"));
        type(edit(dialog, QStringLiteral("height")), QStringLiteral("3"));
        QVERIFY2(warning->isVisible(), "six long names on a 4 cm figure");
        QVERIFY2(warning->text().contains(QLatin1String("would be cut")), qPrintable(warning->text()));
        QVERIFY2(warning->text().contains(QLatin1String("...")), qPrintable(warning->text()));
        type(edit(dialog, QStringLiteral("width")), QStringLiteral("60"));
        type(edit(dialog, QStringLiteral("height")), QStringLiteral("20"));
        QVERIFY2(!warning->isVisible(), qPrintable(warning->text()));
    }

    void choicesAreRemembered()
    {
        const auto chart = chartTitled(QStringLiteral("T = 1"));
        {
            ui::ChartExportDialog dialog(chart.get(), QStringLiteral("Explorer"));
            type(edit(dialog, QStringLiteral("width")), QStringLiteral("17"));
            type(edit(dialog, QStringLiteral("dpi")), QStringLiteral("600"));
            type(edit(dialog, QStringLiteral("font-scale")), QStringLiteral("1.5"));
            dialog.findChild<QComboBox*>(QStringLiteral("background"))->setCurrentIndex(1);
            dialog.findChild<QCheckBox*>(QStringLiteral("title"))->setChecked(true);
            QVERIFY(dialog.options().title);
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
        }
        ui::ChartExportDialog again(chart.get(), QStringLiteral("Explorer"));
        QCOMPARE(again.options().width, 17.0);
        QCOMPARE(again.options().dpi, 600);
        QCOMPARE(again.options().fontScale, 1.5);
        QVERIFY(again.options().transparent);
        QVERIFY(again.options().title);
        QVERIFY(again.findChild<QCheckBox*>(QStringLiteral("title"))->isChecked());
    }
};

QTEST_MAIN(TestChartExportDialog)
#include "tst_chart_export_dialog.moc"
