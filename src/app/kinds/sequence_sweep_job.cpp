#include "app/kinds/sequence_sweep_job.h"

#include "app/io/gguf_model_file.h"
#include "app/io/input_file.h"
#include "app/kinds/loop_spec.h"
#include "app/kinds/seed_sweep_job.h"
#include "app/text/counted.h"
#include "engine/core/work_limits.h"
#include "engine/models/builtin_model.h"
#include "engine/models/word_tokens.h"
#include "engine/sampler/chain_text.h"
#include "engine/transformer/gguf_model.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QObject>
#include <QThread>

#include <stdexcept>

namespace logitlab::app {

namespace {

QString seedList(const std::vector<std::uint64_t>& seeds)
{
    QStringList out;
    out.reserve(static_cast<qsizetype>(seeds.size()));
    for (std::uint64_t s : seeds)
        out << QString::number(s);
    return out.join(QLatin1Char(' '));
}

QVariant optionalStep(const std::optional<std::size_t>& step) { return step ? QVariant(qint64(*step)) : QVariant(); }

}  // namespace

SequenceSweepOutcome runSequenceSweep(const SeedSweepSpec& spec, const QString& baseDir, const QString& source,
                                      int threads, const WorkControl& control)
{
    QElapsedTimer timer;
    timer.start();
    SequenceSweepOutcome outcome;
    const auto chain = sweepChain(spec);
    if (!chain) {
        outcome.status = {RunStatus::State::Failed,
                          source + QStringLiteral(": ") + QString::fromStdString(chain.error())};
        return outcome;
    }
    outcome.chain =
        QString::fromStdString(spec.semantics.toStdString() + ": " + engine::formatChain(chain.value(), true));
    outcome.seeds = spec.seeds();
    outcome.replies.assign(outcome.seeds.size(), {});
    const auto steps = static_cast<std::size_t>(spec.steps);
    // A GGUF model: opened once here (every seed's source shares it), its work bounded first.
    std::shared_ptr<const engine::transformer::GgufModel> model;
    if (!spec.modelFile.isEmpty()) {
        auto opened = openGgufModel(resolvedPath(spec.modelFile, baseDir));
        if (!opened) {
            outcome.status = {RunStatus::State::Failed,
                              source + QStringLiteral(": model-file: ") + QString::fromStdString(opened.error())};
            return outcome;
        }
        model = std::move(opened).value();
        const QByteArray text = spec.prompt.toUtf8();
        const auto promptTokens = static_cast<double>(
            model->encode(std::string_view(text.constData(), static_cast<std::size_t>(text.size()))).size());
        const double passes = static_cast<double>(outcome.seeds.size()) * (promptTokens + static_cast<double>(steps));
        if (auto problem = modelWorkProblem(model->parameterCount(), passes, "seeds",
                                            "fewer seeds, shorter replies or a smaller model (every seed runs the "
                                            "model over its prompt and once per step)")) {
            outcome.status = {RunStatus::State::Failed,
                              source + QStringLiteral(": ") + QString::fromStdString(*problem)};
            return outcome;
        }
    }
    // Threads share the cores: a model's passes take the cores the items leave.
    const int passThreads = std::max(1, QThread::idealThreadCount() / std::max(1, threads));
    // One item per seed, writing only its own slot: the same replies for any thread count.
    outcome.status = runWorkItems(
        outcome.seeds.size(), threads,
        [&](int, std::size_t item) {
            const LoopSpec loopSpec = replyLoopSpec(spec, outcome.seeds[item]);
            std::shared_ptr<const engine::StepLogitsSource> modelSource;
            if (model) {
                auto opened = ggufLoopSource(loopSpec, baseDir, false, passThreads);
                if (!opened)
                    throw std::runtime_error(opened.error());
                modelSource = std::move(opened).value();
            }
            auto made = makeLoop(loopSpec, modelSource);
            if (!made)
                throw std::runtime_error(made.error());
            engine::GenerationLoop& loop = made.value();
            for (std::size_t s = 0; s < steps; ++s)
                loop.step();
            if (const auto fault = loop.source().fault())
                throw std::runtime_error("model-file: seed " + std::to_string(outcome.seeds[item]) + ": " + *fault);
            outcome.replies[item] = loop.tokens();
        },
        control);
    if (!outcome.status.finished())
        return outcome;
    outcome.census = engine::countReplies(outcome.seeds, outcome.replies, steps);
    const auto& vocabulary = engine::builtinModel()->tokens();
    for (const auto& reply : outcome.census.replies) {
        if (model) {
            outcome.replyTexts << QString::fromStdString(model->decode(reply.tokens));
            continue;
        }
        std::vector<std::string> words;
        words.reserve(reply.tokens.size());
        for (std::int32_t id : reply.tokens)
            words.push_back(vocabulary[static_cast<std::size_t>(id)]);
        outcome.replyTexts << QString::fromStdString(engine::joinWordTokens(words));
    }
    outcome.draws = static_cast<std::uint64_t>(steps) * outcome.seeds.size();
    outcome.seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    return outcome;
}

Provenance sequenceSweepProvenance(const SeedSweepSpec& spec, const QString& baseDir)
{
    Provenance p(seedSweepKind().id());
    p.add(QStringLiteral("name"), spec.name);
    if (spec.modelFile.isEmpty())
        p.add(QStringLiteral("source"), QStringLiteral("sequence: whole replies of the built-in model"))
            .add(QStringLiteral("model"), QStringLiteral("builtin"));
    else
        p.add(QStringLiteral("source"), QStringLiteral("sequence: whole replies of a GGUF model on the CPU"))
            .add(QStringLiteral("model-file"), ggufFileProvenance(spec.modelFile, baseDir));
    p.add(QStringLiteral("prompt"), spec.prompt).add(QStringLiteral("steps"), QString::number(spec.steps));
    addSamplingProvenance(p, spec)
        .add(QStringLiteral("seeds-per-work-item"), QStringLiteral("1"))
        .add(QStringLiteral("experiment-file"),
             QString::fromUtf8(QJsonDocument(toJson(spec)).toJson(QJsonDocument::Compact)));
    return p;
}

Provenance sequenceSweepResultHeader(const Provenance& provenance, const SequenceSweepOutcome& outcome)
{
    Provenance p = provenance;
    const auto& census = outcome.census;
    p.add(QStringLiteral("result: evaluated chain"), outcome.chain)
        .add(QStringLiteral("result: distinct replies"),
             QStringLiteral("%1 of %2")
                 .arg(census.replies.size())
                 .arg(counted(qint64(outcome.seeds.size()), "seed", "seeds")));
    if (!census.replies.empty())
        p.add(QStringLiteral("result: reference reply (the most common; first differences are counted from it)"),
              QStringLiteral("%1, first seed %2")
                  .arg(counted(qint64(census.replies.front().seeds.size()), "seed", "seeds"))
                  .arg(census.replies.front().seeds.front()));
    return p;
}

ExperimentResult sequenceSweepResult(const SeedSweepSpec& spec, const QString& baseDir, SequenceSweepOutcome outcome,
                                     int threads)
{
    ExperimentResult result = resultOf(seedSweepKind().id(), spec.name, outcome.status);
    if (!result.status.finished())
        return result;
    result.provenance = sequenceSweepResultHeader(sequenceSweepProvenance(spec, baseDir), outcome);
    result.summary =
        QObject::tr("%1: %2 x %3 in %4 s on %5; %6; the most common from %7")
            .arg(spec.name)
            .arg(counted(qint64(outcome.seeds.size()), "seed", "seeds"))
            .arg(counted(qint64(spec.steps), "step", "steps"))
            .arg(outcome.seconds, 0, 'f', 2)
            .arg(counted(threads, "thread", "threads"))
            .arg(counted(qint64(outcome.census.replies.size()), "distinct reply", "distinct replies"))
            .arg(counted(qint64(outcome.census.replies.empty() ? 0 : outcome.census.replies.front().seeds.size()),
                         "seed", "seeds"));
    auto run = std::make_shared<const SequenceSweepRun>(SequenceSweepRun{spec, std::move(outcome)});
    const auto shared = std::shared_ptr<const SequenceSweepOutcome>(run, &run->outcome);
    result.tables = {sequenceRepliesTable(shared), sequenceSeedsTable(shared), sequenceFirstDifferenceTable(shared)};
    result.details = run;
    return result;
}

ResultTable sequenceRepliesTable(std::shared_ptr<const SequenceSweepOutcome> outcome)
{
    using Kind = ResultColumn::Kind;
    const auto reply = [outcome](std::size_t i) -> const engine::DistinctReply& { return outcome->census.replies[i]; };
    const double seeds = static_cast<double>(outcome->seeds.size());
    ResultTable table;
    table.title = QObject::tr("Distinct replies");
    table.rows = outcome->census.replies.size();
    table.columns = {
        {QStringLiteral("reply"), QObject::tr("reply"), Kind::Integer,
         [](std::size_t i) { return QVariant(qint64(i + 1)); },
         QObject::tr("1 = the most common reply, the reference the first differences are counted from.")},
        {QStringLiteral("seeds"), QObject::tr("seeds"), Kind::Integer,
         [reply](std::size_t i) { return QVariant(qint64(reply(i).seeds.size())); },
         QObject::tr("How many seeds gave this reply.")},
        {QStringLiteral("share"), QObject::tr("share"), Kind::Real,
         [reply, seeds](std::size_t i) { return QVariant(static_cast<double>(reply(i).seeds.size()) / seeds); },
         QObject::tr("The fraction of the seeds that gave this reply."), 4},
        {QStringLiteral("first_difference"), QObject::tr("differs from step"), Kind::Integer,
         [reply](std::size_t i) { return optionalStep(reply(i).firstDifference); },
         QObject::tr("The first 0-based step where this reply differs from reply 1 (empty for reply 1).")},
        {QStringLiteral("text"), QObject::tr("text"), Kind::Text,
         [outcome](std::size_t i) { return QVariant(outcome->replyTexts.value(static_cast<qsizetype>(i))); },
         QObject::tr("The reply.")},
        {QStringLiteral("seed_list"), QObject::tr("which seeds"), Kind::Text,
         [reply](std::size_t i) { return QVariant(seedList(reply(i).seeds)); },
         QObject::tr("The seeds that gave this reply, in the sweep's order.")},
    };
    return table;
}

ResultTable sequenceSeedsTable(std::shared_ptr<const SequenceSweepOutcome> outcome)
{
    using Kind = ResultColumn::Kind;
    ResultTable table;
    table.suffix = QStringLiteral("-seeds");
    table.title = QObject::tr("Per seed");
    table.rows = outcome->seeds.size();
    table.columns = {
        {QStringLiteral("seed"), QObject::tr("seed"), Kind::Integer,
         [outcome](std::size_t i) { return QVariant(qulonglong(outcome->seeds[i])); }, QObject::tr("The seed.")},
        {QStringLiteral("reply"), QObject::tr("reply"), Kind::Integer,
         [outcome](std::size_t i) { return QVariant(qint64(outcome->census.replyOf[i] + 1)); },
         QObject::tr("Which distinct reply the seed gave (1 = the most common).")},
        {QStringLiteral("first_difference"), QObject::tr("differs from step"), Kind::Integer,
         [outcome](std::size_t i) { return optionalStep(outcome->census.firstDifference[i]); },
         QObject::tr("The first 0-based step where the seed's reply differs from reply 1 (empty: the same reply).")},
    };
    return table;
}

ResultTable sequenceFirstDifferenceTable(std::shared_ptr<const SequenceSweepOutcome> outcome)
{
    using Kind = ResultColumn::Kind;
    ResultTable table;
    table.suffix = QStringLiteral("-first-difference");
    table.title = QObject::tr("First differences");
    table.rows = outcome->census.firstDifferenceHistogram.size();
    table.columns = {
        {QStringLiteral("step"), QObject::tr("step"), Kind::Integer, [](std::size_t i) { return QVariant(qint64(i)); },
         QObject::tr("0-based step of the reply.")},
        {QStringLiteral("seeds"), QObject::tr("seeds"), Kind::Integer,
         [outcome](std::size_t i) { return QVariant(qint64(outcome->census.firstDifferenceHistogram[i])); },
         QObject::tr("Seeds whose reply first differs from the most common reply at this step.")},
    };
    return table;
}

}  // namespace logitlab::app
