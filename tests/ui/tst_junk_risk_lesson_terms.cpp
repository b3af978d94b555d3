// The junk-risk page in the lesson's terms: q typed directly ("q per token") gives exactly the
// lesson's (1 - q)^N, in the file, the run and the page's highlight (with digit grouping); a q
// outside [0, 1] is refused naming the key (file, --set) and next to the field (page); junk
// tokens are named; the analytic curve is drawn densely, not through the table's lengths.
#include "app/io/experiment_file.h"
#include "app/kinds/junk_risk_job.h"
#include "app/kinds/junk_risk_spec.h"
#include "charts/junk_risk_chart.h"
#include "support/experiment_page_run.h"
#include "ui/forms/junk_risk_form.h"
#include "ui/pages/junk_risk_page.h"

#include "engine/experiments/decoder.h"
#include "support/test_support.h"

#include <QChart>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <cmath>

using namespace logitlab;

namespace {

QByteArray qFile(const QByteArray& q, const QByteArray& lengths = "[1, 300, 2000]")
{
    return R"({"logitlab": 1, "experiment": "junk-risk", "name": "q",
               "distribution": {"kind": "q-per-token", "q": )" +
           q + R"(},
               "settings": [{"label": "plain T=1", "temperature": 1}],
               "lengths": )" +
           lengths + R"(, "replies": 0})";
}

app::JunkRiskSpec qSpec(double q)
{
    auto spec = app::parseJunkRiskText(qFile(QByteArray::number(q, 'g', 17)), QStringLiteral("q.json"));
    if (!spec)
        qFatal("%s", spec.error().c_str());
    return spec.value();
}

QLocale grouping()
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale;
}

}  // namespace

class TestJunkRiskLessonTerms : public QObject {
    Q_OBJECT

private slots:
    void qPerTokenGivesTheLessonsNumbers_data()
    {
        QTest::addColumn<double>("q");
        QTest::addColumn<qint64>("n");
        QTest::newRow("the lesson: 0.4% at N = 300") << 0.004 << qint64(300);
        QTest::newRow("1% at N = 2000") << 0.01 << qint64(2000);
        QTest::newRow("a coin at N = 1") << 0.5 << qint64(1);
        QTest::newRow("never junk") << 0.0 << qint64(300);
        QTest::newRow("always junk") << 1.0 << qint64(300);
    }
    void qPerTokenGivesTheLessonsNumbers()
    {
        QFETCH(double, q);
        QFETCH(qint64, n);
        const app::JunkRiskSpec spec = qSpec(q);
        QCOMPARE(spec.distribution.kind, app::DistributionSpec::Kind::QPerToken);
        QVERIFY(spec.junk.kind == engine::JunkDefinition::Kind::Ids);
        QVERIFY(spec.junk.ids == std::vector<std::int32_t>{1});  // the pair's "junk" token, without a junk key
        const auto outcome = app::runJunkRisk(spec, QString(), QStringLiteral("q.json"), 1, {});
        QVERIFY2(outcome.status.finished(), qPrintable(outcome.status.message));
        QCOMPARE(outcome.junkCount, std::size_t(1));
        QCOMPARE(outcome.junkNames, QStringList{QStringLiteral("junk")});
        const auto highlights = engine::junkRiskHighlights(outcome.rows, n);
        QCOMPARE(highlights.size(), std::size_t(1));
        const double expected = std::pow(1.0 - q, static_cast<double>(n));
        QVERIFY2(std::abs(highlights[0].none - expected) <= 1e-12,
                 qPrintable(QStringLiteral("%1 vs %2").arg(highlights[0].none, 0, 'g', 17).arg(expected, 0, 'g', 17)));
        QVERIFY(std::abs(highlights[0].atLeastOne - (1.0 - expected)) <= 1e-12);
        QVERIFY(std::abs(highlights[0].q - q) <= 1e-15);
        // Round trip: the file written says the same.
        const auto again = app::parseJunkRisk(app::toJson(spec), QStringLiteral("again"));
        QVERIFY(again.ok());
        QVERIFY(again.value() == spec);
    }

    void qOutsideRangeIsRefusedNamingTheKey_data()
    {
        QTest::addColumn<QByteArray>("q");
        QTest::newRow("above 1") << QByteArray("1.5");
        QTest::newRow("below 0") << QByteArray("-0.1");
        QTest::newRow("NaN as text") << QByteArray("\"nan\"");
        QTest::newRow("not a number") << QByteArray("\"0.4%\"");
        QTest::newRow("null") << QByteArray("null");
    }
    void qOutsideRangeIsRefusedNamingTheKey()
    {
        QFETCH(QByteArray, q);
        const auto spec = app::parseJunkRiskText(qFile(q), QStringLiteral("bad.json"));
        QVERIFY(!spec.ok());
        QVERIFY2(QString::fromStdString(spec.error()).startsWith(QStringLiteral("bad.json: distribution.q: ")),
                 spec.error().c_str());
    }

