#include "app/kinds/loop_job.h"

#include "app/io/file_sha256.h"
#include "app/io/gguf_model_file.h"
#include "app/io/input_file.h"
#include "app/kinds/imported_logits_source.h"
#include "app/text/counted.h"
#include "engine/models/builtin_model.h"
#include "engine/models/word_tokens.h"
#include "engine/rng/rng_factory.h"
#include "engine/sampler/chain_text.h"
#include "engine/transformer/gguf_model.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QObject>

#include <cmath>

namespace logitlab::app {

namespace {

QString tokenName(const engine::GenerationLoop& loop, std::int32_t id)
{
    return QString::fromStdString(loop.vocabulary()[static_cast<std::size_t>(id)]);
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
    for (const auto& s : track.steps) {
        track.tokens << tokenName(loop, s.token);
        if (s.actual >= 0)
            track.actualTokens << tokenName(loop, s.actual);
    }
    track.text = QString::fromStdString(loop.text());
    return track;
}

LoopOutcome runLoop(const LoopSpec& spec, const WorkControl& control) { return runLoop(spec, QString(), control); }

LoopOutcome runLoop(const LoopSpec& spec, const QString& baseDir, const WorkControl& control,
                    std::shared_ptr<const engine::StepLogitsSource> source)
{
    QElapsedTimer timer;
    timer.start();
    LoopOutcome outcome;
    const auto failed = [&outcome](const std::string& message) {
        outcome.status = {message == "cancelled" ? RunStatus::State::Cancelled : RunStatus::State::Failed,
                          QString::fromStdString(message)};
        return outcome;
    };
    if (spec.replay && !source) {
        auto opened = ImportedLogitsSource::open(*spec.replay, baseDir, control);
        if (!opened)
            return failed(opened.error());
        source = std::move(opened).value();
    }
    if (!spec.modelFile.isEmpty() && !source) {
        auto opened = ggufLoopSource(spec, baseDir);
        if (!opened)
            return failed(opened.error());
        source = std::move(opened).value();
    }
    auto made = makeLoop(spec, source);
    if (!made)
        return failed(made.error());
    engine::GenerationLoop& loop = made.value();
    const auto counted = loopStepCount(spec, loop.source());
    if (!counted)
        return failed(counted.error());
    const std::size_t steps = *counted;
    if (const auto room = loop.stepLimit(); room && steps > *room)
        return failed(QStringLiteral("steps: %1 steps do not fit; the model's context leaves room for %2 after the "
                                     "prompt's %3 tokens")
                          .arg(steps)
                          .arg(*room)
                          .arg(loop.prompt().size())
                          .toStdString());
    const std::size_t branchSteps = spec.branch ? steps - static_cast<std::size_t>(spec.branch->at) : 0;
    if (const auto* gguf = dynamic_cast<const engine::transformer::GgufModelSource*>(source.get()))
        if (auto problem = modelWorkProblem(gguf->model()->parameterCount(),
                                            static_cast<double>(loop.prompt().size() + steps + branchSteps), "steps",
                                            "fewer steps or a smaller model (one pass of the model per step)"))
            return failed(*problem);
    outcome.source = source;
    if (control.started)
        control.started(steps + branchSteps);
    std::size_t done = 0;
    const auto cancelled = [&outcome] {
        outcome.status = {RunStatus::State::Cancelled, QStringLiteral("cancelled")};
        return outcome;
    };
    // A model whose logits went bad has given flat rows since: its run is not shown.
    const auto modelFault = [&]() -> std::optional<std::string> {
        if (const auto fault = loop.source().fault())
            return (spec.modelFile.isEmpty() ? std::string("source: ") : std::string("model-file: ")) + *fault;
        return std::nullopt;
    };
    if (!stepTo(loop, steps, control, done))
        return cancelled();
    if (const auto fault = modelFault())
        return failed(*fault);
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
            forced = branchTokenId(*spec.branch, source.get());
        }
        if (!stepTo(branch, steps, control, done, at, forced))
            return cancelled();
        if (const auto fault = modelFault())
            return failed(*fault);
        outcome.tracks.push_back(trackOf(branch, QStringLiteral("branch")));
        outcome.divergence = engine::firstDivergence(loop.steps(), branch.steps());
        outcome.branchLoop = std::make_shared<const engine::GenerationLoop>(std::move(branch));
    }
    if (auto decoded = loop.source().decodeText(loop.prompt())) {
        outcome.promptText = QString::fromStdString(*decoded);
    } else if (spec.replay) {
        std::vector<std::string> words;
        for (std::int32_t id : loop.prompt())
            words.push_back(loop.vocabulary()[static_cast<std::size_t>(id)]);
        outcome.promptText = QString::fromStdString(engine::joinWordTokens(words));
    } else {
        outcome.promptText =
            QString::fromStdString(engine::joinWordTokens(engine::wordTokens(spec.prompt.toStdString())));
    }
    outcome.vocabulary = loop.vocabulary();
    outcome.draws = done;
    outcome.mainLoop = std::make_shared<const engine::GenerationLoop>(std::move(loop));
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

Provenance loopProvenance(const LoopSpec& spec, const QString& baseDir)
{
    const auto chain = loopChain(spec);
    Provenance p(loopKind().id());
    p.add(QStringLiteral("name"), spec.name);
    if (spec.replay) {
        const LoopReplaySpec& r = *spec.replay;
        const auto sha = [&baseDir](const QString& path) {
            return fileSha256(resolvedPath(path, baseDir)).value_or(QStringLiteral("unreadable"));
        };
        p.add(QStringLiteral("model"),
              QStringLiteral("replay of a model's dump, teacher-forced (the history is the model's own tokens)"))
            .add(QStringLiteral("logits-file"), QStringLiteral("%1 sha256=%2").arg(r.path, sha(r.path)))
            .add(QStringLiteral("array"), r.array.isEmpty() ? QStringLiteral("(the only one)") : r.array)
            .add(QStringLiteral("batch"), QString::number(r.batch))
            .add(QStringLiteral("sequences"), r.sequences
                                                  ? (r.sequences->isEmpty() ? QStringLiteral("none") : *r.sequences)
                                                  : QStringLiteral("'sequences' when the file has it"));
        if (!r.vocabularyFile.isEmpty())
            p.add(QStringLiteral("vocabulary-file"),
                  QStringLiteral("%1 sha256=%2").arg(r.vocabularyFile, sha(r.vocabularyFile)));
        p.add(QStringLiteral("steps"), spec.steps ? QString::number(spec.steps) : QStringLiteral("all of the file's"));
    } else if (!spec.modelFile.isEmpty()) {
        const auto model = openGgufModel(resolvedPath(spec.modelFile, baseDir));
        p.add(QStringLiteral("model"), model ? describeGgufModel(*model.value()) + QStringLiteral(", run on the CPU")
                                             : QStringLiteral("unreadable"))
            .add(QStringLiteral("model-file"), ggufFileProvenance(spec.modelFile, baseDir))
            .add(QStringLiteral("prompt"), spec.prompt)
            .add(QStringLiteral("steps"), QString::number(spec.steps));
    } else {
        const auto model = engine::builtinModel();
        p.add(QStringLiteral("model"),
              QStringLiteral("built-in word trigram, interpolated modified Kneser-Ney, %1 tokens, trained on %2")
                  .arg(model->vocabSize())
                  .arg(QString::fromStdString(engine::builtinModelSources())))
            .add(QStringLiteral("prompt"), spec.prompt)
            .add(QStringLiteral("steps"), QString::number(spec.steps));
    }
    p.add(QStringLiteral("semantics"), spec.semantics)
        .add(QStringLiteral("chain"),
             chain ? QString::fromStdString(engine::formatChain(chain.value(), true)) : spec.chain)
        .add(QStringLiteral("arithmetic"), arithmeticUsed(spec.semantics, spec.arithmetic))
        .add(QStringLiteral("rng"), spec.rng)
        .add(QStringLiteral("seed"), QString::number(spec.seed))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

LoopStepRow loopStepRow(const engine::GenerationLoop& loop, std::size_t step, const QString& run)
{
    const engine::LoopStep& s = loop.steps()[step];
    return {run, s, tokenName(loop, s.token), s.actual >= 0 ? tokenName(loop, s.actual) : QString()};
}

ResultTable loopStepsTable(const std::vector<LoopTrack>& tracks)
{
    std::vector<LoopStepRow> rows;
    bool replay = false;
    for (const LoopTrack& track : tracks)
        for (std::size_t i = 0; i < track.steps.size(); ++i) {
            const auto at = static_cast<qsizetype>(i);
            rows.push_back({track.label, track.steps[i], track.tokens[at], track.actualTokens.value(at)});
            replay = replay || track.steps[i].actual >= 0;
        }
    return loopStepsTable(std::make_shared<const std::vector<LoopStepRow>>(std::move(rows)), replay);
}

ResultTable loopStepsTable(std::shared_ptr<const std::vector<LoopStepRow>> shared, bool replay)
{
    using Kind = ResultColumn::Kind;
    using Row = LoopStepRow;
    ResultTable table;
    table.title = QObject::tr("Steps");
    table.rows = shared->size();
    table.columns = {
        columnOf(
            shared, QStringLiteral("run"), QObject::tr("run"), Kind::Text, [](const Row& r) { return r.run; },
            QObject::tr("main, or the branch")),
        columnOf(
            shared, QStringLiteral("step"), QObject::tr("step"), Kind::Integer,
            [](const Row& r) { return qint64(r.step.index); }, QObject::tr("0-based step: one forward pass each")),
        columnOf(
            shared, QStringLiteral("token"), QObject::tr("token"), Kind::Text,
            [](const Row& r) { return r.token == QStringLiteral("\n") ? QStringLiteral("\\n") : r.token; },
            QObject::tr("The chosen token (\\n: a paragraph break)")),
        columnOf(
            shared, QStringLiteral("token_id"), QObject::tr("id"), Kind::Integer,
            [](const Row& r) { return qint64(r.step.token); }, QObject::tr("The token's id in the model's vocabulary")),
        columnOf(
            shared, QStringLiteral("forced"), QObject::tr("forced"), Kind::Integer,
            [](const Row& r) { return qint64(r.step.forced ? 1 : 0); }, QObject::tr("1 when a branch chose the token")),
        columnOf(
            shared, QStringLiteral("probability"), QObject::tr("p"), Kind::Real,
            [](const Row& r) { return r.step.probability; },
            QObject::tr("Its probability after the chain: what the draw used (0 for a forced token the chain cut)")),
        columnOf(
            shared, QStringLiteral("model_probability"), QObject::tr("p model"), Kind::Real,
            [](const Row& r) { return r.step.modelProbability; },
            QObject::tr("Its probability in the model's own distribution")),
        columnOf(
            shared, QStringLiteral("rank"), QObject::tr("rank"), Kind::Integer,
            [](const Row& r) { return qint64(r.step.rank); }, QObject::tr("1 = the model's most likely token")),
        columnOf(
            shared, QStringLiteral("entropy_bits"), QObject::tr("entropy (bits)"), Kind::Real,
            [](const Row& r) { return r.step.entropyBits; },
            QObject::tr("Entropy of the model's distribution at this step")),
        columnOf(
            shared, QStringLiteral("survivors"), QObject::tr("survivors"), Kind::Integer,
            [](const Row& r) { return qint64(r.step.survivors); }, QObject::tr("Tokens the chain left with p > 0")),
        columnOf(
            shared, QStringLiteral("cut_mass"), QObject::tr("cut mass"), Kind::Real,
            [](const Row& r) { return r.step.cutMass; }, QObject::tr("The model's probability the chain removed")),
        columnOf(
            shared, QStringLiteral("mirostat_mu"), QObject::tr("mirostat mu"), Kind::Real,
            [](const Row& r) { return r.step.mu; },
            QObject::tr("Mirostat's mu before the step (empty without mirostat)")),
    };
    if (!replay)
        return table;
    // A replay: the model's own token against the pick, and how the chain saw it.
    const auto escaped = [](const QString& t) { return t == QStringLiteral("\n") ? QStringLiteral("\\n") : t; };
    table.columns.insert(
        table.columns.end(),
        {columnOf(
             shared, QStringLiteral("actual_token"), QObject::tr("model's token"), Kind::Text,
             [escaped](const Row& r) { return escaped(r.actual); },
             QObject::tr("The token the model produced here (the file's sequences), or the argmax when unknown")),
         columnOf(shared, QStringLiteral("actual_id"), QObject::tr("its id"), Kind::Integer,
                  [](const Row& r) { return qint64(r.step.actual); }),
         columnOf(
             shared, QStringLiteral("actual_known"), QObject::tr("known"), Kind::Integer,
             [](const Row& r) { return qint64(r.step.actualKnown ? 1 : 0); },
             QObject::tr("1 when the file gave the model's token; 0: the argmax stands in")),
         columnOf(
             shared, QStringLiteral("match"), QObject::tr("match"), Kind::Integer,
             [](const Row& r) { return qint64(r.step.matches() ? 1 : 0); },
             QObject::tr("1 when the sampler picked the model's token")),
         columnOf(
             shared, QStringLiteral("actual_probability"), QObject::tr("its p"), Kind::Real,
             [](const Row& r) { return r.step.actualProbability; },
             QObject::tr("The model's token's probability after the chain (0 when cut)")),
         columnOf(
             shared, QStringLiteral("actual_model_probability"), QObject::tr("its p model"), Kind::Real,
             [](const Row& r) { return r.step.actualModelProbability; },
             QObject::tr("The model's token's probability in the model's own distribution")),
         columnOf(
             shared, QStringLiteral("actual_rank"), QObject::tr("its rank"), Kind::Integer,
             [](const Row& r) { return qint64(r.step.actualRank); }, QObject::tr("1 = the most likely token")),
         columnOf(
             shared, QStringLiteral("actual_cut"), QObject::tr("cut"), Kind::Integer,
             [](const Row& r) { return qint64(r.step.actualCut ? 1 : 0); },
             QObject::tr("1 when the chain removed the model's token: this sampler could not have produced it"))});
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
        columnOf(shared, QStringLiteral("run"), QObject::tr("run"), Kind::Text,
                 [](const Row& r) { return r.track.label; }),
        columnOf(shared, QStringLiteral("tokens"), QObject::tr("tokens"), Kind::Integer,
                 [](const Row& r) { return qint64(r.track.steps.size()); }),
        columnOf(
            shared, QStringLiteral("first_divergent_step"), QObject::tr("differs from step"), Kind::Integer,
            [](const Row& r) { return r.divergesAt < 0 ? QVariant() : QVariant(r.divergesAt); },
            QObject::tr("The first step where this run chose another token than the main run")),
        columnOf(
            shared, QStringLiteral("probability_gap"), QObject::tr("p gap there"), Kind::Real,
            [](const Row& r) { return r.gap; },
            QObject::tr("The model's probability of the main run's token minus this run's, at that step")),
        columnOf(shared, QStringLiteral("text"), QObject::tr("text"), Kind::Text,
                 [](const Row& r) { return r.track.text; }),
    };
    return table;
}

QString replaySummary(const std::vector<engine::LoopStep>& steps)
{
    const engine::ReplayAgreement a = engine::replayAgreement(steps);
    if (a.known == 0)
        return QObject::tr("the file has no sequences: the argmax stands in for the model's token");
    QStringList cutSteps;
    for (const auto& s : steps)
        if (s.actualKnown && s.actualCut && cutSteps.size() < 10)
            cutSteps << QString::number(s.index);
    QString text = QObject::tr("the sampler picked the model's token at %1 of %2 steps (%3%)")
                       .arg(a.matches)
                       .arg(a.known)
                       .arg(100.0 * a.rate(), 0, 'f', 1);
    if (a.cut)
        text += QObject::tr("; the chain cut the model's token at %1 steps (%2%3)")
                    .arg(a.cut)
                    .arg(cutSteps.join(QStringLiteral(", ")), a.cut > 10 ? QStringLiteral(", ...") : QString());
    else
        text += QObject::tr("; the chain kept the model's token at every step");
    return text;
}

ExperimentResult loopResult(const LoopSpec& spec, LoopOutcome outcome, const QString& baseDir)
{
    ExperimentResult result = resultOf(loopKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = loopProvenance(spec, baseDir);
    result.tables = {loopStepsTable(outcome.tracks), loopTextTable(outcome)};
    const std::size_t ran = outcome.tracks.empty() ? 0 : outcome.tracks.front().steps.size();
    QString summary = QObject::tr("%1: %2 in %3 s")
                          .arg(spec.name, counted(qint64(ran), "step", "steps"))
                          .arg(outcome.seconds, 0, 'f', 3);
    if (spec.replay && !outcome.tracks.empty())
        summary += QStringLiteral("; ") + replaySummary(outcome.tracks.front().steps);
    if (spec.branch)
        summary += outcome.divergence ? QObject::tr("; the branch differs from step %1").arg(outcome.divergence->step)
                                      : QObject::tr("; the branch chose the same tokens");
    result.summary = summary;
    result.details = std::make_shared<const LoopRun>(LoopRun{spec, std::move(outcome)});
    return result;
}

}  // namespace logitlab::app
