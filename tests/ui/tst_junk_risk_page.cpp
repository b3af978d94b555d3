// The junk-risk page: its table model passes QAbstractItemModelTester, a run fills table and
// chart, a cancelled run leaves the previous results, and bad input is shown inline.
#include "app/kinds/junk_risk_job.h"
#include "charts/junk_risk_chart.h"
#include "ui/forms/junk_risk_form.h"
#include "ui/models/result_table_model.h"
#include "ui/pages/junk_risk_page.h"
#include "ui/pages/results_pane.h"

#include "engine/experiments/decoder.h"
#include "support/example_files.h"
#include "support/test_support.h"
#include "support/tiny_gguf_model.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace logitlab;

namespace {

std::vector<engine::JunkRiskRow> smallRows(std::uint64_t replies)
{
    engine::JunkRiskParameters p;
    p.logits = test::array({3.0, 2.0, 1.5, 1.0, -2.0});
    p.junk = {engine::JunkDefinition::Kind::Ids, 0, {4}};
    p.decoders = {engine::decoderFromSettings("plain", {}), engine::decoderFromSettings("top-k 2", {1.0, 2, {}})};
    p.lengths = {1, 10, 100};
    p.replies = replies;
    const auto experiment = engine::JunkRiskExperiment::prepare(p).value();
    auto counts = experiment.emptyCounts();
    for (std::size_t i = 0; i < experiment.itemCount(); ++i)
        experiment.runItem(i, counts);
    return experiment.rows(counts);
}

}  // namespace

class TestJunkRiskPage : public QObject {
    Q_OBJECT

private slots:
    void modelPassesTester_data()
    {
        QTest::addColumn<qulonglong>("replies");
        QTest::newRow("with Monte Carlo") << 500ull;
        QTest::newRow("analytic only") << 0ull;
    }

