#include "ui/pages/seed_sweep_page.h"

#include "app/kinds/seed_sweep_job.h"
#include "app/kinds/sequence_sweep_job.h"
#include "app/kinds/step_sweep_job.h"
#include "ui/forms/seed_sweep_form.h"
#include "ui/pages/results_pane.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace logitlab::ui {

SeedSweepPage::SeedSweepPage(QWidget* parent)
    : KindPage(app::seedSweepKind(), new SeedSweepForm, parent), m_form(static_cast<SeedSweepForm*>(form())),
      m_replays(new app::RunController<QString>(app::RunControllerBase::Mode::Supersede, this)),
      m_drawStatistics(new QWidget), m_plainWords(new QLabel), m_verdict(new QLabel), m_findings(new QLabel),
      m_replayBox(new QGroupBox(tr("Replay a seed"))), m_replaySeed(new QSpinBox),
      m_replay(new QPushButton(tr("Re&play"))), m_replayResult(new QLabel)
{
    addRuns(m_replays);
    for (QLabel* label : {m_plainWords, m_verdict, m_findings}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::RichText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_findings->setObjectName(QStringLiteral("findings"));
    m_plainWords->setToolTip(tr("What the statistics below say, in words. The verdict is the KS test of the per-seed "
                                "chi-square p-values: a correct sampler gives p-values spread evenly over 0..1."));
    // Each statistic with its meaning one hover away (on its name and on its value).
    auto* statistics = new QFormLayout;
    const auto addStatistic = [&](const QString& key, const QString& name, const QString& meaning) {
        auto* label = new QLabel(name);
        auto* value = new QLabel(QStringLiteral("–"));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        label->setToolTip(meaning);
        value->setToolTip(meaning);
        statistics->addRow(label, value);
        m_statistics.insert(key, value);
    };
    addStatistic(QStringLiteral("ks"), tr("KS of the p-values"),
                 tr("Kolmogorov-Smirnov test of the per-seed chi-square p-values against a uniform spread. D is the "
                    "largest gap between their spread and an even one; p is the chance of a gap this large if the "
                    "sampler is right. p below 0.01: the counts vary by seed more than chance predicts."));
    addStatistic(QStringLiteral("g-ks"), tr("KS of the G-test p-values"),
                 tr("The same check with the G-test (likelihood ratio) in place of chi-square: a second opinion "
                    "that weighs rare tokens differently."));
    addStatistic(QStringLiteral("pooled"), tr("Pooled chi-square"),
                 tr("All seeds' draws added up and compared with the claimed probabilities in one test: with many "
                    "draws it sees even a small bias. Not valid when the tokens expect fewer than 5 draws each."));
    addStatistic(QStringLiteral("bins"), tr("Bins after pooling"),
                 tr("Chi-square needs about 5 expected draws per bin: tokens expecting fewer are pooled into one "
                    "bin before each seed's test. The number of bins each per-seed test uses."));
    auto* drawStatistics = new QVBoxLayout(m_drawStatistics);
    drawStatistics->setContentsMargins(0, 0, 0, 0);
    drawStatistics->addWidget(m_plainWords);
    drawStatistics->addWidget(m_verdict);
    drawStatistics->addLayout(statistics);
    auto* words = new QWidget;
    auto* wordsLayout = new QVBoxLayout(words);
    wordsLayout->setContentsMargins(0, 0, 0, 0);
    wordsLayout->addWidget(m_drawStatistics);
    wordsLayout->addWidget(m_findings);
    results()->addBelowSummary(words);

    m_replaySeed->setRange(0, std::numeric_limits<int>::max());
    m_replaySeed->setToolTip(tr("A swept seed to draw again and compare bit for bit."));
    m_replayResult->setWordWrap(true);
    m_replayResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* replayRow = new QHBoxLayout;
    replayRow->addWidget(m_replaySeed, 1);
    replayRow->addWidget(m_replay);
    auto* replayLayout = new QVBoxLayout(m_replayBox);
    replayLayout->addLayout(replayRow);
    replayLayout->addWidget(m_replayResult);
    // Under the buttons and the error line, above the stretch.
    auto* controls = static_cast<QBoxLayout*>(controlBox()->layout());
    controls->insertWidget(controls->count() - 1, m_replayBox);

    connect(m_replay, &QPushButton::clicked, this, [this] { replay(m_replaySeed->value()); });
    connect(results(), &ResultsPane::resultShown, this, &SeedSweepPage::showFindings);
    showFindings();
}

SeedSweepPage::~SeedSweepPage() = default;

const app::SeedSweepRun* SeedSweepPage::drawsRun() const { return results()->details<app::SeedSweepRun>(); }

const app::SequenceSweepRun* SeedSweepPage::repliesRun() const { return results()->details<app::SequenceSweepRun>(); }

const app::StepSweepRun* SeedSweepPage::stepsRun() const { return results()->details<app::StepSweepRun>(); }

bool SeedSweepPage::acceptDistribution(const HandOff& handOff)
{
    m_form->useLogits(handOff.distribution);
    return true;
}

QLabel* SeedSweepPage::statisticLabel(const QString& key) const { return m_statistics.value(key); }

void SeedSweepPage::showFindings()
{
    m_replays->cancel();  // a replay of the previous run's seed no longer answers anything shown
    m_replayResult->clear();
    const app::SeedSweepRun* draws = drawsRun();
    m_drawStatistics->setVisible(draws != nullptr);
    m_replayBox->setVisible(draws != nullptr);
    m_findings->setVisible(draws == nullptr);
    if (draws) {
        showDrawStatistics(*draws);
    } else if (const app::SequenceSweepRun* replies = repliesRun()) {
        const auto& census = replies->outcome.census;
        const std::size_t seeds = replies->outcome.seeds.size();
        const std::size_t common = census.replies.front().seeds.size();
        m_findings->setText(
            tr("<b>%1 distinct replies from %2 seeds.</b><br>The most common reply came from %3 seeds (%4%); the "
               "others first differ from it at the steps the histogram shows.<br>Most common: <i>%5</i>")
                .arg(census.replies.size())
                .arg(seeds)
                .arg(common)
                .arg(100.0 * double(common) / double(seeds), 0, 'g', 3)
                .arg(replies->outcome.replyTexts.value(0).toHtmlEscaped()));
    } else if (const app::StepSweepRun* steps = stepsRun()) {
        const auto& rows = steps->outcome.rows;
        const auto tested =
            std::count_if(rows.begin(), rows.end(), [](const app::StepSweepRow& r) { return r.ksP.has_value(); });
        const auto consistent =
            std::count_if(rows.begin(), rows.end(), [](const app::StepSweepRow& r) { return r.consistent; });
        m_findings->setText(tr("<b>%1 steps swept.</b><br>%2 have a valid goodness-of-fit test; at %3 of those the "
                               "counts vary by seed as chance predicts. Steps without a valid test (one token left, or "
                               "too few draws per token) show no p-value.")
                                .arg(rows.size())
                                .arg(tested)
                                .arg(consistent));
    } else {
        m_findings->setText(tr("Run to see whether the draws fit the claimed probabilities and how much the answers "
                               "vary by seed."));
    }
    runStateChanged();
}

void SeedSweepPage::showDrawStatistics(const app::SeedSweepRun& run)
{
    const auto& outcome = run.outcome;
    const auto& summary = outcome.summary;
    const QString replayed = outcome.replayIdentical ? tr("replayed bit for bit") : tr("did NOT replay");
    QString verdict;
    if (!summary.tested()) {
        // A chain that leaves one token: 0 degrees of freedom, nothing to test.
        verdict = tr("<b>No test: %1.</b><br>First seed: %2")
                      .arg(QString::fromStdString(summary.noTest).toHtmlEscaped(), replayed);
    } else {
        verdict = tr("<b>%1</b><br>First seed: %2")
                      .arg(app::seedSweepConsistent(summary) ? tr("Consistent with a correct sampler.")
                                                             : tr("The draws do not match the claimed probabilities."),
                           replayed);
    }
    if (summary.comparedIdentical)
        verdict += tr("<br>The compared seeds drew identical sequences.");
    else if (summary.firstDifference)
        verdict += tr("<br>The compared seeds first differ at draw %1.").arg(*summary.firstDifference);
    m_verdict->setText(verdict);

    m_plainWords->setText(QStringLiteral("<b>%1</b>").arg(app::seedSweepPlainWords(summary).toHtmlEscaped()));
    // A statistic that tests nothing is not shown as a number (its p-value of 1 would read as
    // "perfect").
    const QString invalid = tr("not valid here (%1)").arg(QString::fromStdString(summary.noTest));
    const auto ks = [&](const engine::KsTest& test) {
        if (!summary.tested())
            return invalid;
        if (!test.tested)
            return tr("not valid here (%1)").arg(QString::fromStdString(summary.gNoTest));
        const QString text = tr("D = %1, p = %2").arg(test.statistic, 0, 'f', 4).arg(test.pValue, 0, 'g', 3);
        return test.method == "exact" ? text : text + QStringLiteral(" (%1)").arg(QString::fromStdString(test.method));
    };
    m_statistics.value(QStringLiteral("ks"))->setText(ks(summary.chiSquareUniformity));
    m_statistics.value(QStringLiteral("g-ks"))->setText(ks(summary.gTestUniformity));
    const auto& pooled = summary.pooledChiSquare;
    m_statistics.value(QStringLiteral("pooled"))
        ->setText(summary.tested() && pooled.tested ? tr("%1 on %2 dof, p = %3")
                                                          .arg(pooled.statistic, 0, 'f', 2)
                                                          .arg(pooled.degreesOfFreedom)
                                                          .arg(pooled.pValue, 0, 'g', 3)
                                                    : invalid);
    m_statistics.value(QStringLiteral("bins"))
        ->setText(tr("%1 of %2 tokens").arg(summary.pooledBins).arg(summary.tokens.size()));
    m_replaySeed->setValue(
        static_cast<int>(std::min<std::uint64_t>(outcome.results.front().seed, std::numeric_limits<int>::max())));
}

QString SeedSweepPage::replay(qint64 seed)
{
    const app::SeedSweepRun* run = drawsRun();
    const auto* found = [&]() -> const engine::SeedResult* {
        if (!run)
            return nullptr;
        const auto& results = run->outcome.results;
        const auto it = std::find_if(results.begin(), results.end(), [seed](const engine::SeedResult& r) {
            return r.seed == static_cast<std::uint64_t>(seed);
        });
        return it == results.end() ? nullptr : &*it;
    }();
    if (!found) {
        const QString message = tr("Seed %1 is not one of the last run's seeds.").arg(seed);
        showReplay(message);
        return message;
    }
    // Preparing the experiment and drawing the seed again is a whole seed's work: on a worker.
    m_replayResult->setText(tr("Replaying seed %1...").arg(seed));
    m_replays->start(
        [spec = run->spec, dir = m_form->baseDir(), source = tr("controls"), seed,
         firstHash = found->hash](const app::WorkControl&) {
            auto input = app::toSeedSweepInput(spec, dir, source);
            auto experiment = input ? engine::SeedSweepExperiment::prepare(input->parameters)
                                    : engine::Result<engine::SeedSweepExperiment>(engine::Error{input.error()});
            if (!experiment)
                return QString::fromStdString(experiment.error());
            const std::uint64_t hash = experiment->replayHash(static_cast<std::uint64_t>(seed));
            return hash == firstHash
                       ? tr("Seed %1 replayed bit for bit (hash %2).").arg(seed).arg(hash, 16, 16, QLatin1Char('0'))
                       : tr("Seed %1 did NOT replay: hash %2, first run %3.")
                             .arg(seed)
                             .arg(hash, 16, 16, QLatin1Char('0'))
                             .arg(firstHash, 16, 16, QLatin1Char('0'));
        },
        [this](QString& message) { showReplay(message); });
    runStateChanged();
    return {};
}

bool SeedSweepPage::replayRunning() const { return m_replays->isRunning(); }

void SeedSweepPage::showReplay(const QString& message)
{
    m_replayResult->setText(message);
    emit statusMessage(message);
    runStateChanged();
    emit replayEnded(message);
}

void SeedSweepPage::runStateChanged()
{
    m_replay->setEnabled(!isRunning() && !m_replays->isRunning() && drawsRun() != nullptr);
}

}  // namespace logitlab::ui
