#include "app/kinds/batch_invariance_spec.h"

#include "app/kinds/batch_invariance_job.h"
#include <QObject>

#include "app/io/experiment_file.h"
#include "app/io/input_file.h"
#include "app/io/json_object_reader.h"
#include "app/io/save_text.h"
#include "engine/experiments/load_trace.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

namespace logitlab::app {

namespace {

using engine::Error;
using Spec = BatchInvarianceSpec;

QStringList precisionList()
{
    QStringList names;
    for (const std::string& n : engine::precisionNames())
        names << QString::fromStdString(n);
    return names;
}

engine::StoragePrecision precisionOf(const QString& name)
{
    return static_cast<engine::StoragePrecision>(precisionList().indexOf(name));
}

void readModel(JsonObjectReader& r, Spec& spec)
{
    using P = engine::ToyModelParameters;
    spec.vocabulary = r.integer(QStringLiteral("vocabulary"), spec.vocabulary, P::kMinVocabulary, P::kMaxVocabulary);
    spec.hidden = r.integer(QStringLiteral("hidden"), spec.hidden, P::kMinHidden, P::kMaxHidden);
    spec.modelSeed = r.integer(QStringLiteral("seed"), spec.modelSeed, 0, kMaxSeed);
    spec.twinShare = r.number(QStringLiteral("twin_share"), spec.twinShare, 0.0, 1.0);
    spec.twinDistance = r.number(QStringLiteral("twin_distance"), spec.twinDistance, 0.0, 1.0);
    spec.logitScale = r.number(QStringLiteral("logit_scale"), spec.logitScale, 1e-3, 100.0);
    r.finish();
}

void readPlan(JsonObjectReader& r, Spec& spec)
{
    const QJsonArray steps = r.array(QStringLiteral("plan"));
    if (steps.isEmpty() || steps.size() > 32)
        throw JsonFieldError{QStringLiteral("plan"), QStringLiteral("must hold 1..32 steps")};
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const QString path = QStringLiteral("plan.%1").arg(i);
        if (!steps[i].isObject())
            throw JsonFieldError{path, QStringLiteral("must be an object {\"up_to\": N, \"kernel\": name}")};
        JsonObjectReader step(steps[i].toObject(), path);
        PlanStepSpec s;
        s.upTo = step.integer(QStringLiteral("up_to"), {}, 1, engine::kMaxBatch);
        s.kernel = step.string(QStringLiteral("kernel"), {});
        engine::HeadKernel kernel;
        if (!engine::parseKernelName(s.kernel.toStdString(), kernel))
            throw JsonFieldError{
                step.keyPath(QStringLiteral("kernel")),
                QStringLiteral(
                    "unknown kernel \"%1\": must be eigen-gemv, eigen-gemm, split-k-S (S in 2..%2) or invariant")
                    .arg(s.kernel.left(40))
                    .arg(engine::kMaxSplits)};
        if (!spec.plan.isEmpty() && s.upTo <= spec.plan.back().upTo)
            throw JsonFieldError{step.keyPath(QStringLiteral("up_to")), QStringLiteral("must grow from step to step")};
        step.finish();
        spec.plan << s;
    }
}

void readTrace(JsonObjectReader& parent, Spec& spec)
{
    JsonObjectReader r(parent.object(QStringLiteral("trace")), QStringLiteral("trace"));
    const int given =
        int(r.has(QStringLiteral("seed"))) + int(r.has(QStringLiteral("file"))) + int(r.has(QStringLiteral("sizes")));
    if (given != 1)
        throw JsonFieldError{QStringLiteral("trace"),
                             QStringLiteral("must hold exactly one of \"seed\", \"file\" or \"sizes\"")};
    if (r.has(QStringLiteral("seed"))) {
        spec.traceSeed = r.integer(QStringLiteral("seed"), {}, 0, kMaxSeed);
    } else if (r.has(QStringLiteral("file"))) {
        spec.traceFile = r.string(QStringLiteral("file"), {});
        if (spec.traceFile.isEmpty())
            throw JsonFieldError{r.keyPath(QStringLiteral("file")), QStringLiteral("must name a file")};
    } else {
        const QJsonArray sizes = r.array(QStringLiteral("sizes"));
        if (sizes.isEmpty() || sizes.size() > engine::BatchDecodeParameters::kMaxSteps)
            throw JsonFieldError{
                r.keyPath(QStringLiteral("sizes")),
                QStringLiteral("must hold 1..%1 batch sizes").arg(engine::BatchDecodeParameters::kMaxSteps)};
        for (qsizetype i = 0; i < sizes.size(); ++i)
            spec.traceSizes << JsonObjectReader::integerAt(sizes[i], r.keyPath(QStringLiteral("sizes.%1").arg(i)), 1,
                                                           engine::kMaxBatch);
    }
    r.finish();
}

QJsonArray planToJson(const QList<PlanStepSpec>& steps)
{
    QJsonArray plan;
    for (const PlanStepSpec& s : steps)
        plan.append(QJsonObject{{QStringLiteral("up_to"), s.upTo}, {QStringLiteral("kernel"), s.kernel}});
    return plan;
}

Spec readSpec(const QJsonObject& root)
{
    JsonObjectReader r(root, QString());
    Spec spec;
    const ExperimentHeader header = readHeader(r, batchInvarianceKind().id());
    spec.name = header.name;
    spec.description = header.description;
    spec.study =
        static_cast<Spec::Study>(batchStudyNames().indexOf(r.string(QStringLiteral("study"), {}, batchStudyNames())));
    if (spec.study == Spec::Study::ModelDecode) {
        spec.modelFile = r.string(QStringLiteral("model-file"), {});
        if (spec.modelFile.isEmpty())
            throw JsonFieldError{QStringLiteral("model-file"), QStringLiteral("must name the GGUF model file")};
        spec.promptText = r.string(QStringLiteral("prompt"), {});
        if (spec.promptText.isEmpty())
            throw JsonFieldError{QStringLiteral("prompt"), QStringLiteral("must not be empty")};
        spec.steps = r.integer(QStringLiteral("steps"), spec.steps, 1, engine::BatchDecodeParameters::kMaxSteps);
        spec.maxBatch = r.integer(QStringLiteral("max_batch"), spec.maxBatch, 1, engine::kMaxBatch);
        if (r.has(QStringLiteral("plan")))
            readPlan(r, spec);
        r.finish();
        return spec;
    }
    if (r.has(QStringLiteral("model"))) {
        JsonObjectReader model(r.object(QStringLiteral("model")), QStringLiteral("model"));
        readModel(model, spec);
    }
    spec.maxBatch = r.integer(QStringLiteral("max_batch"), spec.maxBatch, 1, engine::kMaxBatch);
    if (r.has(QStringLiteral("plan")))
        readPlan(r, spec);
    const QString promptKey = QStringLiteral("prompt");
    if (spec.study == Spec::Study::OneStep && r.has(QStringLiteral("precisions"))) {
        const QJsonArray precisions = r.array(QStringLiteral("precisions"));
        if (precisions.isEmpty() || precisions.size() > 3)
            throw JsonFieldError{
                QStringLiteral("precisions"),
                QStringLiteral("must name 1..3 of %1").arg(precisionList().join(QStringLiteral(", ")))};
        spec.precisions.clear();
        for (qsizetype i = 0; i < precisions.size(); ++i) {
            const QString path = QStringLiteral("precisions.%1").arg(i);
            const QString name = precisions[i].toString();
            if (!precisions[i].isString() || !precisionList().contains(name))
                throw JsonFieldError{path, QStringLiteral("unknown precision: must be one of %1")
                                               .arg(precisionList().join(QStringLiteral(", ")))};
            if (spec.precisions.contains(name))
                throw JsonFieldError{path, QStringLiteral("repeats %1").arg(name)};
            spec.precisions << name;
        }
    }
    if (spec.study == Spec::Study::OneStep) {
        if (r.has(QStringLiteral("search"))) {
            JsonObjectReader search(r.object(QStringLiteral("search")), QStringLiteral("search"));
            spec.searchSeed = search.integer(QStringLiteral("seed"), spec.searchSeed, 0, kMaxSeed);
            spec.searchPrompts = search.integer(QStringLiteral("prompts"), spec.searchPrompts, 1,
                                                engine::BatchFlipParameters::kMaxPrompts);
            spec.promptLength = search.integer(QStringLiteral("prompt_length"), spec.promptLength, 0,
                                               engine::BatchDecodeParameters::kMaxPromptLength);
            spec.searchSteps = search.integer(QStringLiteral("steps"), spec.searchSteps, 1,
                                              engine::BatchFlipParameters::kMaxStepsPerPrompt);
            search.finish();
        }
    } else {
        spec.precision = r.string(QStringLiteral("precision"), spec.precision, precisionList());
        if (r.has(promptKey)) {
            JsonObjectReader prompt(r.object(promptKey), promptKey);
            spec.promptSeed = prompt.integer(QStringLiteral("seed"), spec.promptSeed, 0, kMaxSeed);
            spec.promptLength = prompt.integer(QStringLiteral("length"), spec.promptLength, 0,
                                               engine::BatchDecodeParameters::kMaxPromptLength);
            prompt.finish();
        }
        spec.runs = r.integer(QStringLiteral("runs"), spec.runs, 1, engine::BatchDecodeParameters::kMaxRuns);
        spec.steps = r.integer(QStringLiteral("steps"), spec.steps, 1, engine::BatchDecodeParameters::kMaxSteps);
        if (r.has(QStringLiteral("trace")))
            readTrace(r, spec);
        spec.measureCost = r.boolean(QStringLiteral("measure_cost"), spec.measureCost);
    }
    r.finish();
    return spec;
}

}  // namespace

