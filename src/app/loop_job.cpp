#include "loop_job.h"

#include "builtin_model.h"
#include "chain_text.h"
#include "rng_factory.h"
#include "word_tokens.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QObject>

#include <cmath>

namespace logitlab::app {

namespace {

QString tokenName(const engine::NgramModel& model, std::int32_t id)
{
    return QString::fromStdString(model.tokens()[static_cast<std::size_t>(id)]);
}

// Steps the loop up to `count` steps (forcing `forced` at `forcedAt`); false when cancelled.
bool stepTo(engine::GenerationLoop& loop, std::size_t count, const WorkControl& control, std::size_t& done,
            std::optional<std::size_t> forcedAt = std::nullopt, std::optional<std::int32_t> forced = std::nullopt)
{
    while (loop.steps().size() < count) {
        if (control.isCancelled && control.isCancelled())
            return false;
        const bool force = forcedAt && loop.steps().size() == *forcedAt;
        loop.step(force ? forced : std::nullopt);
        if (control.progress)
            control.progress(++done);
    }
    return true;
}

}  // namespace

LoopTrack trackOf(const engine::GenerationLoop& loop, const QString& label)
{
    LoopTrack track;
    track.label = label;
    track.steps = loop.steps();
    for (const auto& s : track.steps)
        track.tokens << tokenName(loop.model(), s.token);
    track.text = QString::fromStdString(loop.text());
    return track;
}

LoopOutcome runLoop(const LoopSpec& spec, const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    LoopOutcome outcome;
    auto made = makeLoop(spec);
    if (!made) {
        outcome.status = {RunStatus::State::Failed, QString::fromStdString(made.error())};
        return outcome;
    }
    engine::GenerationLoop& loop = made.value();
    const auto steps = static_cast<std::size_t>(spec.steps);
    const std::size_t branchSteps = spec.branch ? steps - static_cast<std::size_t>(spec.branch->at) : 0;
    if (control.started)
        control.started(steps + branchSteps);
    std::size_t done = 0;
    const auto cancelled = [&outcome] {
        outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
        return outcome;
    };
    if (!stepTo(loop, steps, control, done))
        return cancelled();
    outcome.tracks.push_back(trackOf(loop, QStringLiteral("main")));
    if (spec.branch) {
        const auto at = static_cast<std::size_t>(spec.branch->at);
        engine::GenerationLoop branch = loop;
        branch.rewind(at);
        std::optional<std::int32_t> forced;
        if (spec.branch->seed) {
            auto rng = engine::makeRng(spec.rng.toStdString(), static_cast<std::uint64_t>(*spec.branch->seed));
            branch.reseed(std::move(rng).value());
        } else {
            forced = branchTokenId(*spec.branch);
        }
        if (!stepTo(branch, steps, control, done, at, forced))
            return cancelled();
        outcome.tracks.push_back(trackOf(branch, QStringLiteral("branch")));
        outcome.divergence = engine::firstDivergence(loop.steps(), branch.steps());
        outcome.branchLoop = std::make_shared<const engine::GenerationLoop>(std::move(branch));
    }
    outcome.promptText = QString::fromStdString(engine::joinWordTokens(engine::wordTokens(spec.prompt.toStdString())));
    outcome.vocabulary = loop.model().tokens();
    outcome.draws = done;
    outcome.mainLoop = std::make_shared<const engine::GenerationLoop>(std::move(loop));
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

Provenance loopProvenance(const LoopSpec& spec)
{
    const auto model = engine::builtinModel();
    const auto chain = loopChain(spec);
    Provenance p(QStringLiteral("loop"));
    p.add(QStringLiteral("name"), spec.name)
        .add(QStringLiteral("model"),
             QStringLiteral("built-in word trigram, interpolated modified Kneser-Ney, %1 tokens, trained on %2")
                 .arg(model->vocabSize())
                 .arg(QString::fromStdString(engine::builtinModelSources())))
        .add(QStringLiteral("prompt"), spec.prompt)
        .add(QStringLiteral("steps"), QString::number(spec.steps))
        .add(QStringLiteral("semantics"), spec.semantics)
        .add(QStringLiteral("chain"), chain ? QString::fromStdString(engine::formatChain(chain.value(), true)) : spec.chain)
        .add(QStringLiteral("arithmetic"), arithmeticUsed(spec.semantics, spec.arithmetic))
        .add(QStringLiteral("rng"), spec.rng)
        .add(QStringLiteral("seed"), QString::number(spec.seed))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

ResultTable loopStepsTable(const std::vector<LoopTrack>& tracks)
{
    using Kind = ResultColumn::Kind;
    struct Row {
        QString run;
        engine::LoopStep step;
        QString token;
    };
    std::vector<Row> rows;
    for (const LoopTrack& track : tracks)
        for (std::size_t i = 0; i < track.steps.size(); ++i)
            rows.push_back({track.label, track.steps[i], track.tokens[static_cast<qsizetype>(i)]});
    auto shared = std::make_shared<const std::vector<Row>>(std::move(rows));
    ResultTable table;
    table.title = QObject::tr("Steps");
    table.rows = shared->size();
    table.columns = {
        columnOf(shared, QStringLiteral("run"), QObject::tr("run"), Kind::Text, [](const Row& r) { return r.run; },
                 QObject::tr("main, or the branch")),
        columnOf(shared, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step.index); }, QObject::tr("0-based step: one forward pass each")),
        columnOf(shared, QStringLiteral("token"), QObject::tr("token"), Kind::Text,
                 [](const Row& r) { return r.token == QStringLiteral("\n") ? QStringLiteral("\\n") : r.token; },
                 QObject::tr("The chosen token (\\n: a paragraph break)")),
        columnOf(shared, QStringLiteral("token_id"), QObject::tr("id"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step.token); }, QObject::tr("The token's id in the model's vocabulary")),
        columnOf(shared, QStringLiteral("forced"), QObject::tr("forced"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step.forced ? 1 : 0); }, QObject::tr("1 when a branch chose the token")),
        columnOf(shared, QStringLiteral("probability"), QObject::tr("p"), Kind::Real,
                 [](const Row& r) { return r.step.probability; },
                 QObject::tr("Its probability after the chain: what the draw used (0 for a forced token the chain cut)")),
        columnOf(shared, QStringLiteral("model_probability"), QObject::tr("p model"), Kind::Real,
                 [](const Row& r) { return r.step.modelProbability; }, QObject::tr("Its probability in the model's own distribution")),
        columnOf(shared, QStringLiteral("rank"), QObject::tr("rank"), Kind::Integer, [](const Row& r) { return qint64(r.step.rank); },
                 QObject::tr("1 = the model's most likely token")),
        columnOf(shared, QStringLiteral("entropy_bits"), QObject::tr("entropy (bits)"), Kind::Real,
                 [](const Row& r) { return r.step.entropyBits; }, QObject::tr("Entropy of the model's distribution at this step")),
        columnOf(shared, QStringLiteral("survivors"), QObject::tr("survivors"), Kind::Integer,
                 [](const Row& r) { return qint64(r.step.survivors); }, QObject::tr("Tokens the chain left with p > 0")),
        columnOf(shared, QStringLiteral("cut_mass"), QObject::tr("cut mass"), Kind::Real, [](const Row& r) { return r.step.cutMass; },
                 QObject::tr("The model's probability the chain removed")),
        columnOf(shared, QStringLiteral("mirostat_mu"), QObject::tr("mirostat mu"), Kind::Real, [](const Row& r) { return r.step.mu; },
                 QObject::tr("Mirostat's mu before the step (empty without mirostat)")),
    };
    return table;
}

