// New tables without blocking the UI thread: the prepared distribution (orders built once,
// one edited cell moved in O(V)), the sort proxy that reads those orders instead of comparing
// QVariants, and the Explorer's background loads: a generated vocabulary arrives whole and in
// order, undo and redo swap the shared tables, a newer load drops an older one, cancel keeps
// the table, a chain changed while loading is honoured, and errors read as before.
#include "charts/probability_chart.h"
#include "engine/models/synthetic_vocabulary.h"
#include "engine/sampler/candidates.h"
#include "engine/sampler/candidates_from_order.h"
#include "engine/sampler/prepared_distribution.h"
#include "support/test_support.h"
#include "ui/forms/chain_controls.h"
#include "ui/models/logits_sort_proxy.h"
#include "ui/models/logits_table_model.h"
#include "ui/pages/explorer_page.h"

#include <QAbstractItemModelTester>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QThreadPool>
#include <QUndoStack>

#include <cmath>
#include <limits>
#include <random>

using namespace logitlab;
using namespace logitlab::ui;

namespace {

void compareWithFreshPreparation(const engine::PreparedDistribution& p)
{
    const auto fresh = engine::prepareDistribution(p.distribution);
    QCOMPARE(p.byLogit, fresh.byLogit);
    QCOMPARE(p.byToken, fresh.byToken);
    QCOMPARE(p.rank, fresh.rank);
    QCOMPARE(p.problem, fresh.problem);
}

// Source rows in the order `proxy` shows them.
template <class Proxy>
std::vector<int> shownIds(const Proxy& proxy)
{
    std::vector<int> ids;
    for (int row = 0; row < proxy.rowCount(); ++row)
        ids.push_back(proxy.mapToSource(proxy.index(row, 0)).row());
    return ids;
}

// A model with `n` distinct, unrounded logits and distinct names in shuffled order.
void fillDistinct(LogitsTableModel& model, int n, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 2.0);
    engine::Distribution d;
    d.logits.resize(n);
    std::vector<int> names(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        d.logits[i] = normal(rng);
        names[static_cast<std::size_t>(i)] = i;
    }
    std::shuffle(names.begin(), names.end(), rng);
    for (int name : names)
        d.tokens.push_back("w" + std::to_string(name));
    model.setDistribution(d);
}

ExplorerPage* shownPage(QWidget& window)
{
    auto* page = new ExplorerPage(&window);
    window.resize(1200, 800);
    window.show();
    return page;
}

// Lets every worker finish and every queued result arrive, so a dropped result would have
// had its chance to land.
void drainWorkers()
{
    QThreadPool::globalInstance()->waitForDone();
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
}

}  // namespace

class TestExplorerLoad : public QObject {
    Q_OBJECT
private slots:
    void preparationNamesOrdersAndRanks()
    {
        engine::Distribution d;
        d.tokens = {"b", "a", "c", "a"};
        d.logits = test::array({1.0, 3.0, 3.0, -std::numeric_limits<double>::infinity()});
        const auto p = engine::prepareDistribution(d);
        QCOMPARE(p.byLogit, (std::vector<std::int32_t>{1, 2, 0, 3}));  // equal logits: lower id first
        QCOMPARE(p.byToken, (std::vector<std::int32_t>{1, 3, 0, 2}));  // equal names: lower id first
        QCOMPARE(p.rank, (std::vector<int>{3, 1, 2, 4}));
        QVERIFY(!p.problem);

        engine::Distribution unnamed;
        unnamed.logits = test::array({0.5, std::nan("")});
        const auto q = engine::prepareDistribution(unnamed);
        QCOMPARE(q.distribution.tokens, (std::vector<std::string>{"0", "1"}));
        QVERIFY(q.problem);
        QVERIFY(q.problem->find("NaN") != std::string::npos);
    }

