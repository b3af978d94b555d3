// The seed-sweep experiment as a file describes it (experiment-file format version 1):
//   {"logitlab": 1, "experiment": "seed-sweep", "name": ..., "distribution": {...},
//    "semantics": "lesson", "chain": "top-p=0.9", "arithmetic": "exact", "rng": "mulberry32",
//    "seeds": {"first": 42, "count": 1} or [42, 43, ...], "draws": 1000, "compare": [42, 43]}
// Reading is strict, like every experiment file: errors name the file and the key.
#pragma once

#include "experiment_file.h"
#include "result.h"
#include "sampler_chain.h"
#include "seed_sweep.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace logitlab::app {

struct SeedSweepSpec {
    QString name = QStringLiteral("seed-sweep");
    QString description;
    DistributionSpec distribution;
    QString semantics = QStringLiteral("lesson");
    QString chain = QStringLiteral("temperature=1");  // compact chain text under `semantics`
    QString arithmetic;  // "exact" or "library"; empty: the preset's default
    QString rng = QStringLiteral("mulberry32");
    bool seedRange = true;      // seeds given as first + count (else the explicit list)
    qint64 firstSeed = 0;
    qint64 seedCount = 100;
    QList<qint64> seedList;
    qint64 draws = 1000;        // per seed
    std::optional<std::pair<qint64, qint64>> compare;

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
// or when it is stateful (a sweep over one fixed distribution needs a stateless chain). Cheap:
// the page checks it before starting a run.
engine::Result<engine::SamplerChain> sweepChain(const SeedSweepSpec& spec);

// Resolves the distribution, builds and evaluates the chain, and checks what the engine would
// refuse (memory, seeds, draws), all before any work. Errors name the file and the key.
engine::Result<SeedSweepInput> toSeedSweepInput(const SeedSweepSpec& spec, const QString& baseDir,
                                                const QString& source);

}  // namespace logitlab::app
