// The seed-sweep page: is the sampler right, does a seed replay, how much do answers vary by
// seed. The kind's form and results (KindPage): draws from one distribution give the p-value,
// spread and counts charts and the per-token and per-seed tables; whole replies give the
// distinct replies and first differences; every step of a file gives one row per step. Views
// of the page's own: the verdict in plain words (app::seedSweepPlainWords) with each statistic
// and its meaning as its tooltip, a statistic that is not valid for the run (too few draws per
// token) shown as not valid rather than as a number; the replies' or the steps' findings in
// words; and a replay check of any swept seed, run on a worker like the sweep.
#pragma once

#include "ui/pages/kind_page.h"

#include <QHash>

QT_BEGIN_NAMESPACE
class QGroupBox;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::app {
struct SeedSweepRun;
struct SequenceSweepRun;
struct StepSweepRun;
}  // namespace logitlab::app

namespace logitlab::ui {

class SeedSweepForm;

class SeedSweepPage : public KindPage {
    Q_OBJECT
public:
    explicit SeedSweepPage(QWidget* parent = nullptr);
    ~SeedSweepPage() override;

    // Sweeps logits from elsewhere (the Explorer's table): the distribution becomes "Explorer's logits".
    bool acceptDistribution(const HandOff& handOff) override;

    SeedSweepForm* sweepForm() const { return m_form; }
    // The run shown, by what its seeds changed; null when the result shown is of another source.
    const app::SeedSweepRun* drawsRun() const;
    const app::SequenceSweepRun* repliesRun() const;
    const app::StepSweepRun* stepsRun() const;

    // Draws `seed` of the draws run shown again on a worker; replayEnded() and replayLabel() say
    // whether it replayed bit for bit. Returns empty when the replay started, else why not (also
    // in replayLabel()): the seed must be one of the shown run's.
    QString replay(qint64 seed);
    bool replayRunning() const;

    QLabel* verdictLabel() const { return m_verdict; }
    QLabel* plainWordsLabel() const { return m_plainWords; }
    // The statistics shown beside the verdict, by name ("ks", "g-ks", "pooled", "bins"): the value
    // label, whose tooltip (like its name's) says what the statistic means.
    QLabel* statisticLabel(const QString& key) const;
    // The replies' or the steps' findings in words.
    QLabel* findingsLabel() const { return m_findings; }
    QLabel* replayLabel() const { return m_replayResult; }

signals:
    // A replay ended: the message replayLabel() shows.
    void replayEnded(const QString& message);

protected:
    void runStateChanged() override;

private:
    void showFindings();  // the page's words for the result shown
    void showDrawStatistics(const app::SeedSweepRun& run);
    void showReplay(const QString& message);

    SeedSweepForm* m_form;
    app::RunController<QString>* m_replays;
    QWidget* m_drawStatistics;  // the verdict and the statistics, for a draws run
    QLabel* m_plainWords;
    QLabel* m_verdict;
    QHash<QString, QLabel*> m_statistics;  // value labels by key
    QLabel* m_findings;                    // replies and steps
    QGroupBox* m_replayBox;
    QSpinBox* m_replaySeed;
    QPushButton* m_replay;
    QLabel* m_replayResult;
};

}  // namespace logitlab::ui