    // What `logitlab-cli run --set distribution.q=...` does before reading: NaN is refused by name.
    void qOverrideIsCheckedLikeTheFile_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<bool>("ok");
        QTest::newRow("nan") << "distribution.q=nan" << false;
        QTest::newRow("2") << "distribution.q=2" << false;
        QTest::newRow("0.004") << "distribution.q=0.004" << true;
    }
    void qOverrideIsCheckedLikeTheFile()
    {
        QFETCH(QString, assignment);
        QFETCH(bool, ok);
        const auto root = app::parseExperimentJson(qFile("0.1"), QStringLiteral("q.json"));
        QVERIFY(root.ok());
        const auto changed = app::applyOverride(root.value(), assignment);
        QVERIFY(changed.ok());
        const auto spec = app::parseJunkRisk(changed.value(), QStringLiteral("q.json"));
        QCOMPARE(spec.ok(), ok);
        if (!ok)
            QVERIFY2(QString::fromStdString(spec.error()).startsWith(QStringLiteral("q.json: distribution.q: ")),
                     spec.error().c_str());
        else
            QCOMPARE(spec->distribution.q, 0.004);
    }

    void pageHighlightsBothProbabilitiesWithGrouping_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("the lesson's N = 300") << 300;
        QTest::newRow("N = 2,000") << 2000;
        QTest::newRow("N = 12,345 (not in the table)") << 12345;
    }
    void pageHighlightsBothProbabilitiesWithGrouping()
    {
        QFETCH(int, n);
        ui::JunkRiskPage page;
        page.show();
        page.junkForm()->setSpec(qSpec(0.004));
        QVERIFY(test::runAndWait(page));
        page.highlightBox()->setValue(n);
        QCOMPARE(page.highlights().size(), std::size_t(1));
        const double none = std::pow(0.996, n);
        QVERIFY(std::abs(page.highlights()[0].none - none) <= 1e-12);
        const QLocale locale = grouping();
        const QString text = page.lessonLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("N = %1").arg(locale.toString(n))), qPrintable(text));
        if (n >= 1000)
            QVERIFY2(text.contains(locale.groupSeparator()), qPrintable(text));
        QVERIFY2(text.contains(locale.toString(none, 'f', 4)), qPrintable(text));
        QVERIFY2(text.contains(locale.toString(1.0 - none, 'f', 4)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("P(no junk token)")));
        QVERIFY(text.contains(QStringLiteral("P(at least one junk token)")));
        QVERIFY2(text.contains(QStringLiteral("q = 0.004")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Junk token: junk")), qPrintable(text));
    }

    // The page's own start is the lesson's banana: named, and ~0.30 at the default N = 300.
    void pageStartsOnTheLessonsBanana()
    {
        ui::JunkRiskPage page;
        page.show();
        QCOMPARE(page.highlightBox()->value(), 300);
        page.junkForm()->repliesBox()->setValue(0);
        QVERIFY(test::runAndWait(page));
        const QString text = page.lessonLabel()->text();
        QVERIFY2(text.contains(QStringLiteral("Junk token: banana")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("0.3005")), qPrintable(text));
    }

    void pageRefusesQNextToTheField_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::newRow("above 1") << "1.5";
        QTest::newRow("below 0") << "-0.004";
        QTest::newRow("nan") << "nan";
        QTest::newRow("inf") << "inf";
        QTest::newRow("a percentage") << "0.4%";
    }
    void pageRefusesQNextToTheField()
    {
        QFETCH(QString, typed);
        ui::JunkRiskPage page;
        page.show();
        QTRY_VERIFY(!page.isRunning());  // the lesson, run when the page is first shown
        page.junkForm()->setSpec(qSpec(0.004));
        QVERIFY(!page.junkForm()->qErrorLabel()->isVisible());
        page.junkForm()->qField()->setText(typed);
        QVERIFY(page.junkForm()->qErrorLabel()->isVisible());
        QVERIFY2(page.junkForm()->qErrorLabel()->text().startsWith(QStringLiteral("q per token: ")),
                 qPrintable(page.junkForm()->qErrorLabel()->text()));
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        QVERIFY(!page.isRunning());
        QVERIFY(ended.isEmpty());
        QVERIFY2(page.errorLabel()->text().startsWith(QStringLiteral("q per token: ")),
                 qPrintable(page.errorLabel()->text()));
        page.junkForm()->qField()->setText(QStringLiteral("0.004"));
        QVERIFY(!page.junkForm()->qErrorLabel()->isVisible());
        QVERIFY(test::runAndWait(page));  // and keeps working
    }

    void analyticCurveIsDense_data()
    {
        QTest::addColumn<bool>("logAxis");
        QTest::newRow("log N") << true;
        QTest::newRow("linear N") << false;
    }
    void analyticCurveIsDense()
    {
        QFETCH(bool, logAxis);
        app::JunkRiskSpec spec = qSpec(0.004);
        const auto outcome = app::runJunkRisk(spec, QString(), QStringLiteral("q.json"), 1, {});
        QVERIFY(outcome.status.finished());
        QCOMPARE(outcome.rows.size(), std::size_t(3));
        ui::JunkRiskChart chart;
        chart.setRows(outcome.rows, logAxis);
        auto* curve = qobject_cast<QLineSeries*>(chart.chart()->series().first());
        QVERIFY(curve);
        QCOMPARE(curve->count(), ui::JunkRiskChart::kCurvePoints);
        QVERIFY(curve->count() > 100 * static_cast<int>(outcome.rows.size()));
        // Every point lies on 1 - (1 - q)^N, and N covers the axis up to the longest length.
        for (const QPointF& p : curve->points())
            QVERIFY(std::abs(p.y() - (1.0 - std::pow(0.996, p.x()))) < 1e-9);
        QCOMPARE(curve->points().last().x(), 2000.0);
        QCOMPARE(curve->points().first().x(), logAxis ? 1.0 : 0.0);
        // Log spacing on a log axis: equal ratios between neighbours.
        if (logAxis) {
            const auto& pts = curve->points();
            QVERIFY(std::abs(pts[2].x() / pts[1].x() - pts[300].x() / pts[299].x()) < 1e-9);
        }
    }
};

QTEST_MAIN(TestJunkRiskLessonTerms)
#include "tst_junk_risk_lesson_terms.moc"