    // Random cell edits with many ties: the O(V) update equals sorting again, and the table
    // it was made from is untouched (undo steps still hold it).
    void editsMatchAFreshPreparation()
    {
        std::mt19937_64 rng(11);
        std::uniform_int_distribution<int> small(-4, 4);
        engine::Distribution d;
        d.logits.resize(120);
        for (Eigen::Index i = 0; i < d.logits.size(); ++i) {
            d.logits[i] = small(rng);
            d.tokens.push_back(std::string(1, static_cast<char>('a' + (small(rng) + 4) % 6)));
        }
        auto p = engine::prepareDistribution(d);
        std::uniform_int_distribution<std::int32_t> id(0, 119);
        for (int step = 0; step < 300; ++step) {
            const engine::PreparedDistribution before = p;
            const std::int32_t at = id(rng);
            if (step % 3 == 0)
                p = engine::withTokenName(p, at, std::string(1, static_cast<char>('a' + (small(rng) + 4) % 6)));
            else
                p = engine::withLogit(p, at,
                                      step % 17 == 0 ? -std::numeric_limits<double>::infinity() : small(rng) * 0.5);
            compareWithFreshPreparation(p);
            if (QTest::currentTestFailed())
                return;
            const engine::PreparedDistribution again = before;
            QCOMPARE(again.byLogit, before.byLogit);
        }
    }

    // Token, logit, p and rank have no ties here: the proxy's order is QSortFilterProxyModel's.
    void sortsLikeQSortFilterProxyModel()
    {
        LogitsTableModel model;
        fillDistinct(model, 400, 5);
        model.setSettings(engine::SamplerSettings{0.8, std::nullopt, std::nullopt});
        LogitsSortProxy proxy(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSortFilterProxyModel reference;
        reference.setSourceModel(&model);
        reference.setSortRole(Qt::EditRole);
        for (int column : {int(LogitsTableModel::TokenColumn), int(LogitsTableModel::LogitColumn),
                           int(LogitsTableModel::ProbabilityColumn), int(LogitsTableModel::RankColumn)})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                proxy.sort(column, order);
                reference.sort(column, order);
                QVERIFY2(shownIds(proxy) == shownIds(reference), qPrintable(QStringLiteral("column %1").arg(column)));
                QCOMPARE(proxy.sortColumn(), column);
            }
        proxy.sort(-1);
        std::vector<int> ids(400);
        std::iota(ids.begin(), ids.end(), 0);
        QCOMPARE(shownIds(proxy), ids);
        QCOMPARE(proxy.headerData(7, Qt::Vertical).toInt(), 7);
    }

    // The survivors first, each column descending; then the cut tokens; the vertical header names the id.
    void survivorColumnsPutTheSurvivorsFirst()
    {
        LogitsTableModel model;
        fillDistinct(model, 300, 6);
        model.setSettings(engine::SamplerSettings{1.0, std::nullopt, 0.5});
        LogitsSortProxy proxy(&model);
        const auto kept = model.survivors().size();
        QVERIFY(kept > 1 && kept < 300);
        for (int column : {int(LogitsTableModel::SurvivorColumn), int(LogitsTableModel::RenormalisedColumn)}) {
            proxy.sort(column, Qt::DescendingOrder);
            for (std::size_t row = 0; row < kept; ++row)
                QCOMPARE(proxy.mapToSource(proxy.index(static_cast<int>(row), 0)).row(), model.survivors()[row].id);
            QCOMPARE(proxy.data(proxy.index(static_cast<int>(kept), LogitsTableModel::SurvivorColumn)).toString(),
                     QStringLiteral("cut"));
            const int first = model.survivors().front().id;
            QCOMPARE(proxy.headerData(0, Qt::Vertical).toInt(), first);
        }
    }

