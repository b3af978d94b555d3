// The Explorer's Compare tab says why the presets disagree, as `logitlab-cli candidates
// --compare` does (one explanation: engine::presetDifferences): the documented rule for each
// disagreeing pair, and the stage orders when they differ, in the chart's title and tooltip.
#include "charts/compare_chart.h"
#include "engine/sampler/semantics_comparison.h"

#include "support/test_support.h"

#include <QChart>
#include <QTest>

using namespace logitlab;

Q_DECLARE_METATYPE(engine::ExplorerChain)

class TestCompareExplanation : public QObject {
    Q_OBJECT
private slots:
    void compareTabNamesTheRule_data()
    {
        QTest::addColumn<QList<double>>("logits");
        QTest::addColumn<engine::ExplorerChain>("chain");
        QTest::addColumn<QString>("pair");  // a pair that must be explained, "" when all agree
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("order");  // a stage order the title must show, "" for none

        engine::ExplorerChain tempered;
        tempered.lesson = {0.5, std::nullopt, 0.8};
        QTest::newRow("T = 0.5, top-p 0.8: llama.cpp tempers last")
            << QList<double>{3, 2, 1} << tempered << "llama.cpp vs hf"
            << "D1 temperature placement"
            << "llama.cpp: top-p=0.8 → temperature=0.5";

        engine::ExplorerChain topK;
        topK.lesson = {1.0, 2, std::nullopt};
        QTest::newRow("top-k 2 with a tie at the cut") << QList<double>{3, 2, 2, 1} << topK << "llama.cpp vs hf"
                                                       << "D3 top-k ties"
                                                       << "";

        engine::ExplorerChain plain;
        plain.lesson = {1.0, std::nullopt, 0.9};
        QTest::newRow("T = 1, top-p 0.9: all agree") << QList<double>{3, 2, 1} << plain << ""
                                                     << ""
                                                     << "";
    }
    void compareTabNamesTheRule()
    {
        QFETCH(QList<double>, logits);
        QFETCH(engine::ExplorerChain, chain);
        QFETCH(QString, pair);
        QFETCH(QString, rule);
        QFETCH(QString, order);
        Eigen::ArrayXd values(logits.size());
        for (qsizetype i = 0; i < logits.size(); ++i)
            values[i] = logits[i];
        const auto comparison = engine::compareSemanticsExplained(values, chain);

        ui::CompareChart chart;
        std::vector<std::int32_t> ids;
        QStringList names;
        for (qsizetype i = 0; i < logits.size(); ++i) {
            ids.push_back(static_cast<std::int32_t>(i));
            names << QStringLiteral("t%1").arg(i);
        }
        chart.setComparison(comparison, ids, names);
        const QString title = chart.chart()->title();
        if (pair.isEmpty()) {
            QVERIFY(comparison.differences.empty());
            QVERIFY(chart.explanation().isEmpty());
            QVERIFY2(!title.contains(QStringLiteral("why:")), qPrintable(title));
            return;
        }
        const QString explained = chart.explanation().join(QLatin1Char('\n'));
        QVERIFY2(explained.contains(pair + QStringLiteral(" differ: ") + rule), qPrintable(explained));
        QVERIFY2(title.contains(QStringLiteral("why: ")) && title.contains(rule), qPrintable(title));
        QVERIFY2(chart.chart()->toolTip().contains(rule), qPrintable(chart.chart()->toolTip()));
        if (!order.isEmpty())
            QVERIFY2(title.contains(order), qPrintable(title));
        // A later comparison where they agree clears the explanation.
        engine::ExplorerChain plain;
        chart.setComparison(engine::compareSemanticsExplained(values, plain), ids, names);
        QVERIFY(chart.explanation().isEmpty());
        QVERIFY(chart.chart()->toolTip().isEmpty());
    }
};

QTEST_MAIN(TestCompareExplanation)
#include "tst_compare_explanation.moc"