QString BatchInvarianceSpec::studyName() const { return batchStudyNames().at(static_cast<int>(study)); }

QStringList batchStudyNames()
{
    return {QStringLiteral("one-step"), QStringLiteral("decode"), QStringLiteral("model-decode")};
}

engine::Result<BatchInvarianceSpec> parseBatchInvariance(const QJsonObject& root, const QString& source)
{
    return readStrictly<BatchInvarianceSpec>(readSpec, root, source);
}

engine::Result<BatchInvarianceSpec> readBatchInvarianceFile(const QString& path)
{
    return readExperimentFile<BatchInvarianceSpec>(path, parseBatchInvariance);
}

QJsonObject toJson(const BatchInvarianceSpec& spec)
{
    QJsonObject root = headerToJson({spec.name, spec.description}, batchInvarianceKind().id());
    root.insert(QStringLiteral("study"), spec.studyName());
    if (spec.study == BatchInvarianceSpec::Study::ModelDecode) {
        root.insert(QStringLiteral("model-file"), spec.modelFile);
        root.insert(QStringLiteral("prompt"), spec.promptText);
        root.insert(QStringLiteral("steps"), spec.steps);
        root.insert(QStringLiteral("max_batch"), spec.maxBatch);
        if (!spec.plan.isEmpty())
            root.insert(QStringLiteral("plan"), planToJson(spec.plan));
        return root;
    }
    root.insert(QStringLiteral("model"), QJsonObject{{QStringLiteral("vocabulary"), spec.vocabulary},
                                                     {QStringLiteral("hidden"), spec.hidden},
                                                     {QStringLiteral("seed"), spec.modelSeed},
                                                     {QStringLiteral("twin_share"), spec.twinShare},
                                                     {QStringLiteral("twin_distance"), spec.twinDistance},
                                                     {QStringLiteral("logit_scale"), spec.logitScale}});
    root.insert(QStringLiteral("max_batch"), spec.maxBatch);
    if (!spec.plan.isEmpty())
        root.insert(QStringLiteral("plan"), planToJson(spec.plan));
    if (spec.study == BatchInvarianceSpec::Study::OneStep) {
        root.insert(QStringLiteral("precisions"), QJsonArray::fromStringList(spec.precisions));
        root.insert(QStringLiteral("search"), QJsonObject{{QStringLiteral("seed"), spec.searchSeed},
                                                          {QStringLiteral("prompts"), spec.searchPrompts},
                                                          {QStringLiteral("prompt_length"), spec.promptLength},
                                                          {QStringLiteral("steps"), spec.searchSteps}});
        return root;
    }
    root.insert(QStringLiteral("precision"), spec.precision);
    root.insert(QStringLiteral("prompt"),
                QJsonObject{{QStringLiteral("seed"), spec.promptSeed}, {QStringLiteral("length"), spec.promptLength}});
    root.insert(QStringLiteral("runs"), spec.runs);
    root.insert(QStringLiteral("steps"), spec.steps);
    QJsonObject trace;
    if (!spec.traceFile.isEmpty()) {
        trace.insert(QStringLiteral("file"), spec.traceFile);
    } else if (!spec.traceSizes.isEmpty()) {
        QJsonArray sizes;
        for (qint64 b : spec.traceSizes)
            sizes.append(b);
        trace.insert(QStringLiteral("sizes"), sizes);
    } else {
        trace.insert(QStringLiteral("seed"), spec.traceSeed);
    }
    root.insert(QStringLiteral("trace"), trace);
    root.insert(QStringLiteral("measure_cost"), spec.measureCost);
    return root;
}

