// The Loop page's stepper (app/kinds/loop_stepper.h), without a widget: stepping by hand gives
// the run `logitlab-cli run` gives for the same spec (main and branch, token for token), rewind
// and step again gives the same tokens, a branch diverges where it was made and goes when a
// rewind takes its difference back, and the runs are kept while only N or the branch change.
#include "app/kinds/loop_job.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/loop_stepper.h"
#include "engine/rng/rng_factory.h"
#include "support/example_files.h"

#include <QObject>
#include <QTest>

using namespace logitlab;

namespace {

app::LoopSpec example(const QString& name)
{
    const auto spec = app::readLoopFile(test::examplePath(name));
    if (!spec)
        qFatal("%s", spec.error().c_str());
    return spec.value();
}

std::vector<std::int32_t> tokensOf(const std::vector<engine::LoopStep>& steps)
{
    std::vector<std::int32_t> out;
    for (const auto& s : steps)
        out.push_back(s.token);
    return out;
}

// Stepping `spec` by hand: its N steps, then its branch as the page makes it.
app::LoopStepper stepByHand(const app::LoopSpec& spec)
{
    app::LoopStepper stepper;
    const QString error = stepper.start(spec);
    if (!error.isEmpty())
        qFatal("%s", qPrintable(error));
    stepper.stepMain(static_cast<std::size_t>(spec.steps), -1);
    if (spec.branch) {
        std::optional<std::int32_t> forced;
        std::unique_ptr<engine::Rng> rng;
        if (spec.branch->seed)
            rng = engine::makeRng(spec.rng.toStdString(), static_cast<std::uint64_t>(*spec.branch->seed)).value();
        else
            forced = app::branchTokenId(*spec.branch, &stepper.main()->source());
        stepper.branch(static_cast<std::size_t>(spec.branch->at), forced, std::move(rng));
        while (!stepper.stepBranch(5)) {
        }
    }
    return stepper;
}

}  // namespace

class TestLoopStepper : public QObject {
    Q_OBJECT

private slots:
    void byHandEqualsTheKindsRun_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("lesson") << QStringLiteral("loop-lesson.json");
        QTest::newRow("greedy, forced branch") << QStringLiteral("loop-greedy-branch.json");
        QTest::newRow("mirostat and penalties") << QStringLiteral("loop-mirostat-penalties.json");
    }
    void byHandEqualsTheKindsRun()
    {
        QFETCH(QString, example);
        const app::LoopSpec spec = ::example(example);
        const app::LoopStepper stepper = stepByHand(spec);
        const app::LoopOutcome run = app::runLoop(spec, app::WorkControl{});
        QVERIFY(run.status.finished());
        const auto tracks = stepper.tracks();
        QCOMPARE(tracks.size(), run.tracks.size());
        for (std::size_t i = 0; i < tracks.size(); ++i) {
            QCOMPARE(tracks[i].label, run.tracks[i].label);
            QCOMPARE(tracks[i].tokens, run.tracks[i].tokens);
            QCOMPARE(tracks[i].text, run.tracks[i].text);
        }
        QCOMPARE(stepper.divergence().has_value(), run.divergence.has_value());
        if (run.divergence)
            QCOMPARE(stepper.divergence()->step, run.divergence->step);
    }

    // Back one step and on again: the same token, chain state and RNG as before.
    void rewindAndStepAgainReplays()
    {
        app::LoopSpec spec = example(QStringLiteral("loop-mirostat-penalties.json"));
        app::LoopStepper stepper;
        QCOMPARE(stepper.start(spec), QString());
        QCOMPARE(stepper.stepMain(30, -1), std::size_t{30});
        const auto before = tokensOf(stepper.main()->steps());
        const auto generation = stepper.mainGeneration();
        for (int i = 0; i < 10; ++i)
            stepper.rewindOne();
        QCOMPARE(stepper.main()->steps().size(), std::size_t{20});
        QCOMPARE(stepper.stepMain(30, -1), std::size_t{10});
        QCOMPARE(tokensOf(stepper.main()->steps()), before);
        QCOMPARE(stepper.mainGeneration(), generation);  // the same run: views add and cut rows
        // At the target: no step past it.
        QCOMPARE(stepper.stepMain(30, -1), std::size_t{0});
    }

    void branchDivergesAndGoesOnRewind()
    {
        app::LoopSpec spec = example(QStringLiteral("loop-greedy-branch.json"));
        QVERIFY(spec.branch);
        app::LoopStepper stepper = stepByHand(spec);
        const auto at = static_cast<std::size_t>(spec.branch->at);
        QVERIFY(stepper.branchRun());
        QCOMPARE(stepper.branchRun()->steps().size(), stepper.main()->steps().size());
        QVERIFY(stepper.divergence());
        QCOMPARE(stepper.divergence()->step, at);
        // Rewinding to the branch step takes the difference back: the branch goes.
        while (stepper.main()->steps().size() > at)
            stepper.rewindOne();
        QVERIFY(!stepper.branchRun());
        QVERIFY(!stepper.divergence());
    }

    // N and the branch are the run's length and its comparison: the steps taken stay. Anything
    // the loop is made of (the seed, the chain) describes another run.
    void keyLeavesOutLengthAndBranch()
    {
        app::LoopSpec spec = example(QStringLiteral("loop-lesson.json"));
        app::LoopStepper stepper;
        QVERIFY(!stepper.isFor(spec));
        QCOMPARE(stepper.start(spec), QString());
        QVERIFY(stepper.isFor(spec));
        app::LoopSpec other = spec;
        other.steps = spec.steps + 5;
        other.branch = app::LoopBranchSpec{3, QString(), 9};
        other.name = QStringLiteral("renamed");
        QVERIFY(stepper.isFor(other));
        other.seed = spec.seed + 1;
        QVERIFY(!stepper.isFor(other));
        stepper.clear();
        QVERIFY(!stepper.isFor(spec));
        QVERIFY(!stepper.main());
    }

    // The distribution a step drew from is the source's after the step's context.
    void distributionAtIsTheStepsDistribution()
    {
        app::LoopSpec spec = example(QStringLiteral("loop-lesson.json"));
        app::LoopStepper stepper;
        QCOMPARE(stepper.start(spec), QString());
        stepper.stepMain(8, -1);
        for (std::size_t at : {std::size_t{0}, std::size_t{7}}) {
            const engine::Distribution d = stepper.distributionAt(at);
            QCOMPARE(static_cast<std::size_t>(d.logits.size()), stepper.main()->vocabulary().size());
            QCOMPARE(stepper.contextAt(at).size(), stepper.main()->prompt().size() + at);
            // The chosen token's model probability is the softmax of these logits.
            const auto& step = stepper.main()->steps()[at];
            const double top = d.logits.maxCoeff();
            const double sum = (d.logits.array() - top).exp().sum();
            const double p = std::exp(d.logits[step.token] - top) / sum;
            QVERIFY2(std::abs(p - step.modelProbability) < 1e-12,
                     qPrintable(QStringLiteral("%1 vs %2").arg(p).arg(step.modelProbability)));
        }
    }
};

QTEST_MAIN(TestLoopStepper)
#include "tst_loop_stepper.moc"