    void modelPassesTester()
    {
        QFETCH(qulonglong, replies);
        ui::ResultTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        model.setTable(app::junkRiskTable(smallRows(replies)));
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.columnCount(), 13);  // the CSV's columns
        QCOMPARE(resets.size(), 1);         // whole results: one reset, no row inserts
        const QModelIndex n = model.index(2, model.column(QStringLiteral("n")));
        QCOMPARE(model.data(n).toString(), QStringLiteral("100"));
        QCOMPARE(model.data(n, ui::ResultTableModel::SortRole).toDouble(), 100.0);
        const QModelIndex mc = model.index(0, model.column(QStringLiteral("p_any_mc")));
        QCOMPARE(model.data(mc).toString().isEmpty(), replies == 0);
        // top-k 2 cuts banana: exactly 0, shown as a number, not a blank read as 0
        const QModelIndex analytic = model.index(5, model.column(QStringLiteral("p_any_analytic")));
        QCOMPARE(model.data(analytic).toString(), QStringLiteral("0"));
        QCOMPARE(model.data(analytic, Qt::EditRole).toDouble(), 0.0);
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
    }

    void chartHasSeriesPerSetting()
    {
        ui::JunkRiskChart chart;
        chart.setRows(smallRows(500), true);
        // Per setting: analytic line + Monte Carlo points; plus one error bar per nonzero interval.
        QVERIFY(chart.chart()->series().size() >= 4);
        const auto linearCount = chart.chart()->series().size();
        chart.setRows(smallRows(0), false);
        QCOMPARE(chart.chart()->series().size(), 4);  // no error bars without replies
        QVERIFY(linearCount > 4);
        QCOMPARE(chart.chart()->axes().size(), 2);
    }

    void runFillsTableAndChart()
    {
        ui::JunkRiskPage page;
        page.junkForm()->repliesBox()->setValue(3000);
        page.junkForm()->threadsBox()->setValue(2);
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        QSignalSpy busy(&page, &ui::Page::busyChanged);
        page.run();
        QVERIFY(page.isRunning() || !ended.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 30000);
        QCOMPARE(ended.at(0).at(0).toBool(), true);
        QCOMPARE(page.results()->model()->rowCount(), 2 * 12);
        QVERIFY(page.chart()->series().size() > 4);
        QVERIFY(page.provenance().asText().contains(QStringLiteral("replies: 3000")));
        QCOMPARE(busy.size(), 2);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void cancelKeepsPreviousResults()
    {
        ui::JunkRiskPage page;
        page.junkForm()->repliesBox()->setValue(500);
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 30000);
        const app::ResultTable before = page.results()->model()->table();
        const int withJunk = page.results()->model()->column(QStringLiteral("replies_with_junk"));
        const QString fourthBefore =
            page.results()->model()->data(page.results()->model()->index(3, withJunk)).toString();
        QCOMPARE(before.rows, std::size_t{24});

        QCOMPARE(page.openFile(test::examplePath(QStringLiteral("junk-risk-zipf-262k.json"))), QString());
        page.junkForm()->repliesBox()->setValue(
            5'000'000);  // minutes of work (5e10 draws, under the 1e11 limit): far too long to finish here
        QSignalSpy progress(&page, &ui::Page::progressChanged);
        page.run();
        QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty() && progress.last().at(0).toInt() > 0, 30000);
        page.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 2, 1000);
        QCOMPARE(ended.at(1).at(0).toBool(), false);
        QCOMPARE(page.results()->model()->table().rows, before.rows);
        QCOMPARE(page.results()->model()->data(page.results()->model()->index(3, withJunk)).toString(), fourthBefore);
    }

    // Along a reply of the built-in model: the table holds one row per (setting, step), the
    // page shows the reply's two charts, and the file it saves reads back as the same experiment.
    void alongABuiltinReply()
    {
        ui::JunkRiskPage page;
        page.show();
        page.junkForm()->modeBox()->setCurrentIndex(ui::JunkRiskForm::BuiltinReply);
        page.junkForm()->promptField()->setText(QStringLiteral("the sampler"));
        page.junkForm()->replyLengthBox()->setValue(9);
        page.junkForm()->repliesBox()->setValue(500);
        QVERIFY(!page.junkForm()->replyErrorLabel()->isVisible());
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 30000);
        QCOMPARE(ended.at(0).at(0).toBool(), true);
        QCOMPARE(page.results()->model()->rowCount(), 2 * 9);  // the lesson's two settings
        QVERIFY(page.results()->model()->column(QStringLiteral("q_after")) >= 0);
        // Along a reply: the risk by step, then q_t by step (the kind's two charts).
        const auto charts = page.results()->charts();
        QCOMPARE(charts.size(), 2);
        QCOMPARE(page.chart(), charts[0].second);
        QCOMPARE(charts[1].first, QStringLiteral("-q"));
        QCOMPARE(charts[1].second->series().size(), 2);
        QVERIFY(page.lessonLabel()->text().contains(QStringLiteral("over the reply's 9 tokens")));
        QVERIFY(page.provenance().asText().contains(QStringLiteral("reply: builtin model")));
        const auto spec = page.junkForm()->spec();
        QVERIFY(spec.ok());
        QVERIFY(spec->reply.has_value());
        QCOMPARE(spec->reply->length, 9);
    }

    // Along a GGUF model's reply: the Reply model field names the file, the run reads its
    // steps, and the provenance names the model's hash.
    void alongAGgufModelsReply()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::F32, true, 64).writeFile(model.toStdString()));
        ui::JunkRiskPage page;
        page.show();
        page.junkForm()->modeBox()->setCurrentIndex(ui::JunkRiskForm::BuiltinReply);
        page.junkForm()->replyModelField()->setText(model);
        page.junkForm()->promptField()->setText(QStringLiteral("hi!"));
        page.junkForm()->replyLengthBox()->setValue(7);
        page.junkForm()->repliesBox()->setValue(500);
        QVERIFY(!page.junkForm()->replyErrorLabel()->isVisible());
        const auto spec = page.junkForm()->spec();
        QVERIFY2(spec.ok(), spec ? "" : spec.error().c_str());
        QCOMPARE(spec->reply->modelFile, model);
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 30000);
        QCOMPARE(ended.at(0).at(0).toBool(), true);
        QCOMPARE(page.results()->model()->rowCount(), 2 * 7);
        QVERIFY(page.provenance().asText().contains(QStringLiteral("reply: GGUF model")));
        QVERIFY(page.provenance().asText().contains(QStringLiteral("sha256=")));
    }

    // Bad reply inputs are shown next to them; the page keeps working (back to one
    // distribution, it runs).
    void badReplyInputShownInline_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("steps");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty prompt") << int(ui::JunkRiskForm::BuiltinReply) << QString() << QString()
                                      << QStringLiteral("  ") << QStringLiteral("Prompt: type at least one word");
        QTest::newRow("no file") << int(ui::JunkRiskForm::FileSteps) << QString() << QString() << QString()
                                 << QStringLiteral("Logits file: name a");
        QTest::newRow("missing file") << int(ui::JunkRiskForm::FileSteps) << QStringLiteral("nope.npy") << QString()
                                      << QString() << QStringLiteral("nope.npy");
        QTest::newRow("bad range text") << int(ui::JunkRiskForm::FileSteps) << QStringLiteral("steps.npy")
                                        << QStringLiteral("1 to 3") << QString()
                                        << QStringLiteral("Steps: '1 to 3' is not");
        QTest::newRow("range outside") << int(ui::JunkRiskForm::FileSteps) << QStringLiteral("steps.npy")
                                       << QStringLiteral("0..7") << QString()
                                       << QStringLiteral("steps: to 7 is outside the array's 4 steps");
        QTest::newRow("one-row file") << int(ui::JunkRiskForm::FileSteps) << QStringLiteral("one.npy")
                                      << QStringLiteral("all") << QString() << QStringLiteral("holds one step");
    }
    void badReplyInputShownInline()
    {
        QFETCH(int, mode);
        QFETCH(QString, file);
        QFETCH(QString, steps);
        QFETCH(QString, prompt);
        QFETCH(QString, message);
        QTemporaryDir dir;
        // Hand-written .npy files of float64 zeros: [4, 3] and [3].
        const auto npy = [&](const QString& name, const QByteArray& shape, int values) {
            QByteArray dict = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
            while ((10 + dict.size() + 1) % 64 != 0)
                dict += ' ';
            dict += '\n';
            QByteArray bytes("\x93NUMPY\x01\x00", 8);
            bytes += static_cast<char>(dict.size() & 0xFF);
            bytes += static_cast<char>(dict.size() >> 8);
            bytes += dict + QByteArray(values * 8, '\0');
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        npy(QStringLiteral("steps.npy"), "(4, 3)", 12);
        npy(QStringLiteral("one.npy"), "(3,)", 3);
        ui::JunkRiskPage page;
        page.show();
        page.junkForm()->modeBox()->setCurrentIndex(mode);
        page.junkForm()->stepsFileField()->setText(file.isEmpty() ? QString() : dir.filePath(file));
        page.junkForm()->stepRangeField()->setText(steps);
        page.junkForm()->promptField()->setText(prompt);
        QVERIFY(page.junkForm()->replyErrorLabel()->isVisible());
        QVERIFY2(page.junkForm()->replyErrorLabel()->text().contains(message),
                 qPrintable(page.junkForm()->replyErrorLabel()->text()));
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        page.junkForm()->modeBox()->setCurrentIndex(ui::JunkRiskForm::OneDistribution);
        QVERIFY(!page.junkForm()->replyErrorLabel()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 30000);
        ended.clear();
        page.junkForm()->repliesBox()->setValue(200);
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 30000);
        QCOMPARE(ended.at(0).at(0).toBool(), true);
        QCOMPARE(page.results()->charts().size(), 1);  // one distribution: the risk by N
        QCOMPARE(page.chart(), page.results()->charts()[0].second);
    }

    void badControlsShownInline()
    {
        ui::JunkRiskPage page;
        page.show();
        QTRY_VERIFY(!page.isRunning());  // the lesson, run when the page is first shown
        page.findChild<QPlainTextEdit*>()->setPlainText(QStringLiteral("temperature=1\ntop-p=abc"));
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        QVERIFY(!page.isRunning());
        QVERIFY(page.errorLabel()->isVisible());
        QVERIFY2(page.errorLabel()->text().startsWith(QStringLiteral("Settings, line 2:")),
                 qPrintable(page.errorLabel()->text()));
        QVERIFY(ended.isEmpty());
    }

    // Results on screen are marked stale while the controls describe another experiment: after
    // an edit (undone by editing back), and after logits handed over from the Explorer; the
    // threads and the log-N view change no number and leave them current.
    void staleResultsAreMarked()
    {
        ui::JunkRiskPage page;
        page.show();
        page.junkForm()->repliesBox()->setValue(200);
        QSignalSpy ended(&page, &ui::JunkRiskPage::runEnded);
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 30000);
        QVERIFY(!page.resultsStale());
        QVERIFY(!page.staleLabel()->isVisible());

        page.junkForm()->threadsBox()->setValue(page.junkForm()->threadsBox()->value() == 1 ? 2 : 1);
        QTest::qWait(0);
        QVERIFY(!page.staleLabel()->isVisible());
        page.junkForm()->repliesBox()->setValue(300);
        QTRY_VERIFY(page.staleLabel()->isVisible());
        QVERIFY(page.resultsStale());
        page.junkForm()->repliesBox()->setValue(200);
        QTRY_VERIFY(!page.staleLabel()->isVisible());

        engine::Distribution d;
        d.logits = test::array({3.0, 2.0, 1.5, 1.0, -2.0, -3.0});
        page.acceptDistribution(d);
        QTRY_VERIFY(page.staleLabel()->isVisible());
        page.run();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 2, 30000);
        QVERIFY(!page.staleLabel()->isVisible());
    }

    void useLogitsFromElsewhere()
    {
        ui::JunkRiskPage page;
        engine::Distribution d;
        d.logits = test::array({3.0, 2.0, 1.5, 1.0, -2.0, -3.0});
        page.acceptDistribution(d);
        const auto spec = page.junkForm()->spec();
        QVERIFY(spec.ok());
        QCOMPARE(spec->distribution.kind, app::DistributionSpec::Kind::Logits);
        QCOMPARE(spec->distribution.values.size(), 6);
        QCOMPARE(spec->settings.size(), 2);  // the rest of the experiment is kept
    }

    // The lesson's junk is token id 4, banana. Logits handed over from the Explorer keep the
    // junk row as it was: when id 4 is another token there, the page says so next to the row.
    void handOffWarnsWhenJunkIdsNameOtherTokens_data()
    {
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<int>("vocabulary");
        QTest::addColumn<QString>("warning");  // empty: none
        QTest::newRow("the lesson's tokens")
            << QStringList{QStringLiteral("users"), QStringLiteral("data"), QStringLiteral("items"),
                           QStringLiteral("result"), QStringLiteral("banana")}
            << 5 << QString();
        QTest::newRow("a model's 50,000 tokens")
            << QStringList() << 50000 << QStringLiteral("4 is now 't4' (was 'banana')");
        QTest::newRow("unnamed logits") << QStringList() << 3
                                        << QStringLiteral("4 is now outside the vocabulary (was 'banana')");
    }
    void handOffWarnsWhenJunkIdsNameOtherTokens()
    {
        QFETCH(QStringList, tokens);
        QFETCH(int, vocabulary);
        QFETCH(QString, warning);
        ui::JunkRiskPage page;
        page.show();
        engine::Distribution d;
        d.logits = Eigen::ArrayXd::LinSpaced(vocabulary, 3.0, -2.0);
        for (int i = 0; i < vocabulary && (vocabulary > 5 || !tokens.isEmpty()); ++i)
            d.tokens.push_back(tokens.isEmpty() ? "t" + std::to_string(i) : tokens[i].toStdString());
        QVERIFY(page.acceptDistribution(d));
        QLabel* label = page.junkForm()->junkWarningLabel();
        QCOMPARE(label->isVisible(), !warning.isEmpty());
        if (!warning.isEmpty())
            QVERIFY2(label->text().contains(warning), qPrintable(label->text()));
    }

    void openAndSave()
    {
        ui::JunkRiskPage page;
        page.show();
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"logitlab": 3})");
        file.close();
        const QString error = page.openFile(bad);
        QVERIFY(error.startsWith(bad + QStringLiteral(": logitlab: unknown version 3")));
        QVERIFY(page.errorLabel()->isVisible());

        QCOMPARE(page.openFile(test::examplePath(QStringLiteral("junk-risk-lesson-logits.json"))), QString());
        QVERIFY(!page.errorLabel()->isVisible());
        const auto shown = page.junkForm()->spec();
        QVERIFY2(shown.ok(), shown.ok() ? "" : shown.error().c_str());
        QCOMPARE(shown->settings.size(), 5);
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QCOMPARE(page.saveFile(saved), QString());
        const auto again = app::readJunkRiskFile(saved);
        QVERIFY(again.ok());
        QVERIFY(again.value() == shown.value());
    }
};

QTEST_MAIN(TestJunkRiskPage)
#include "tst_junk_risk_page.moc"
