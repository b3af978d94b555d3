// The Explorer offscreen: the lesson's example, top-p and temperature change the survivors shown
// as the lesson says, edits and undo, bad edits and bad pasted rows refused in place, presets,
// large vocabularies (top 20 + rest), the sweep and draws, save/open, exports that parse, and
// QAbstractItemModelTester on the models.
#include "app/io/gguf_model_file.h"
#include "charts/compare_chart.h"
#include "charts/draw_chart.h"
#include "charts/experiment_charts.h"
#include "charts/probability_chart.h"
#include "charts/sweep_chart.h"
#include "engine/io/logits_parser.h"
#include "engine/models/synthetic_vocabulary.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/lesson_examples.h"
#include "engine/sampler/softmax.h"
#include "support/example_files.h"
#include "support/run_experiment_file.h"
#include "support/test_support.h"
#include "support/tiny_gguf_model.h"
#include "ui/forms/chain_controls.h"
#include "ui/models/logits_sort_proxy.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"
#include "ui/pages/explorer_views.h"
#include "ui/pages/readout_panel.h"
#include "ui/window/main_window.h"

#include <QAbstractBarSeries>
#include <QAbstractItemModelTester>
#include <QAbstractProxyModel>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>

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

// Generate, Open and Paste load in the background: true once the page has taken the result.
bool loaded(const ExplorerPage& page)
{
    return QTest::qWaitFor([&page] { return !page.loading(); }, 30'000);
}

}  // namespace

class TestExplorerPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);  // QSettings away from the user's
    }

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
        QVERIFY(page->readoutText().contains(QStringLiteral("Survivors: %1 of 5").arg(survivors)));
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
        QTest::newRow("word") << "lots"
                              << "'lots' is not a number";
        QTest::newRow("nan") << "nan"
                             << "is NaN";
        QTest::newRow("+inf") << "inf"
                              << "+inf";
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
        QVERIFY(text.contains(QLatin1String("\n0,users,3,0.5770064660454952,1,0.6285317192117624,1\n")));

        QVERIFY(!window.exportChartTo(dir.filePath(QStringLiteral("c.bmp"))).isEmpty());
        // A failed write names the file and leaves nothing behind.
        const QString bad = dir.filePath(QStringLiteral("missing/c.png"));
        QVERIFY(window.exportChartTo(bad).contains(bad));
        QVERIFY(!QFile::exists(bad));
    }

    // The lesson's sequence through the controls, then back through Edit > Undo.
    void topPSequenceAndUndo()
    {
        MainWindow window;
        auto* page = new ExplorerPage;
        window.addPage(page);
        window.show();
        QCOMPARE(survivorsShown(*page->model()), 3);
        page->topPBox()->setValue(0.75);
        QCOMPARE(survivorsShown(*page->model()), 2);
        page->topPBox()->setValue(0.9);
        QCOMPARE(survivorsShown(*page->model()), 3);
        QUndoStack* undo = page->undoStack();
        undo->undo();
        QCOMPARE(page->topPBox()->value(), 0.75);
        QCOMPARE(survivorsShown(*page->model()), 2);
        undo->undo();
        QCOMPARE(page->topPBox()->value(), 0.9);
        QCOMPARE(survivorsShown(*page->model()), 3);
        undo->redo();
        QCOMPARE(survivorsShown(*page->model()), 2);
    }

    void sliderDragIsOneUndoStep()
    {
        ExplorerPage page;
        const int before = page.undoStack()->count();
        QSlider* slider = page.chainControls()->temperatureSlider();
        for (int v : {95, 80, 60, 50}) {
            slider->setValue(v);
            QCOMPARE(page.model()->settings().temperature, v / 100.0);
        }
        QCOMPARE(page.undoStack()->count(), before + 1);
        QCOMPARE(survivorsShown(*page.model()), 2);  // T = 0.5
        page.undoStack()->undo();
        QCOMPARE(page.temperatureBox()->value(), 1.0);
        QCOMPARE(slider->value(), 100);
        QCOMPARE(survivorsShown(*page.model()), 3);
        // A separate drag after the slider was released is its own step.
        emit slider->sliderReleased();
        slider->setValue(150);
        slider->setValue(160);
        emit slider->sliderReleased();
        slider->setValue(40);
        page.undoStack()->undo();
        QCOMPARE(page.temperatureBox()->value(), 1.6);
    }

    void temperatureZeroSaysGreedy()
    {
        ExplorerPage page;
        page.show();
        QVERIFY(!page.chainControls()->greedyLabel()->isVisible());
        page.temperatureBox()->setValue(0.0);
        QVERIFY(page.chainControls()->greedyLabel()->isVisible());
        QCOMPARE(page.chainControls()->greedyLabel()->text(), QStringLiteral("<b>greedy: argmax</b>"));
        QVERIFY(page.probabilityChart()->cutLabel().contains(QLatin1String("greedy: argmax 'users'")));
    }

    void editALogitThenUndo()
    {
        ExplorerPage page;
        LogitsTableModel* model = page.model();
        const QModelIndex result = model->index(3, LogitsTableModel::LogitColumn);
        // result from 1 to 5: the favourite at 0.822, and with users (0.111) top-p 0.9 is passed.
        QVERIFY(model->setData(result, QStringLiteral("5")));
        QCOMPARE(model->survivors().size(), std::size_t{2});
        QCOMPARE(model->survivors()[0].id, 3);
        QCOMPARE(model->data(model->index(3, LogitsTableModel::RankColumn), Qt::EditRole).toInt(), 1);
        page.undoStack()->undo();
        QCOMPARE(model->data(result, Qt::EditRole).toDouble(), 1.0);
        QCOMPARE(model->survivors().size(), std::size_t{3});
        QCOMPARE(model->data(model->index(3, LogitsTableModel::RankColumn), Qt::EditRole).toInt(), 4);
        page.undoStack()->redo();
        QCOMPARE(model->survivors()[0].id, 3);
    }

    // The lesson's figure at the sizes it is shown and exported: its label is wider than the room
    // on either side of the cut line, so it is wrapped there rather than drawn across the line.
    void theCutLabelStandsClearOfItsLine_data()
    {
        QTest::addColumn<QSizeF>("size");
        QTest::newRow("export 1000 x 700") << QSizeF(1000, 700);
        QTest::newRow("small 480 x 360") << QSizeF(480, 360);
        QTest::newRow("wide 1600 x 500") << QSizeF(1600, 500);
    }

    void theCutLabelStandsClearOfItsLine()
    {
        QFETCH(QSizeF, size);
        ExplorerPage page;
        QChart* chart = page.probabilityChart()->chart();
        chart->resize(size);
        QCoreApplication::processEvents();
        QVERIFY(page.probabilityChart()->cutLineX() >= 0.0);
        QVERIFY(page.probabilityChart()->cutLabelClearOfLine());
        // The label's words are all still there, whatever the wrapping.
        QCOMPARE(page.probabilityChart()->cutLabel(), QStringLiteral("cumulative 0.918 > 0.9 after 'items'"));
    }

    void theCutIsLabelledWithItsRule()
    {
        ExplorerPage page;
        QCOMPARE(page.probabilityChart()->cutLabel(), QStringLiteral("cumulative 0.918 > 0.9 after 'items'"));
        page.topPBox()->setValue(0.0);
        page.topKBox()->setValue(2);
        QVERIFY(page.probabilityChart()->cutLabel().startsWith(QLatin1String("top-k = 2")));
        page.topKBox()->setValue(0);
        QCOMPARE(page.probabilityChart()->cutLabel(), QString());
    }

    // XTC in the example file keeps only 'result', below three cut tokens: no line can stand
    // "after" the survivors, so none is drawn and the label says why; the colours show it.
    void xtcCutIsNotDrawnAsAPrefix()
    {
        ExplorerPage page;
        QCOMPARE(page.openExperiment(test::examplePath(QStringLiteral("explorer-llama-xtc.json"))), QString());
        QTRY_VERIFY(!page.loading());
        QCOMPARE(page.model()->survivors().size(), std::size_t{1});
        QCOMPARE(page.model()->shownName(page.model()->survivors()[0].id), QStringLiteral("result"));
        QCOMPARE(page.probabilityChart()->cutLineX(), -1.0);
        const QString cut = page.probabilityChart()->cutLabel();
        QVERIFY2(cut.startsWith(QLatin1String("llama.cpp: ")) && cut.contains(QLatin1String("xtc")) &&
                     cut.contains(QLatin1String("not the most likely")),
                 qPrintable(cut));
        // The sentence under the presets speaks of the file now, not of the first preset; a
        // preset brings its own back.
        const auto* point = page.findChild<QLabel*>(QStringLiteral("lessonPoint"));
        QVERIFY(point != nullptr);
        QVERIFY2(point->text().startsWith(QLatin1String("5 tokens from experiment: explorer-llama-xtc.json.")),
                 qPrintable(point->text()));
        page.applyPreset(0);
        QVERIFY2(point->text().contains(QLatin1String("0.577, 0.789, 0.918")), qPrintable(point->text()));
    }

    void presetsGiveTheLessonsNumbers()
    {
        ExplorerPage page;
        page.show();
        page.findChild<QPushButton*>(QStringLiteral("preset1"))->click();  // the exercise
        QCOMPARE(page.model()->tokenName(0), QStringLiteral("=>"));
        QCOMPARE(survivorsShown(*page.model()), 3);
        QCOMPARE(page.probabilityChart()->cutLabel(), QStringLiteral("cumulative 0.924 > 0.9 after '('"));
        page.temperatureBox()->setValue(0.7);
        QCOMPARE(survivorsShown(*page.model()), 2);
        QVERIFY(std::abs(page.model()->survivors()[0].p - 0.606) < 5e-4);

        page.findChild<QPushButton*>(QStringLiteral("preset2"))->click();  // code completion
        QCOMPARE(page.temperatureBox()->value(), 0.0);
        QCOMPARE(survivorsShown(*page.model()), 1);
        QVERIFY(page.readoutText().contains(QLatin1String("greedy: argmax")));

        page.findChild<QPushButton*>(QStringLiteral("preset3"))->click();  // taglines
        QCOMPARE(page.temperatureBox()->value(), 0.9);
        QCOMPARE(page.topPBox()->value(), 0.95);
        const auto expected =
            engine::candidates(engine::lessonExample().logits, engine::SamplerSettings{0.9, std::nullopt, 0.95});
        QCOMPARE(page.model()->survivors(), expected);
        QCOMPARE(survivorsShown(*page.model()), 4);

        page.findChild<QPushButton*>(QStringLiteral("preset4"))->click();  // autofix
        QCOMPARE(survivorsShown(*page.model()), 1);
        page.findChild<QPushButton*>(QStringLiteral("preset0"))->click();
        QCOMPARE(page.temperatureBox()->value(), 1.0);
        QCOMPARE(survivorsShown(*page.model()), 3);
        // Every preset is an undo step.
        page.undoStack()->undo();
        QCOMPARE(page.temperatureBox()->value(), 0.0);
    }

    void pasteReportsBadRowsAndKeepsTheGoodOnes()
    {
        ExplorerPage page;
        page.show();
        page.pasteText(QStringLiteral("token\tlogit\nalpha\t2\nbeta\tlots\ngamma\t1\ndelta\tnan\n"));
        QVERIFY(loaded(page));
        QCOMPARE(page.model()->rowCount(), 2);
        QCOMPARE(page.model()->tokenName(1), QStringLiteral("gamma"));
        QVERIFY(page.errorLabel()->isVisible());
        const QString message = page.errorLabel()->text();
        QVERIFY2(message.contains(QLatin1String("row 3: 'lots' is not a number")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("row 5: the logit is NaN")), qPrintable(message));
        page.undoStack()->undo();
        QCOMPARE(page.model()->rowCount(), 5);

        // Nothing usable: nothing changes, the message says why.
        page.pasteText(QStringLiteral("what\never\n"));
        QVERIFY(loaded(page));
        QCOMPARE(page.model()->rowCount(), 5);
        QVERIFY(page.errorLabel()->text().contains(QLatin1String("row 1")));
    }

    // Issue 18: the arithmetic toggle runs the preset as its library computes, and the readouts
    // mark the token whose fate depends on rounding and the ties at a cut.
    void arithmeticToggleAndCutMarks()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // ln 0.3, ln 0.2, ln 0.2, ln 0.1 three times: the issue's vLLM top-p 0.8 case.
        f.write("token,logit\na,-1.2039728043259361\nb,-1.6094379124341003\nc,-1.6094379124341003\n"
                "d,-2.3025850929940455\ne,-2.3025850929940455\nf,-2.3025850929940455\n");
        f.close();
        ExplorerPage page;
        page.show();
        QCOMPARE(page.openLogitsFile(path), QString());
        QVERIFY(loaded(page));
        ChainControls* controls = page.chainControls();
        QVERIFY(!controls->arithmeticBox()->isEnabled());  // the lesson has one arithmetic
        controls->semanticsBox()->setCurrentText(QStringLiteral("vllm"));
        controls->topPBox()->setValue(0.8);
        QVERIFY(controls->arithmeticBox()->isEnabled());
        QTRY_COMPARE(page.model()->analysis().survivors.size(), std::size_t{4});
        const QString text = page.readoutText();
        QVERIFY2(text.contains(QLatin1String("token 4: kept by float32, cut in exact arithmetic")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("top-p: tie at logit")), qPrintable(text));  // d and e stay, f goes
        controls->arithmeticBox()->setChecked(true);
        QCOMPARE(page.model()->chain().stages.arithmetic, std::string("library"));
        QTRY_COMPARE(page.model()->analysis().survivors.size(), std::size_t{5});
    }

    void openingABadFileLosesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.csv"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("token,logit\na,1\nb,oops\n");
        f.close();
        ExplorerPage page;
        page.show();
        QCOMPARE(page.openLogitsFile(path), QString());  // the file opens; its contents are read on a worker
        QVERIFY(loaded(page));
        const QString error = page.errorLabel()->text();
        QVERIFY2(error.contains(QLatin1String("bad.csv:3")), qPrintable(error));
        QVERIFY(page.errorLabel()->isVisible());
        QCOMPARE(page.model()->rowCount(), 5);
        // A file that cannot be opened is refused at once.
        const QString missing = dir.filePath(QStringLiteral("missing.csv"));
        const QString refused = page.openLogitsFile(missing);
        QCOMPARE(refused, missing + QStringLiteral(": no such file"));
        QCOMPARE(page.errorLabel()->text(), refused);
        QVERIFY(!page.loading());
    }

    // The model row: typed key by key, the model runs once after the pause, and the table is the
    // model's next-token distribution (the same logits the CLI's --model gives), one undo step.
    void typedPromptShowsTheModelsNextToken()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tiny.gguf"));
        QVERIFY(test::tinyLlama(engine::gguf::GgmlType::F32, true, 64).writeFile(path.toStdString()));
        ExplorerPage page;
        page.show();
        QVERIFY(page.modelRow()->isHidden());
        QPushButton* model = nullptr;
        for (QPushButton* b : page.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("&Model…"))
                model = b;
        QVERIFY(model);
        model->click();
        QVERIFY(!page.modelRow()->isHidden());
        QTest::keyClicks(page.modelPathField(), path);
        QTest::keyClicks(page.modelPromptField(), QStringLiteral("hi!"), Qt::NoModifier, 20);
        QTRY_VERIFY(page.model()->rowCount() == static_cast<int>(test::kTinyTokens.size()));
        QVERIFY(loaded(page));
        const auto expected = app::ggufNextTokenDistribution(path, QStringLiteral("hi!"));
        QVERIFY(expected);
        const engine::Distribution shown = page.model()->distribution();
        QCOMPARE(shown.tokens, expected->tokens);
        QVERIFY((shown.logits == expected->logits).all());
        QCOMPARE(page.undoStack()->count(), 1);  // one load for the whole typing
        page.undoStack()->undo();
        QCOMPARE(page.model()->rowCount(), 5);  // the lesson's table again
        // A missing model: said next to the table, the table kept.
        page.modelPathField()->setText(dir.filePath(QStringLiteral("none.gguf")));
        QTest::keyClick(page.modelPromptField(), Qt::Key_Return);
        QTRY_VERIFY(page.errorLabel()->text().contains(QStringLiteral("none.gguf: no such file")));
        QCOMPARE(page.model()->rowCount(), 5);
    }

    // The readouts change on every slider step; their size must not, or every step would send
    // a layout request up to the window.
    void readoutsKeepTheirSizeWhileTheTextChanges()
    {
        ExplorerPage page;
        page.resize(1200, 800);
        page.show();
        auto* panel = page.findChild<ReadoutPanel*>();
        QVERIFY(panel);
        const QSize hint = panel->sizeHint();
        page.temperatureBox()->setValue(0.0);
        QVERIFY(panel->text().startsWith(QLatin1String("greedy: argmax")));
        const QString greedy = panel->text();
        page.temperatureBox()->setValue(2.7);
        QVERIFY(panel->text() != greedy && !panel->text().contains(QLatin1String("greedy")));
        QCOMPARE(panel->sizeHint(), hint);
        QCOMPARE(page.readoutText(), panel->text());
    }

    void addAndRemoveRows()
    {
        ExplorerPage page;
        page.addToken();
        QVERIFY(loaded(page));  // built on the worker, like every table change of the whole vocabulary
        QCOMPARE(page.model()->rowCount(), 6);
        QCOMPARE(page.model()->distribution().logits[5], -3.0);  // below the least likely
        page.tableView()->selectRow(0);
        page.removeSelectedTokens();
        QVERIFY(loaded(page));
        QCOMPARE(page.model()->rowCount(), 5);
        QCOMPARE(page.model()->tokenName(0), QStringLiteral("data"));
        page.undoStack()->undo();
        page.undoStack()->undo();
        QCOMPARE(page.model()->rowCount(), 5);
        QCOMPARE(page.model()->tokenName(0), QStringLiteral("users"));
    }

    // V = 262,144: the table holds every token, the chart the top 20 and the rest's mass.
    // For the class: values printed on the bars, and a fixed 0..1 axis that does not rescale.
    void valuesOnBarsAndFixedAxis()
    {
        ExplorerPage page;
        auto* values = page.findChild<QCheckBox*>(QStringLiteral("valuesOnBars"));
        auto* fixed = page.findChild<QCheckBox*>(QStringLiteral("fixedAxis"));
        QVERIFY(values != nullptr && fixed != nullptr);
        QVERIFY(!page.probabilityChart()->valuesOnBars());
        values->setChecked(true);
        QVERIFY(page.probabilityChart()->valuesOnBars());
        const auto* series = qobject_cast<QAbstractBarSeries*>(page.probabilityChart()->chart()->series().first());
        QVERIFY(series != nullptr && series->isLabelsVisible());
        QCOMPARE(page.probabilityChart()->axisTop(), 0.7);  // the lesson's 0.577 at T = 1
        fixed->setChecked(true);
        QCOMPARE(page.probabilityChart()->axisTop(), 1.0);
        page.temperatureBox()->setValue(0.5);
        QCOMPARE(page.probabilityChart()->axisTop(), 1.0);
        fixed->setChecked(false);
        QVERIFY(page.probabilityChart()->axisTop() < 1.0 || page.probabilityChart()->axisTop() == 1.0);
        page.temperatureBox()->setValue(2.0);
        QVERIFY(page.probabilityChart()->axisTop() < 0.7);
    }

    // For the class: the running total with the top-p line crosses it at the last survivor,
    // and the log axis spans whole decades from below the smallest bar to 1.
    void cumulativeViewCrossesTopPAtTheCut_data()
    {
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("topP");
        QTest::addColumn<double>("lineY");
        QTest::newRow("T=1 top-p 0.9") << 1.0 << 0.9 << 0.9;
        QTest::newRow("T=1 top-p 0.75") << 1.0 << 0.75 << 0.75;
        QTest::newRow("T=1.5 top-p 0.9") << 1.5 << 0.9 << 0.9;
        QTest::newRow("T=0: no line") << 0.0 << 0.9 << -1.0;
        QTest::newRow("top-p off: no line") << 1.0 << 0.0 << -1.0;
    }
    void cumulativeViewCrossesTopPAtTheCut()
    {
        QFETCH(double, temperature);
        QFETCH(double, topP);
        QFETCH(double, lineY);
        ExplorerPage page;
        auto* cumulative = page.findChild<QCheckBox*>(QStringLiteral("cumulative"));
        QVERIFY(cumulative != nullptr);
        page.temperatureBox()->setValue(temperature);
        page.topPBox()->setValue(topP);
        ProbabilityChart* chart = page.probabilityChart();
        QCOMPARE(chart->topPLineY(), -1.0);  // only the cumulative view draws it
        const QList<double> plain = chart->rawHeights();
        cumulative->setChecked(true);
        QCOMPARE(chart->topPLineY(), lineY);
        const QList<double> running = chart->rawHeights();
        QCOMPARE(running.size(), plain.size());
        double total = 0.0;
        for (int i = 0; i < plain.size(); ++i) {
            total += plain[i];
            QCOMPARE(running[i], std::min(1.0, total));
        }
        QVERIFY(std::abs(running.last() - 1.0) < 1e-12);
        QCOMPARE(chart->axisTop(), 1.2);  // room above the totals for the labels
        QVERIFY(chart->chart()->title().startsWith(QLatin1String("Cumulative")));
        if (lineY > 0.0) {
            // top-p keeps the tokens up to the first bar that reaches the line.
            const int survivors = static_cast<int>(page.model()->survivors().size());
            QVERIFY(running[survivors - 1] >= lineY);
            QVERIFY(survivors == 1 || running[survivors - 2] < lineY);
        }
        cumulative->setChecked(false);
        QCOMPARE(chart->rawHeights(), plain);
        QCOMPARE(chart->topPLineY(), -1.0);
    }

    void logScaleSpansDecadesToOne()
    {
        ExplorerPage page;
        auto* logScale = page.findChild<QCheckBox*>(QStringLiteral("logScale"));
        auto* fixed = page.findChild<QCheckBox*>(QStringLiteral("fixedAxis"));
        QVERIFY(logScale != nullptr && fixed != nullptr);
        page.temperatureBox()->setValue(0.5);  // a steep distribution: the tail is tiny
        ProbabilityChart* chart = page.probabilityChart();
        const double linearTop = chart->axisTop();
        QVERIFY(linearTop < 1.0 || linearTop == 1.0);
        logScale->setChecked(true);
        QVERIFY(!fixed->isEnabled());
        QCOMPARE(chart->axisTop(), 1.0);
        double smallest = 1.0;
        for (double h : chart->rawHeights())
            if (h > 0.0)
                smallest = std::min(smallest, h);
        const double bottom = chart->axisBottom();
        QVERIFY2(bottom <= smallest && (bottom * 10.0 > smallest || bottom == 0.01),
                 qPrintable(QString::number(bottom)));
        QCOMPARE(std::pow(10.0, std::round(std::log10(bottom))), bottom);  // a whole decade
        logScale->setChecked(false);
        QVERIFY(fixed->isEnabled());
        QCOMPARE(chart->axisBottom(), 0.0);
        QCOMPARE(chart->axisTop(), linearTop);
    }

    void largeVocabularyShowsTopNPlusRest()
    {
        ExplorerPage page;
        engine::SyntheticSpec spec;
        spec.size = engine::kMaxVocabularySize;
        page.generateVocabulary(spec);
        QVERIFY(loaded(page));
        QCOMPARE(page.model()->rowCount(), engine::kMaxVocabularySize);
        const QStringList bars = page.probabilityChart()->categories();
        QCOMPARE(bars.size(), ProbabilityChart::kTopBars + 1);
        QCOMPARE(bars.last(), QStringLiteral("rest (262,124)"));
        double shown = 0.0;
        const auto& order = page.model()->idsByLogit();
        for (int i = 0; i < ProbabilityChart::kTopBars; ++i)
            shown += page.model()->probabilities()[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
        QVERIFY(page.probabilityChart()->restMass() > 0.5);  // Zipf 1.1: most mass is in the tail
        QVERIFY(std::abs(shown + page.probabilityChart()->restMass() - 1.0) < 1e-12);
        QVERIFY(page.probabilityChart()->cutLabel().contains(QLatin1String("inside the rest")));
        // The large table opens with the most likely token on top, not byte tokens by id.
        QCOMPARE(page.tableView()->horizontalHeader()->sortIndicatorSection(),
                 int(LogitsTableModel::ProbabilityColumn));
        QCOMPARE(page.tableView()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        const auto* proxy = qobject_cast<const QAbstractProxyModel*>(page.tableView()->model());
        QVERIFY(proxy != nullptr);
        QCOMPARE(proxy->mapToSource(proxy->index(0, 0)).row(), order.front());
        // Same survivors as the engine's own candidates().
        const auto expected = engine::candidates(page.model()->distribution().logits, page.model()->settings());
        QCOMPARE(page.model()->survivors(), expected);
        page.undoStack()->undo();
        QCOMPARE(page.model()->rowCount(), 5);
        QTRY_VERIFY(!page.sweepRunning());
    }

    // Bars: the user's top N, then the rest; saved with the experiment, and `logitlab-cli run`
    // on the saved file draws the same bars.
    void chosenBarsShowTopNAndRest()
    {
        ExplorerPage page;
        engine::SyntheticSpec spec;
        spec.size = 1000;
        page.generateVocabulary(spec);
        QVERIFY(loaded(page));
        QCOMPARE(page.barsBox()->value(), ProbabilityChart::kTopBars);
        const auto& order = page.model()->idsByLogit();
        const auto& p = page.model()->probabilities();
        for (const int n : {5, 1, 200}) {
            page.barsBox()->setValue(n);
            const QStringList bars = page.probabilityChart()->categories();
            QCOMPARE(bars.size(), n + 1);
            QCOMPARE(bars.last(), QStringLiteral("rest (%L1)").arg(1000 - n));
            double shown = 0.0;
            for (int i = 0; i < n; ++i)
                shown += p[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
            QVERIFY(std::abs(shown + page.probabilityChart()->restMass() - 1.0) < 1e-12);
        }
        page.barsBox()->setValue(5);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("five.json"));
        QCOMPARE(page.saveExperiment(path), QString());
        ExplorerPage other;
        QCOMPARE(other.openExperiment(path), QString());
        QVERIFY(loaded(other));
        QCOMPARE(other.barsBox()->value(), 5);
        QCOMPARE(other.probabilityChart()->categories(), page.probabilityChart()->categories());
        const auto result = test::runExperimentFile(path);
        QVERIFY2(result, result ? "" : result.error().c_str());
        const ExperimentCharts charts = experimentCharts(result.value());
        QVERIFY(!charts.charts.isEmpty());
        auto* tokens = qobject_cast<QBarCategoryAxis*>(charts.charts.front().second->axes(Qt::Horizontal).value(0));
        QVERIFY(tokens);
        QCOMPARE(tokens->categories(), page.probabilityChart()->categories());
        // File > New: back to the default.
        other.reset();
        QCOMPARE(other.barsBox()->value(), ProbabilityChart::kTopBars);
    }

    void sweepShowsTwoThreeFour()
    {
        ExplorerPage page;
        QTRY_VERIFY(!page.sweepRunning());
        QCOMPARE(page.sweepChart()->survivorsAt(0.5), 2);
        QCOMPARE(page.sweepChart()->survivorsAt(1.0), 3);
        QCOMPARE(page.sweepChart()->survivorsAt(1.5), 4);
        page.topPBox()->setValue(0.75);
        QTRY_VERIFY(!page.sweepRunning());
        QCOMPARE(page.sweepChart()->survivorsAt(1.0), 2);
    }

    void drawsMatchTheLesson()
    {
        ExplorerPage page;
        page.applyPreset(1);  // the exercise: seed 42, 1000 draws, mulberry32 are the defaults
        page.showChart(ExplorerPage::DrawsTab);
        QTRY_VERIFY(!page.drawsRunning());
        QTRY_COMPARE(page.lastDraws().draws, std::uint64_t{1000});
        QCOMPARE(page.lastDraws().counts, (std::vector<std::uint64_t>{493, 393, 114}));
        QVERIFY(page.chart()->title().contains(QLatin1String("1,000 draws, mulberry32 seed 42")));
    }

    // The draws always belong to the seed box: a new seed redraws when the Draws tab shows, and
    // clears the chart (to redraw when shown) otherwise. File > New goes back to the lesson's
    // seed, so the lesson's 493 / 393 / 114 come back.
    void seedChangeRedrawsAndNewRestoresTheLesson()
    {
        ExplorerPage page;
        page.applyPreset(1);
        page.showChart(ExplorerPage::DrawsTab);
        QTRY_COMPARE(page.lastDraws().draws, std::uint64_t{1000});
        auto* seed = page.findChild<QSpinBox*>(QStringLiteral("drawSeed"));
        QVERIFY(seed != nullptr);
        seed->setValue(43);
        QTRY_VERIFY(page.chart()->title().contains(QLatin1String("seed 43")));
        QTRY_COMPARE(page.lastDraws().draws, std::uint64_t{1000});
        QVERIFY(page.lastDraws().counts != (std::vector<std::uint64_t>{493, 393, 114}));
        // The strip under the chart sets seed 43's first draws against seed 42's.
        const QString strip = page.findChild<QLabel*>(QStringLiteral("drawStrip"))->text();
        QVERIFY2(strip.contains(QLatin1String("now, mulberry32 seed 43")) &&
                     strip.contains(QLatin1String("before, mulberry32 seed 42")) &&
                     strip.contains(QLatin1String("They part at draw")),
                 qPrintable(strip));

        page.showChart(ExplorerPage::ProbabilitiesTab);
        QTRY_VERIFY(!page.drawsRunning());
        seed->setValue(44);
        QCOMPARE(page.lastDraws().draws, std::uint64_t{0});  // no longer claims seed 43's counts
        page.showChart(ExplorerPage::DrawsTab);
        QTRY_VERIFY(page.chart()->title().contains(QLatin1String("seed 44")));

        page.findChild<QComboBox*>(QStringLiteral("drawRng"))->setCurrentIndex(1);
        page.findChild<QSpinBox*>(QStringLiteral("drawCount"))->setValue(500);
        page.reset();
        QCOMPARE(seed->value(), 42);
        QCOMPARE(page.findChild<QComboBox*>(QStringLiteral("drawRng"))->currentText(), QStringLiteral("mulberry32"));
        page.applyPreset(1);
        QTRY_VERIFY(!page.drawsRunning());
        QTRY_COMPARE(page.lastDraws().draws, std::uint64_t{1000});
        QCOMPARE(page.lastDraws().counts, (std::vector<std::uint64_t>{493, 393, 114}));
        QVERIFY(page.chart()->title().contains(QLatin1String("1,000 draws, mulberry32 seed 42")));
    }

    // A teacher selects the seed and types "7", then "123", key by key, then Enter: each strip
    // sets the typed seed's draws against the run before it (seed 42, then seed 7), never a seed
    // half-typed ("12") or the seed the box holds when the draws land.
    void typedSeedComparesWithTheLastCommittedRun()
    {
        ExplorerPage page;
        page.applyPreset(1);
        page.showChart(ExplorerPage::DrawsTab);
        QTRY_COMPARE(page.lastDraws().draws, std::uint64_t{1000});
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* seed = page.findChild<QSpinBox*>(QStringLiteral("drawSeed"));
        auto* strip = page.findChild<QLabel*>(QStringLiteral("drawStrip"));
        const auto typeSeed = [&](const QString& digits) {
            seed->setFocus();
            seed->selectAll();
            QTest::keyClicks(seed, digits, Qt::NoModifier, 40);
            QTest::keyClick(seed, Qt::Key_Return);
            QTRY_VERIFY(!page.drawsRunning());
            QTRY_VERIFY(page.chart()->title().contains(QLatin1String("seed ") + digits));
        };
        typeSeed(QStringLiteral("7"));
        QVERIFY2(strip->text().contains(QLatin1String("now, mulberry32 seed 7:")) &&
                     strip->text().contains(QLatin1String("before, mulberry32 seed 42:")),
                 qPrintable(strip->text()));
        QVERIFY2(!strip->text().contains(QLatin1String("Identical")), qPrintable(strip->text()));
        typeSeed(QStringLiteral("123"));
        QVERIFY2(strip->text().contains(QLatin1String("now, mulberry32 seed 123:")) &&
                     strip->text().contains(QLatin1String("before, mulberry32 seed 7:")),
                 qPrintable(strip->text()));
        QVERIFY2(!strip->text().contains(QLatin1String("seed 12:")), qPrintable(strip->text()));
    }

    void drawStripMarksTheFirstDifference_data()
    {
        QTest::addColumn<QStringList>("now");
        QTest::addColumn<QString>("nowLabel");
        QTest::addColumn<QStringList>("before");
        QTest::addColumn<QString>("expected");
        const QStringList a{QStringLiteral("users"), QStringLiteral("data"), QStringLiteral("users")};
        const QStringList b{QStringLiteral("users"), QStringLiteral("data"), QStringLiteral("items")};
        QTest::newRow("same seed") << a << QStringLiteral("seed 42") << a
                                   << QStringLiteral("Identical: same seed, same answer.");
        QTest::newRow("other seed, same start")
            << a << QStringLiteral("seed 7") << a << QStringLiteral("The same first draws.");
        QTest::newRow("part at 3") << a << QStringLiteral("seed 7") << b << QStringLiteral("They part at draw 3.");
        QTest::newRow("first run") << a << QStringLiteral("seed 42") << QStringList() << QStringLiteral("now, seed 42");
    }
    void drawStripMarksTheFirstDifference()
    {
        QFETCH(QStringList, now);
        QFETCH(QString, nowLabel);
        QFETCH(QStringList, before);
        QFETCH(QString, expected);
        const QString html = ExplorerViews::drawStripHtml(now, nowLabel, before, QStringLiteral("seed 42"));
        QVERIFY2(html.contains(expected), qPrintable(html));
        QCOMPARE(html.count(QLatin1String("background")), expected.startsWith(QLatin1String("They part")) ? 2 : 0);
    }

    void saveAndOpenRoundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("state.json"));
        ExplorerPage page;
        page.applyPreset(1);
        page.temperatureBox()->setValue(0.7);
        QCOMPARE(page.saveExperiment(path), QString());
        page.applyPreset(0);
        QCOMPARE(page.openExperiment(path), QString());
        QVERIFY(loaded(page));
        QCOMPARE(page.model()->tokenName(0), QStringLiteral("=>"));
        QCOMPARE(page.temperatureBox()->value(), 0.7);
        QCOMPARE(page.model()->settings().topP, std::optional<double>(0.9));
        QCOMPARE(survivorsShown(*page.model()), 2);

        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "logitlab-explorer", "version": 1, "tokens": ["a"], "logits": ["x"]})");
        f.close();
        QCOMPARE(page.openExperiment(bad), QString());  // parsed on a worker: the error comes with the end of the load
        QVERIFY(loaded(page));
        QCOMPARE(page.errorLabel()->text(), QStringLiteral("bad.json: logits[0]: not a number"));
        QCOMPARE(page.model()->tokenName(0), QStringLiteral("=>"));  // nothing lost
    }

    // SVG parses as XML with the size, text and provenance; PDF is a complete PDF with embedded
    // fonts; the CSV's numbers are the engine's, digit for digit.
    void exportsParseAndMatchTheEngine()
    {
        QTemporaryDir dir;
        MainWindow window;
        auto* page = new ExplorerPage;
        window.addPage(page);
        window.show();
        // Exported once the window has laid out, as a user's click is: an export in the same event
        // loop pass as show() caught the chart's first layout half done.
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(300);

        const QString svg = dir.filePath(QStringLiteral("c.svg"));
        QCOMPARE(window.exportChartTo(svg), QString());
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&s);
        QStringList texts;
        QString desc;
        QString viewBox;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("svg"))
                viewBox = xml.attributes().value(QLatin1String("viewBox")).toString();
            else if (xml.isStartElement() && xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
            else if (xml.isStartElement() && xml.name() == QLatin1String("desc"))
                desc = xml.readElementText();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(viewBox, QStringLiteral("0 0 960 600"));
        QVERIFY(texts.contains(QStringLiteral("users")));
        QVERIFY2(texts.contains(QStringLiteral("cumulative 0.918 > 0.9 after 'items'")),
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(desc.contains(QLatin1String("settings: temperature=1,top-p=0.9")));
        QVERIFY(desc.contains(QLatin1String("chain: temperature 1")));

        const QString pdf = dir.filePath(QStringLiteral("c.pdf"));
        QCOMPARE(window.exportChartTo(pdf), QString());
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        const QByteArray bytes = p.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        QVERIFY(bytes.contains("/FontFile"));                          // fonts embedded
        QVERIFY(bytes.contains("settings: temperature=1,top-p=0.9"));  // provenance in the XMP

        const QString csv = dir.filePath(QStringLiteral("t.csv"));
        QCOMPARE(window.exportTableTo(csv), QString());
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(c.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QStringList rows;
        for (const QString& line : lines)
            if (!line.startsWith(QLatin1Char('#')))
                rows << line;
        // The columns `logitlab-cli run` writes for a saved Explorer state (app::explorerTokenTable).
        QCOMPARE(rows.first(), QStringLiteral("token_id,token,logit,p,survivor,p_renormalised,rank"));
        const auto d = engine::lessonExample();
        const Eigen::ArrayXd probs = engine::softmax(d.logits, 1.0);
        const auto survivors = engine::candidates(d.logits, engine::SamplerSettings{1.0, std::nullopt, 0.9});
        QCOMPARE(rows.size(), 6);
        for (int i = 0; i < 5; ++i) {
            const QStringList f = rows[i + 1].split(QLatin1Char(','));
            QCOMPARE(f[0], QString::number(i));
            QCOMPARE(f[1], QString::fromStdString(d.tokens[static_cast<std::size_t>(i)]));
            QCOMPARE(*engine::parseDouble(f[3].toStdString()), probs[i]);
            const double renormalised = i < 3 ? survivors[static_cast<std::size_t>(i)].p : 0.0;
            QCOMPARE(*engine::parseDouble(f[5].toStdString()), renormalised);
            QCOMPARE(f[4], i < 3 ? QStringLiteral("1") : QStringLiteral("0"));
        }
    }

    void modelsPassTheTesterThroughEverything()
    {
        ExplorerPage page;
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(page.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.tableView()->sortByColumn(LogitsTableModel::ProbabilityColumn, Qt::AscendingOrder);
        QCOMPARE(page.proxyModel()->data(page.proxyModel()->index(0, 0)).toString(), QStringLiteral("banana"));
        page.temperatureBox()->setValue(0.3);
        page.model()->setData(page.model()->index(4, LogitsTableModel::LogitColumn), QStringLiteral("9"));
        QCOMPARE(page.proxyModel()->data(page.proxyModel()->index(4, 0)).toString(), QStringLiteral("banana"));
        page.pasteText(QStringLiteral("a\t1\nb\t2\n"));
        QVERIFY(loaded(page));
        page.addToken();
        engine::SyntheticSpec spec;
        spec.size = 3000;
        page.generateVocabulary(spec);
        QVERIFY(loaded(page));
        page.temperatureBox()->setValue(2.0);
        page.undoStack()->undo();
        page.undoStack()->undo();
        page.applyPreset(2);
    }

    // The zoo's stages through the chain controls: min-p 0.3 keeps tokens with p >= 0.3 x 0.577,
    // i.e. users and data, under every preset; a stage a preset lacks is refused in place.
    void minPAndSemanticsThroughTheControls()
    {
        ExplorerPage page;
        page.show();
        ChainControls* controls = page.chainControls();
        controls->minPBox()->setValue(0.3);
        QCOMPARE(survivorsShown(*page.model()), 2);
        QCOMPARE(page.model()->survivors()[1].id, 1);
        // The label names the rule (the chain, in order) and the running total it stopped at.
        const QString cut = page.probabilityChart()->cutLabel();
        QVERIFY2(cut.startsWith(QLatin1String("lesson: ")) && cut.contains(QLatin1String("min-p=0.3")) &&
                     cut.contains(QLatin1String("keeps 2 of 5 (p kept 0.")) && cut.endsWith(QLatin1String("'data'")),
                 qPrintable(cut));
        QCOMPARE(page.probabilityChart()->cutLineX(), 1.5);
        QVERIFY(controls->chainText().contains(QLatin1String("min-p")));
        controls->semanticsBox()->setCurrentText(QStringLiteral("llama.cpp"));
        QCOMPARE(page.model()->chain().semantics, engine::Semantics::LlamaCpp);
        QCOMPARE(survivorsShown(*page.model()), 2);
        QVERIFY(controls->chainText().startsWith(QLatin1String("llama.cpp: ")));

        // vllm has no typical stage: said next to the controls, the model keeps the last good chain.
        controls->semanticsBox()->setCurrentText(QStringLiteral("vllm"));
        controls->typicalBox()->setValue(0.5);
        QVERIFY(controls->problemLabel()->isVisible());
        QVERIFY2(controls->problemLabel()->text().contains(QLatin1String("typical")),
                 qPrintable(controls->problemLabel()->text()));
        QCOMPARE(page.model()->chain().semantics, engine::Semantics::Vllm);
        QVERIFY(!page.model()->chain().stages.typical);
        QCOMPARE(survivorsShown(*page.model()), 2);
        controls->typicalBox()->setValue(0.0);
        QVERIFY(!controls->problemLabel()->isVisible());

        // Undo walks back through vllm, llama.cpp and min-p to the lesson's 3 survivors.
        page.undoStack()->undo();
        page.undoStack()->undo();
        QCOMPARE(controls->semanticsBox()->currentText(), QStringLiteral("lesson"));
        page.undoStack()->undo();
        QCOMPARE(controls->minPBox()->value(), 0.0);
        QCOMPARE(survivorsShown(*page.model()), 3);
    }

    void compareShowsTheFourPresets()
    {
        ExplorerPage page;
        page.show();
        page.showChart(ExplorerPage::CompareTab);
        CompareChart* compare = page.compareChart();
        QTRY_VERIFY(!page.compareRunning());  // four chains over the vocabulary run on a worker
        QCOMPARE(compare->survivorCounts(), (QList<int>{3, 3, 3, 3}));  // top-p 0.9 at T = 1: all agree
        QVERIFY(compare->disagreements().isEmpty());
        QCOMPARE(page.chart(), compare->chart());
        page.chainControls()->typicalBox()->setValue(0.5);  // fine for the lesson, missing in vllm
        QTRY_VERIFY(!page.compareRunning());
        QCOMPARE(compare->survivorCounts().last(), -1);
        QVERIFY(compare->chart()->title().startsWith(QLatin1String("Same logits under four presets")));
    }

    void stateFileKeepsTheChain()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chain.json"));
        ExplorerPage page;
        page.chainControls()->semanticsBox()->setCurrentText(QStringLiteral("hf"));
        page.chainControls()->minPBox()->setValue(0.3);
        QCOMPARE(page.saveExperiment(path), QString());
        page.applyPreset(0);
        QCOMPARE(page.model()->chain().semantics, engine::Semantics::Lesson);
        QCOMPARE(page.openExperiment(path), QString());
        QVERIFY(loaded(page));
        QCOMPARE(page.model()->chain().semantics, engine::Semantics::Hf);
        QCOMPARE(page.model()->chain().stages.minP, std::optional<double>(0.3));
        QCOMPARE(page.chainControls()->semanticsBox()->currentText(), QStringLiteral("hf"));
    }

    void junkRiskButtonOffersTheTable()
    {
        ExplorerPage page;
        page.applyPreset(1);
        QSignalSpy offered(&page, &Page::distributionOffered);
        page.findChild<QPushButton*>(QStringLiteral("junkRiskButton"))->click();
        QCOMPARE(offered.count(), 1);
        QCOMPARE(offered.first().at(0).toString(), QStringLiteral("junk-risk"));
        const auto d = offered.first().at(1).value<HandOff>().distribution;
        QCOMPARE(d.tokens.front(), std::string("=>"));
        QVERIFY((d.logits == engine::lessonExercise().logits).all());
    }
};

QTEST_MAIN(TestExplorerPage)
#include "tst_explorer_page.moc"