    // The proxy re-sorts when the sorted column changes: an edited logit, a renamed token, a
    // new temperature, a new table; the selection follows its rows.
    void staysSortedThroughChanges()
    {
        LogitsTableModel model;
        fillDistinct(model, 200, 7);
        LogitsSortProxy proxy(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(LogitsTableModel::LogitColumn, Qt::DescendingOrder);
        const QPersistentModelIndex followed = proxy.index(150, 0);
        const int followedId = proxy.mapToSource(followed).row();
        QVERIFY(model.setData(model.index(42, LogitsTableModel::LogitColumn), QStringLiteral("100")));
        QCOMPARE(proxy.mapToSource(proxy.index(0, 0)).row(), 42);
        QCOMPARE(proxy.mapToSource(followed).row(), followedId);

        proxy.sort(LogitsTableModel::TokenColumn, Qt::AscendingOrder);
        QVERIFY(model.setData(model.index(9, LogitsTableModel::TokenColumn), QStringLiteral("!first")));
        QCOMPARE(proxy.data(proxy.index(0, 0)).toString(), QStringLiteral("!first"));

        proxy.sort(LogitsTableModel::ProbabilityColumn, Qt::AscendingOrder);
        model.setSettings(engine::SamplerSettings{0.3, std::nullopt, 0.9});
        double previous = -1.0;
        for (int row = 0; row < proxy.rowCount(); ++row) {
            const double p = proxy.data(proxy.index(row, LogitsTableModel::ProbabilityColumn), Qt::EditRole).toDouble();
            QVERIFY(p >= previous);
            previous = p;
        }
        fillDistinct(model, 50, 8);  // a reset keeps the sort
        QCOMPARE(proxy.rowCount(), 50);
        QCOMPARE(proxy.mapToSource(proxy.index(49, 0)).row(), model.idsByLogit().front());
    }

    void generatedVocabularyArrivesWholeAndInOrder()
    {
        QWidget window;
        ExplorerPage* page = shownPage(window);
        QSignalSpy finished(page, &ExplorerPage::loadFinished);
        QSignalSpy busy(page, &Page::busyChanged);
        QPushButton* generate = page->findChild<QPushButton*>(QStringLiteral("generateButton"));
        QVERIFY(generate);
        const int steps = page->undoStack()->count();
        engine::SyntheticSpec spec;
        spec.size = 100'000;
        spec.seed = 3;
        page->generateVocabulary(spec);
        QVERIFY(page->loading());
        QCOMPARE(page->model()->rowCount(), 5);  // the table changes when the load is in, not before
        QVERIFY(!generate->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        QVERIFY(!page->loading());
        QVERIFY(generate->isEnabled());
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);

        const auto expected = engine::syntheticVocabulary(spec);
        const LogitsTableModel& model = *page->model();
        QCOMPARE(model.rowCount(), spec.size);
        QVERIFY((model.distribution().logits == expected.logits).all());
        QCOMPARE(model.distribution().tokens, expected.tokens);
        QCOMPARE(model.idsByLogit(), engine::idsByDescendingLogit(expected.logits));
        QCOMPARE(model.data(model.index(model.idsByLogit()[9], LogitsTableModel::RankColumn)).toInt(), 10);
        QCOMPARE(model.survivors(), engine::candidates(expected.logits, model.settings()));
        QCOMPARE(page->probabilityChart()->categories().last(), QStringLiteral("rest (99,980)"));
        QCOMPARE(page->undoStack()->count(), steps + 1);
        QCOMPARE(page->undoStack()->undoText(), QStringLiteral("Generate 100000 tokens"));
        QVERIFY(!page->errorLabel()->isVisible());
    }

    // Undo and redo of a load hand the model the very tables the step holds: no copy.
    void undoAndRedoSwapTheSharedTables()
    {
        QWidget window;
        ExplorerPage* page = shownPage(window);
        const auto lesson = page->model()->table();
        engine::SyntheticSpec spec;
        spec.size = engine::kMaxVocabularySize;
        page->generateVocabulary(spec);
        QTRY_VERIFY_WITH_TIMEOUT(!page->loading(), 30'000);
        const auto generated = page->model()->table();
        QCOMPARE(page->model()->rowCount(), engine::kMaxVocabularySize);
        QVERIFY(generated != lesson);

        page->undoStack()->undo();
        QCOMPARE(page->model()->table(), lesson);
        QCOMPARE(page->model()->rowCount(), 5);
        QCOMPARE(page->model()->tokenName(0), QStringLiteral("users"));
        QCOMPARE(page->probabilityChart()->categories().size(), 5);
        page->undoStack()->redo();
        QCOMPARE(page->model()->table(), generated);
        QCOMPARE(page->model()->rowCount(), engine::kMaxVocabularySize);
        QCOMPARE(page->model()->survivors(),
                 engine::candidates(generated->distribution.logits, page->model()->settings()));
        QCOMPARE(page->probabilityChart()->categories().size(), ProbabilityChart::kTopBars + 1);

        // An edit after the load changes a copy: the step's table stays as it was loaded.
        QVERIFY(page->model()->setData(page->model()->index(0, LogitsTableModel::LogitColumn), QStringLiteral("50")));
        QCOMPARE(page->model()->idsByLogit().front(), 0);
        QVERIFY(generated->distribution.logits[0] != 50.0);
        page->undoStack()->undo();
        QCOMPARE(page->model()->distribution().logits[0], generated->distribution.logits[0]);
        QTRY_VERIFY_WITH_TIMEOUT(!page->sweepRunning(), 60'000);  // 60 temperatures x 262,144 tokens: slow under ASan
    }

    void aNewerLoadDropsTheOlder()
    {
        QWidget window;
        ExplorerPage* page = shownPage(window);
        QSignalSpy finished(page, &ExplorerPage::loadFinished);
        const int steps = page->undoStack()->count();
        engine::SyntheticSpec big;
        big.size = 200'000;
        page->generateVocabulary(big);  // slower than the paste below: it would land last
        page->pasteText(QStringLiteral("x\t1\ny\t2\n"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        drainWorkers();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(page->model()->rowCount(), 2);
        QCOMPARE(page->model()->tokenName(1), QStringLiteral("y"));
        QCOMPARE(page->undoStack()->count(), steps + 1);

        // Two generates: the second one's vocabulary, once.
        engine::SyntheticSpec first;
        first.size = 150'000;
        engine::SyntheticSpec second;
        second.size = 3000;
        page->generateVocabulary(first);
        page->generateVocabulary(second);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30'000);
        drainWorkers();
        QCOMPARE(finished.count(), 2);
        QCOMPARE(page->model()->rowCount(), 3000);
        QCOMPARE(page->undoStack()->count(), steps + 2);

        // A preset clicked while a Generate runs wins: the load is dropped, not landed on top.
        page->generateVocabulary(first);
        page->applyPreset(1);
        QCOMPARE(finished.count(), 3);
        QVERIFY(!page->loading());
        drainWorkers();
        QCOMPARE(page->model()->rowCount(), 5);
        QCOMPARE(page->model()->tokenName(0), QStringLiteral("=>"));
        QCOMPARE(page->undoStack()->count(), steps + 3);
    }

    void cancelKeepsTheTable()
    {
        QWidget window;
        ExplorerPage* page = shownPage(window);
        QSignalSpy finished(page, &ExplorerPage::loadFinished);
        QSignalSpy busy(page, &Page::busyChanged);
        const int steps = page->undoStack()->count();
        engine::SyntheticSpec spec;
        spec.size = engine::kMaxVocabularySize;
        page->generateVocabulary(spec);
        page->cancel();
        QVERIFY(!page->loading());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(busy.count(), 2);
        QCOMPARE(busy.last().at(0).toBool(), false);
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("generateButton"))->isEnabled());
        drainWorkers();
        QCOMPARE(finished.count(), 1);
        QCOMPARE(page->model()->rowCount(), 5);
        QCOMPARE(page->model()->tokenName(0), QStringLiteral("users"));
        QCOMPARE(page->undoStack()->count(), steps);
        page->cancel();  // nothing in flight: nothing to report
        QCOMPARE(finished.count(), 1);
    }

    // The worker analyses under the chain of the moment it started; a change made while it
    // runs wins.
    void aChainChangedWhileLoadingIsHonoured()
    {
        QWidget window;
        ExplorerPage* page = shownPage(window);
        engine::SyntheticSpec spec;
        spec.size = 50'000;
        page->generateVocabulary(spec);
        page->temperatureBox()->setValue(0.5);
        QTRY_VERIFY_WITH_TIMEOUT(!page->loading(), 30'000);
        QCOMPARE(page->model()->settings().temperature, 0.5);
        QCOMPARE(page->model()->survivors(),
                 engine::candidates(page->model()->distribution().logits, page->model()->settings()));
    }

    void errorsReadAsBefore()
    {
        QWidget window;
        ExplorerPage* page = shownPage(window);
        QSignalSpy finished(page, &ExplorerPage::loadFinished);
        const int steps = page->undoStack()->count();
        engine::SyntheticSpec tiny;
        tiny.size = 1;
        page->generateVocabulary(tiny);  // refused before loading
        QVERIFY(!page->loading());
        QCOMPARE(page->errorLabel()->text(), QStringLiteral("vocabulary size: must be between 2 and 262144, got 1"));

        page->pasteText(QString());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30'000);
        QCOMPARE(page->errorLabel()->text(), QStringLiteral("Paste: the clipboard holds no token/logit rows."));
        page->pasteText(QStringLiteral("a\t-inf\nb\t-inf\n"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30'000);
        QCOMPARE(page->errorLabel()->text(),
                 QStringLiteral("Paste: logits: every logit is -inf, so no token has any probability."));
        QVERIFY(page->errorLabel()->isVisible());
        QCOMPARE(page->model()->rowCount(), 5);
        QCOMPARE(page->undoStack()->count(), steps);
    }
};

QTEST_MAIN(TestExplorerLoad)
#include "tst_explorer_load.moc"
