// The batch-invariance experiment as a file describes it (experiment-file format version 1):
//   {"logitlab": 1, "experiment": "batch-invariance", "name": ..., "study": "one-step" | "decode",
//    "model": {"vocabulary": 4096, "hidden": 256, "seed": 1, "twin_share": 0.05,
//              "twin_distance": 1e-6, "logit_scale": 3},
//    "max_batch": 16, "plan": [{"up_to": 1, "kernel": "eigen-gemv"}, ...],
//    one-step: "precisions": ["float32", "bf16", "float16"],
//              "search": {"seed": 1, "prompts": 8, "prompt_length": 8, "steps": 16}
//    decode:   "precision": "float32", "prompt": {"seed": 1, "length": 8}, "runs": 100,
//              "steps": 50, "trace": {"seed": 1} | {"file": "load.txt"} | {"sizes": [1, 8, ...]},
//              "measure_cost": true}
//    model-decode (batch_model_decode.h): "model-file": "m.gguf", "prompt": "text", "steps": 32
//              (no "model" object: the file is the model)
// Reading is strict, like every experiment file: errors name the file and the key.
#pragma once

#include "app/kinds/experiment_kind.h"
#include "engine/core/result.h"
#include "engine/experiments/batch_decode.h"
#include "engine/experiments/batch_flip.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace logitlab::app {

struct PlanStepSpec {
    qint64 upTo = 1;
    QString kernel;
    friend bool operator==(const PlanStepSpec&, const PlanStepSpec&) = default;
};

struct BatchInvarianceSpec {
    enum class Study { OneStep, Decode, ModelDecode };

    QString name = QStringLiteral("batch-invariance");
    QString description;
    Study study = Study::Decode;
    // The model.
    qint64 vocabulary = 4096;
    qint64 hidden = 256;
    qint64 modelSeed = 1;
    double twinShare = 0.05;
    double twinDistance = 1e-6;
    double logitScale = 3.0;
    qint64 maxBatch = 16;
    QList<PlanStepSpec> plan;  // empty: the server's plan
    // One step.
    QStringList precisions{QStringLiteral("float32"), QStringLiteral("bf16"), QStringLiteral("float16")};
    qint64 searchSeed = 1;
    qint64 searchPrompts = 8;
    qint64 searchSteps = 16;
    // Both: the prompt's length; the decode's prompt seed.
    qint64 promptLength = 8;
    qint64 promptSeed = 1;
    // Decode.
    QString precision = QStringLiteral("float32");
    qint64 runs = 100;
    qint64 steps = 50;
    qint64 traceSeed = 1;
    QString traceFile;         // relative to the experiment file
    QList<qint64> traceSizes;  // inline trace
    bool measureCost = true;
    // Model decode: a GGUF model (relative to the experiment file) and the prompt's text.
    QString modelFile;
    QString promptText = QStringLiteral("The capital of France is");

    QString studyName() const;
    friend bool operator==(const BatchInvarianceSpec&, const BatchInvarianceSpec&) = default;
};

QStringList batchStudyNames();  // "one-step", "decode", "model-decode"

engine::Result<BatchInvarianceSpec> parseBatchInvariance(const QJsonObject& root, const QString& source);
engine::Result<BatchInvarianceSpec> readBatchInvarianceFile(const QString& path);
QJsonObject toJson(const BatchInvarianceSpec& spec);
QString writeBatchInvarianceFile(const QString& path, const BatchInvarianceSpec& spec);  // error or empty

// The engine's parameters; reads the trace file. Errors name the file and the key.
engine::ToyModelParameters toModelParameters(const BatchInvarianceSpec& spec);
engine::KernelPlan toKernelPlan(const BatchInvarianceSpec& spec);
engine::Result<engine::BatchFlipParameters> toFlipParameters(const BatchInvarianceSpec& spec);
engine::Result<engine::BatchDecodeParameters> toDecodeParameters(const BatchInvarianceSpec& spec,
                                                                 const QString& baseDir, const QString& source);

// The batch-invariance experiment kind: why temperature 0 still varies on a server
// (batch_invariance_spec.h reads the file, batch_invariance_job.h runs it).
const ExperimentKind& batchInvarianceKind();

}  // namespace logitlab::app