QString writeBatchInvarianceFile(const QString& path, const BatchInvarianceSpec& spec)
{
    return saveBytes(path, QJsonDocument(toJson(spec)).toJson(QJsonDocument::Indented));
}

engine::ToyModelParameters toModelParameters(const BatchInvarianceSpec& spec)
{
    engine::ToyModelParameters m;
    m.vocabulary = spec.vocabulary;
    m.hidden = spec.hidden;
    m.seed = static_cast<std::uint64_t>(spec.modelSeed);
    m.twinShare = spec.twinShare;
    m.twinDistance = spec.twinDistance;
    m.logitScale = spec.logitScale;
    m.precision = precisionOf(spec.precision);
    return m;
}

engine::KernelPlan toKernelPlan(const BatchInvarianceSpec& spec)
{
    if (spec.plan.isEmpty())
        return engine::KernelPlan::server();
    std::vector<engine::KernelPlan::Step> steps;
    for (const PlanStepSpec& s : spec.plan) {
        engine::HeadKernel kernel;
        engine::parseKernelName(s.kernel.toStdString(), kernel);  // checked when read
        steps.push_back({s.upTo, kernel});
    }
    return engine::KernelPlan::fromSteps(std::move(steps));
}

engine::Result<engine::BatchFlipParameters> toFlipParameters(const BatchInvarianceSpec& spec)
{
    engine::BatchFlipParameters p;
    p.model = toModelParameters(spec);
    p.precisions.clear();
    for (const QString& name : spec.precisions)
        p.precisions.push_back(precisionOf(name));
    p.maxBatch = spec.maxBatch;
    p.plan = toKernelPlan(spec);
    p.searchSeed = static_cast<std::uint64_t>(spec.searchSeed);
    p.prompts = spec.searchPrompts;
    p.promptLength = spec.promptLength;
    p.stepsPerPrompt = spec.searchSteps;
    return p;
}

