// The Explorer's chain controls offscreen: reordering the chain by drag (the same move the list's
// drop makes) changes the cut as the engine says and is one undo step; the further stages (XTC,
// penalties with a context typed by name, logit bias) reach the table; bad token text is refused
// next to the controls and loses nothing; draws follow the preset's rule; the state file keeps
// the order, the context and the bias; every setting of the one parameter table has its box,
// laid out as the table says, and comes back from the controls as it was set.
#include "support/example_files.h"
#include "support/sampler_parameter_values.h"
#include "ui/forms/chain_controls.h"
#include "ui/forms/chain_order_list.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"

#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

int survivors(const ExplorerPage& page) { return static_cast<int>(page.model()->survivors().size()); }

int rowOf(const ChainOrderList& list, const QString& stage)
{
    for (int i = 0; i < list.count(); ++i)
        if (list.item(i)->text() == stage)
            return i;
    return -1;
}

void typeInto(QLineEdit* edit, const QString& text)
{
    edit->setText(text);
    emit edit->editingFinished();
}

}  // namespace

class TestExplorerChainControls : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // T = 0.5, top-p 0.9 keeps 2 (the lesson); top-p dragged above the temperature cuts at
    // T = 1 and keeps 3. Undo puts the preset's order back; so does the Preset order button.
    void draggingTopPAboveTheTemperatureChangesTheCut()
    {
        ExplorerPage page;
        page.temperatureBox()->setValue(0.5);
        QCOMPARE(survivors(page), 2);
        ChainOrderList* list = page.chainControls()->orderList();
        QVERIFY(!page.chainControls()->presetOrderButton()->isEnabled());
        const int topP = rowOf(*list, QStringLiteral("top-p"));
        const int temperature = rowOf(*list, QStringLiteral("temperature"));
        QVERIFY(topP > temperature && temperature >= 0);
        for (int row = topP; row > temperature; --row)
            QVERIFY(list->moveStage(row, -1));
        QCOMPARE(rowOf(*list, QStringLiteral("top-p")), temperature);
        QCOMPARE(survivors(page), 3);
        QVERIFY(!page.model()->chain().stages.order.empty());
        QVERIFY(page.chainControls()->presetOrderButton()->isEnabled());
        QVERIFY(page.chainControls()->chainText().contains(QStringLiteral("top-p=0.9 → temperature=0.5")));

        page.undoStack()->undo();  // the whole drag is undone one move at a time: undo them all
        while (!page.model()->chain().stages.order.empty() && page.undoStack()->canUndo())
            page.undoStack()->undo();
        QCOMPARE(survivors(page), 2);
        QCOMPARE(rowOf(*list, QStringLiteral("top-p")), topP);
        page.undoStack()->redo();
        QVERIFY(!page.model()->chain().stages.order.empty());

        while (page.undoStack()->canRedo())
            page.undoStack()->redo();
        QCOMPARE(survivors(page), 3);
        page.chainControls()->presetOrderButton()->click();
        QVERIFY(page.model()->chain().stages.order.empty());
        QCOMPARE(survivors(page), 2);
    }

    void keyboardMovesTheSelectedStage()
    {
        ExplorerPage page;
        ChainOrderList* list = page.chainControls()->orderList();
        const int topK = rowOf(*list, QStringLiteral("top-k"));
        list->setCurrentRow(topK);
        QTest::keyClick(list, Qt::Key_Up, Qt::ControlModifier);
        QCOMPARE(rowOf(*list, QStringLiteral("top-k")), topK - 1);
        QCOMPARE(page.model()->chain().stages.order, list->order());
    }

    // A new preset has other stages: the user's order is dropped, not carried over.
    void changingThePresetResetsTheOrder()
    {
        ExplorerPage page;
        ChainOrderList* list = page.chainControls()->orderList();
        QVERIFY(list->moveStage(rowOf(*list, QStringLiteral("top-p")), -1));
        QVERIFY(!page.model()->chain().stages.order.empty());
        page.chainControls()->semanticsBox()->setCurrentText(QStringLiteral("vllm"));
        QVERIFY(page.model()->chain().stages.order.empty());
        QCOMPARE(list->count(), 6);
        QCOMPARE(list->item(0)->text(), QStringLiteral("logit-bias"));
    }

    // The lesson's example under llama.cpp with XTC always on at threshold 0.1: users, data and
    // items are all >= 0.1, so XTC removes users and data and keeps items onwards.
    void xtcReachesTheTable()
    {
        ExplorerPage page;
        ChainControls* controls = page.chainControls();
        controls->semanticsBox()->setCurrentText(QStringLiteral("llama.cpp"));
        page.topPBox()->setValue(0.0);
        const int before = survivors(page);
        controls->stageBox("xtc-probability")->setValue(1.0);
        QVERIFY(survivors(page) < before);
        QCOMPARE(page.model()->survivors().front().id, 2);  // items
        QVERIFY(controls->chainText().contains(QLatin1String("xtc")));
        // At random (0.5) the chart shows the step where it fires, and says so.
        controls->stageBox("xtc-probability")->setValue(0.5);
        QCOMPARE(page.model()->survivors().front().id, 2);
        QVERIFY(controls->chainText().contains(QLatin1String("shown firing")));
    }

    void penaltiesReadTheContextByName()
    {
        ExplorerPage page;
        ChainControls* controls = page.chainControls();
        controls->semanticsBox()->setCurrentText(QStringLiteral("llama.cpp"));
        controls->stageBox("repeat-penalty")->setValue(3.0);
        QCOMPARE(page.model()->survivors().front().id, 0);  // users, with nothing before it
        typeInto(controls->contextEdit(), QStringLiteral("users, users"));
        QCOMPARE(page.model()->chain().context, (std::vector<std::int32_t>{0, 0}));
        QCOMPARE(page.model()->survivors().front().id, 1);  // users' logit 3 / 3 falls below data's 2
        QCOMPARE(controls->contextEdit()->text(), QStringLiteral("users users"));

        // A token the table does not have: refused next to the field, the chain unchanged.
        const int steps = page.undoStack()->count();
        typeInto(controls->contextEdit(), QStringLiteral("users spam"));
        QVERIFY(controls->problemLabel()->isVisibleTo(controls));
        QVERIFY(controls->problemLabel()->text().contains(QLatin1String("context: item 2 'spam'")));
        QCOMPARE(page.model()->chain().context, (std::vector<std::int32_t>{0, 0}));
        QCOMPARE(page.undoStack()->count(), steps);

        page.undoStack()->undo();  // the context edit
        QVERIFY(page.model()->chain().context.empty());
        QCOMPARE(controls->contextEdit()->text(), QString());
    }

    void logitBiasBansAToken()
    {
        ExplorerPage page;
        page.chainControls()->semanticsBox()->setCurrentText(QStringLiteral("llama.cpp"));
        page.topPBox()->setValue(0.0);
        QCOMPARE(survivors(page), 5);
        typeInto(page.chainControls()->logitBiasEdit(), QStringLiteral("users:-inf"));
        QCOMPARE(page.model()->chain().stages.logitBias, std::string("0@-inf"));
        QCOMPARE(survivors(page), 4);
        QCOMPARE(page.model()->survivors().front().id, 1);
        typeInto(page.chainControls()->logitBiasEdit(), QStringLiteral("users:+inf"));
        QVERIFY(page.chainControls()->problemLabel()->text().contains(QLatin1String("number or -inf")));
        QCOMPARE(survivors(page), 4);
    }

    // A bias placed after a sorting stage is where llama.cpp itself diverges (a stale "sorted"
    // flag): the Explorer says so under the chain, as `candidates --compare` does.
    void biasAfterASortIsWarned()
    {
        ExplorerPage page;
        engine::ExplorerChain chain = page.model()->chain();
        chain.semantics = engine::Semantics::LlamaCpp;
        chain.lesson = {1.0, 2, std::nullopt};
        chain.stages.logitBias = "4@-1";
        page.chainControls()->setChain(chain);
        QVERIFY(!page.chainControls()->orderLabel()->text().contains(QChar(0x26a0)));  // the preset's order: bias first
        std::vector<std::string> order = engine::presetOrder(engine::Semantics::LlamaCpp);
        std::erase(order, std::string("logit-bias"));
        const auto topK = std::find(order.begin(), order.end(), std::string("top-k"));
        order.insert(topK + 1, "logit-bias");
        chain.stages.order = order;
        page.chainControls()->setChain(chain);
        QVERIFY2(page.chainControls()->orderLabel()->text().contains(QChar(0x26a0)),
                 qPrintable(page.chainControls()->orderLabel()->text()));
    }

    void settingsAPresetLacksAreDimmed()
    {
        ExplorerPage page;
        ChainControls* controls = page.chainControls();
        const auto labelOf = [controls](const char* name) {
            for (QLabel* label : controls->findChildren<QLabel*>())
                if (label->buddy() == controls->stageBox(name))
                    return label;
            return static_cast<QLabel*>(nullptr);
        };
        QVERIFY(labelOf("epsilon")->isEnabled());  // the lesson has every stage
        controls->semanticsBox()->setCurrentText(QStringLiteral("llama.cpp"));
        QVERIFY(!labelOf("epsilon")->isEnabled());
        QVERIFY(labelOf("xtc-probability")->isEnabled());
        controls->semanticsBox()->setCurrentText(QStringLiteral("hf"));
        QVERIFY(labelOf("epsilon")->isEnabled());
        QVERIFY(!labelOf("xtc-probability")->isEnabled());
        QVERIFY(controls->stageBox("xtc-probability")->isEnabled());  // so a value can still be cleared
    }

    // The controls are derived from engine::samplerParameters(): each setting's box has the
    // table's range, decimals and step, and a chain with the setting comes back unchanged.
    void everyParameterHasItsControl_data() { test::addParameterRows(); }
    void everyParameterHasItsControl()
    {
        const engine::SamplerParameter& p = test::currentParameter();
        ChainControls controls;
        if (p.field && p.group != engine::ParameterGroup::Lesson) {
            QDoubleSpinBox* box = controls.stageBox(p.name);
            QVERIFY(box);
            QCOMPARE(box->maximum(), p.maximum);
            QCOMPARE(box->minimum(), std::min(p.minimum, engine::notSetValue(p)));
            QCOMPARE(box->decimals(), p.decimals);
            QCOMPARE(box->singleStep(), p.step);
            QCOMPARE(box->value(), engine::notSetValue(p));
        }
        const engine::ExplorerChain chain = test::explorerChainWith(p);
        controls.setTokenNames(
            std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"a", "b", "c"}));
        controls.setChain(chain);
        QVERIFY(controls.chain() == chain);
    }

    void drawsUseThePresetsRule()
    {
        ExplorerPage page;
        page.chainControls()->semanticsBox()->setCurrentText(QStringLiteral("vllm"));
        page.showChart(ExplorerPage::DrawsTab);
        QTRY_VERIFY(!page.drawsRunning());
        QTRY_COMPARE(page.lastDraws().draws, std::uint64_t{1000});
        QVERIFY(page.chart()->title().contains(QLatin1String("vllm draw rule")));
        std::uint64_t total = 0;
        for (auto c : page.lastDraws().counts)
            total += c;
        QCOMPARE(total, std::uint64_t{1000});
        // vLLM's exponential race is not the lesson's walk: the same seed gives other counts.
        QVERIFY(page.lastDraws().counts != (std::vector<std::uint64_t>{577, 212, 129}));
    }

    void stateFileKeepsOrderContextAndBias()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chain.json"));
        ExplorerPage page;
        ChainControls* controls = page.chainControls();
        controls->semanticsBox()->setCurrentText(QStringLiteral("llama.cpp"));
        controls->stageBox("presence-penalty")->setValue(0.5);
        controls->stageBox("xtc-probability")->setValue(0.25);
        typeInto(controls->contextEdit(), QStringLiteral("data #4"));
        typeInto(controls->logitBiasEdit(), QStringLiteral("banana:2.5"));
        QVERIFY(controls->orderList()->moveStage(controls->orderList()->count() - 1, -3));
        const engine::ExplorerChain saved = page.model()->chain();
        QVERIFY(!saved.stages.order.empty());
        QCOMPARE(page.saveExperiment(path), QString());
        page.applyPreset(0);
        QVERIFY(page.model()->chain() != saved);
        QCOMPARE(page.openExperiment(path), QString());
        QTRY_VERIFY(!page.loading());  // the table is read in the background
        QVERIFY(page.model()->chain() == saved);
        QCOMPARE(controls->contextEdit()->text(), QStringLiteral("data banana"));
        QCOMPARE(controls->logitBiasEdit()->text(), QStringLiteral("banana:2.5"));
        QCOMPARE(controls->orderList()->order(), saved.stages.order);
    }

    // The example file: llama.cpp with penalties on a context, a banned token, XTC at 0.5 and
    // the temperature moved before top-k.
    void exampleStateFileOpens()
    {
        ExplorerPage page;
        QCOMPARE(page.openExperiment(test::examplePath(QStringLiteral("explorer-llama-xtc.json"))), QString());
        QTRY_VERIFY(!page.loading());
        const auto& chain = page.model()->chain();
        QCOMPARE(chain.semantics, engine::Semantics::LlamaCpp);
        QCOMPARE(chain.context, (std::vector<std::int32_t>{0, 0, 1}));
        QCOMPARE(chain.stages.xtcProbability, std::optional<double>(0.5));
        QCOMPARE(page.chainControls()->orderList()->item(4)->text(), QStringLiteral("temperature"));
        QVERIFY(page.chainControls()->chainText().contains(QLatin1String("shown firing")));
        QVERIFY(!page.model()->survivors().empty());
    }
};

QTEST_MAIN(TestExplorerChainControls)
#include "tst_explorer_chain_controls.moc"
