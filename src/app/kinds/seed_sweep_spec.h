// The seed-sweep experiment as a file describes it (experiment-file format version 1):
//   {"logitlab": 1, "experiment": "seed-sweep", "name": ..., "distribution": {...},
//    "semantics": "lesson", "chain": "top-p=0.9", "arithmetic": "exact", "rng": "mulberry32",
//    "seeds": {"first": 42, "count": 1} or [42, 43, ...], "draws": 1000, "compare": [42, 43]}
// or, with "source": "sequence", whole replies of the built-in model instead of draws from one
// distribution (docs/experiments.md, "Seed sweep over whole replies"):
//   {"logitlab": 1, "experiment": "seed-sweep", "source": "sequence", "model": "builtin",
//    "prompt": "The sampler", "steps": 12, "semantics": "llama.cpp", "chain": "", "rng": ...,
//    "seeds": {...}}
// with no "distribution", "draws" or "compare", any chain (stateful stages act across steps), a
// reply length of 1..kMaxLoopSteps and at most kMaxSequenceSweepPasses seeds x steps.
// Reading is strict, like every experiment file: errors name the file and the key.
#pragma once

#include "app/io/experiment_file.h"
#include "app/kinds/experiment_kind.h"
#include "app/kinds/loop_spec.h"
#include "engine/core/result.h"
#include "engine/experiments/seed_sweep.h"
#include "engine/sampler/sampler_chain.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace logitlab::app {

// Seeds x steps of a sweep over whole replies: each is one pass of the built-in model (about
// 0.1-0.5 ms), so the limit keeps a run under an hour on one core.
inline constexpr qint64 kMaxSequenceSweepPasses = 10'000'000;
// The prompt counts too: each seed's loop reads it whole (tokens, context, history), about one
// pass's work per this many prompt tokens (a 6 MB prompt x 10,000 seeds is 2e7 passes).
inline constexpr double kPromptTokensPerPass = 500.0;

struct SeedSweepSpec;
// Model passes a sweep over whole replies costs: seeds x (steps + prompt tokens / kPromptTokensPerPass).
double sequenceSweepPasses(const SeedSweepSpec& spec);

struct SeedSweepSpec {
    // What a seed changes: the draws from one fixed distribution, or a whole reply of the
    // built-in model to a prompt.
    enum class Source { Distribution, Sequence };
    Source source = Source::Distribution;
    QString name = QStringLiteral("seed-sweep");
    QString description;
    DistributionSpec distribution;
    QString semantics = QStringLiteral("lesson");
    QString chain = QStringLiteral("temperature=1");  // compact chain text under `semantics`
    QString arithmetic;                               // "exact" or "library"; empty: the preset's default
    QString rng = QStringLiteral("mulberry32");
    bool seedRange = true;  // seeds given as first + count (else the explicit list)
    qint64 firstSeed = 0;
    qint64 seedCount = 100;
    QList<qint64> seedList;
    qint64 draws = 1000;  // per seed
    std::optional<std::pair<qint64, qint64>> compare;
    QString prompt;     // Sequence: what every seed's reply continues
    QString modelFile;  // Sequence, "model": "gguf": the GGUF model (relative to the file); empty: the built-in one
    qint64 steps = 20;  // Sequence: tokens per reply

    bool isSequence() const { return source == Source::Sequence; }
    std::vector<std::uint64_t> seeds() const;
    friend bool operator==(const SeedSweepSpec&, const SeedSweepSpec&) = default;
};

engine::Result<SeedSweepSpec> parseSeedSweep(const QJsonObject& root, const QString& source);
engine::Result<SeedSweepSpec> readSeedSweepFile(const QString& path);
QJsonObject toJson(const SeedSweepSpec& spec);

struct SeedSweepInput {
    engine::SeedSweepParameters parameters;
    engine::Distribution distribution;  // for token names
};

// The spec's chain, parsed under its semantics; an error (naming the key) when it does not parse
// or, for draws from one fixed distribution, when it is stateful (that sweep needs a stateless
// chain; a sweep over whole replies takes any chain). Cheap: the page checks it before a run.
engine::Result<engine::SamplerChain> sweepChain(const SeedSweepSpec& spec);

// A sweep over whole replies as the loop experiment of one seed: the same prompt, chain, RNG
// and length, and `seed`.
LoopSpec replyLoopSpec(const SeedSweepSpec& spec, std::uint64_t seed);

// Resolves the distribution, builds and evaluates the chain, and checks what the engine would
// refuse (memory, seeds, draws), all before any work. Errors name the file and the key.
engine::Result<SeedSweepInput> toSeedSweepInput(const SeedSweepSpec& spec, const QString& baseDir,
                                                const QString& source);

// The seed-sweep experiment kind: many seeds of one chain, their goodness of fit and spread
// (seed_sweep_spec.h reads the file, seed_sweep_job.h runs it), or with "source": "sequence"
// whole replies of the built-in model per seed (sequence_sweep_job.h).
const ExperimentKind& seedSweepKind();

}  // namespace logitlab::app