engine::Result<engine::BatchDecodeParameters> toDecodeParameters(const BatchInvarianceSpec& spec,
                                                                 const QString& baseDir, const QString& source)
{
    engine::BatchDecodeParameters p;
    p.model = toModelParameters(spec);
    p.promptSeed = static_cast<std::uint64_t>(spec.promptSeed);
    p.promptLength = spec.promptLength;
    p.runs = spec.runs;
    p.steps = spec.steps;
    p.maxBatch = spec.maxBatch;
    p.plan = toKernelPlan(spec);
    p.traceSeed = static_cast<std::uint64_t>(spec.traceSeed);
    if (!spec.traceSizes.isEmpty())
        p.trace.assign(spec.traceSizes.begin(), spec.traceSizes.end());
    if (!spec.traceFile.isEmpty()) {
        const QString path = QDir(baseDir).absoluteFilePath(spec.traceFile);
        const auto bytes = readInputFile(path);
        if (!bytes)
            return Error{
                QStringLiteral("%1: trace.file: %2").arg(source, QString::fromStdString(bytes.error())).toStdString()};
        const auto trace = engine::parseLoadTrace(bytes.value().toStdString());
        if (!trace)
            return Error{QStringLiteral("%1: trace.file: %2: %3")
                             .arg(source, spec.traceFile, QString::fromStdString(trace.error()))
                             .toStdString()};
        p.trace = trace.value();
    }
    return p;
}

const ExperimentKind& batchInvarianceKind()
{
    static const SpecKind<BatchInvarianceSpec> kind(
        QStringLiteral("batch-invariance"), QObject::tr("Batch invariance"), parseBatchInvariance,
        [](const BatchInvarianceSpec& spec, const RunContext& c) {
            return batchInvarianceResult(
                spec, c.baseDir, runBatchInvariance(spec, c.baseDir, c.source, c.threads, c.control), c.threads);
        });
    return kind;
}

}  // namespace logitlab::app