ResultTable loopTextTable(const LoopOutcome& outcome)
{
    using Kind = ResultColumn::Kind;
    struct Row {
        LoopTrack track;
        qint64 divergesAt = -1;
        double gap = NAN;
    };
    std::vector<Row> rows;
    for (const LoopTrack& track : outcome.tracks) {
        Row row{track};
        if (track.label != QStringLiteral("main") && outcome.divergence) {
            row.divergesAt = static_cast<qint64>(outcome.divergence->step);
            row.gap = outcome.divergence->probabilityA - outcome.divergence->probabilityB;
        }
        rows.push_back(std::move(row));
    }
    auto shared = std::make_shared<const std::vector<Row>>(std::move(rows));
    ResultTable table;
    table.suffix = QStringLiteral("-text");
    table.title = QObject::tr("Text");
    table.rows = shared->size();
    table.columns = {
        columnOf(shared, QStringLiteral("run"), QObject::tr("run"), Kind::Text, [](const Row& r) { return r.track.label; }),
        columnOf(shared, QStringLiteral("tokens"), QObject::tr("tokens"), Kind::Integer,
                 [](const Row& r) { return qint64(r.track.steps.size()); }),
        columnOf(shared, QStringLiteral("first_divergent_step"), QObject::tr("differs from step"), Kind::Integer,
                 [](const Row& r) { return r.divergesAt < 0 ? QVariant() : QVariant(r.divergesAt); },
                 QObject::tr("The first step where this run chose another token than the main run")),
        columnOf(shared, QStringLiteral("probability_gap"), QObject::tr("p gap there"), Kind::Real,
                 [](const Row& r) { return r.gap; },
                 QObject::tr("The model's probability of the main run's token minus this run's, at that step")),
        columnOf(shared, QStringLiteral("text"), QObject::tr("text"), Kind::Text, [](const Row& r) { return r.track.text; }),
    };
    return table;
}

ExperimentResult loopResult(const LoopSpec& spec, LoopOutcome outcome)
{
    ExperimentResult result = resultOf(QStringLiteral("loop"), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = loopProvenance(spec);
    result.tables = {loopStepsTable(outcome.tracks), loopTextTable(outcome)};
    QString summary = QObject::tr("%1: %2 steps in %3 s").arg(spec.name).arg(spec.steps).arg(outcome.seconds, 0, 'f', 3);
    if (spec.branch)
        summary += outcome.divergence ? QObject::tr("; the branch differs from step %1").arg(outcome.divergence->step)
                                      : QObject::tr("; the branch chose the same tokens");
    result.summary = summary;
    result.details = std::make_shared<const LoopRun>(LoopRun{spec, std::move(outcome)});
    return result;
}

}  // namespace logitlab::app
