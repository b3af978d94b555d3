// Figures that hold at one column (issue 33): every chart of every example, laid out as a figure
// of 8.5 x 6 cm, 12 x 8 cm and 17 x 10 cm, with no text Qt shortened to "..." and no two texts
// drawn over each other (cut_text.h).
// Each example runs its kind as `logitlab-cli run` does; the charts are experimentCharts()'s.
#include "charts/chart_export.h"
#include "charts/experiment_charts.h"
#include "support/example_files.h"
#include "support/run_experiment_file.h"

#include <QChart>
#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <QValueAxis>

#include <cmath>

using namespace logitlab;

namespace {

// An axis labelled as whole numbers ("%d", "%.0f") whose ticks fall between them prints the
// same number twice ("0 0 1 1" on a 0..1.5 axis): each such axis's first tick and spacing must
// be whole. Empty when they are, else the axis's title and its ticks.
QString fractionalWholeTicks(QChart* chart)
{
    const auto whole = [](double v) { return std::abs(v - std::round(v)) < 1e-9; };
    QStringList bad;
    for (QAbstractAxis* a : chart->axes()) {
        auto* axis = qobject_cast<QValueAxis*>(a);
        if (!axis || !axis->isVisible() || !axis->labelsVisible() ||
            (axis->labelFormat() != QLatin1String("%d") && axis->labelFormat() != QLatin1String("%.0f")))
            continue;
        double first = axis->min();
        double step = 0.0;
        if (axis->tickType() == QValueAxis::TicksDynamic) {
            step = axis->tickInterval();
            first = axis->tickAnchor() + std::ceil((axis->min() - axis->tickAnchor()) / step - 1e-9) * step;
        } else if (axis->tickCount() > 1) {
            step = (axis->max() - axis->min()) / (axis->tickCount() - 1);
        }
        if (!whole(first) || !whole(step))
            bad << QStringLiteral("'%1': ticks from %2 every %3").arg(axis->titleText()).arg(first).arg(step);
    }
    return bad.join(QLatin1String("; "));
}

}  // namespace

class TestFigureText : public QObject {
    Q_OBJECT

private slots:
    void noTextCutAtAFiguresSize_data()
    {
        QTest::addColumn<QString>("example");
        for (const QString& path : test::exampleFiles())
            QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
    }
    void noTextCutAtAFiguresSize()
    {
        QFETCH(QString, example);
        const auto run = test::runExperimentFile(example);
        QVERIFY2(run, run ? "" : run.error().c_str());
        const app::ExperimentResult& result = run.value();
        QVERIFY2(result.status.state == app::RunStatus::State::Finished, qPrintable(result.status.message));
        const ui::ExperimentCharts charts = ui::experimentCharts(result);
        QVERIFY(!charts.charts.isEmpty());
        QStringList cut;
        QStringList overlapping;
        QStringList fractional;
        for (const auto& [suffix, chart] : charts.charts)
            for (const QString& size :
                 {QStringLiteral("8.5x6cm"), QStringLiteral("12x8cm"), QStringLiteral("17x10cm")}) {
                QStringList texts;
                QStringList overlaps;
                const auto options = ui::parseChartSize(size);
                QVERIFY(options);
                QVERIFY(!ui::chartImage(chart, *options, &texts, &overlaps).isNull());
                if (!overlaps.isEmpty())
                    overlapping << QStringLiteral("%1 at %2: %3")
                                       .arg(suffix.isEmpty() ? QStringLiteral("(main)") : suffix, size,
                                            overlaps.join(QStringLiteral(" | ")));
                if (const QString ticks = fractionalWholeTicks(chart); !ticks.isEmpty())
                    fractional << QStringLiteral("%1 at %2: %3")
                                      .arg(suffix.isEmpty() ? QStringLiteral("(main)") : suffix, size, ticks);
                if (!texts.isEmpty())
                    cut << QStringLiteral("%1 at %2: %3")
                               .arg(suffix.isEmpty() ? QStringLiteral("(main)") : suffix, size,
                                    texts.join(QStringLiteral(" | ")));
            }
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        // No texts drawn over each other (the sweep's corner tick labels met before its y axes
        // started below zero; the summation's bar values at one column before they hid).
        QVERIFY2(overlapping.isEmpty(), qPrintable(overlapping.join(QLatin1Char('\n'))));
        // Whole-number axes tick on whole numbers (issue 32: "0 0 1 1").
        QVERIFY2(fractional.isEmpty(), qPrintable(fractional.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestFigureText)
#include "tst_figure_text.moc"
