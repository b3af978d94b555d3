// The Explorer's state as a small versioned JSON file ("Save experiment..."): the tokens and
// logits, the sampler chain (semantics preset and values) and the draw settings. File > Save/Open
// use it for the Explorer; docs/explorer.md has the format. -inf logits (tokens of probability 0)
// are written as the string "-inf", as JSON has no infinity. It is read as strictly as an
// experiment file: a value of the wrong type, out of the range the Explorer holds, or a key
// nobody knows is refused with the key named, never clamped or replaced by a default.
#pragma once

#include "app/kinds/experiment_kind.h"
#include "engine/core/result.h"
#include "engine/sampler/distribution.h"
#include "engine/sampler/explorer_chain.h"

#include <QByteArray>
#include <QString>

namespace logitlab::app {

struct ExplorerState {
    // 2: every stage, the order and the context; 3: every key spelt as its CLI option ("top-k").
    static constexpr int kVersion = 3;
    static constexpr quint64 kMaxSeed = 2'147'483'647;  // what the Explorer's seed box holds
    static constexpr qint64 kMaxDraws = 10'000'000;     // and its draw count
    // The probability chart's bars: the top N tokens by probability, then one for the rest.
    static constexpr int kDefaultBars = 20;
    static constexpr int kMaxBars = 200;

    engine::Distribution distribution;
    engine::ExplorerChain chain;  // semantics preset, every stage's values, order, context
    QString rng = QStringLiteral("mulberry32");
    quint64 seed = 42;
    qint64 draws = 1000;
    int bars = kDefaultBars;  // "chart": {"bars": N}, written when not the default
};

QByteArray explorerStateToJson(const ExplorerState& state);

// Errors name the source and the field: "lesson.json: logits[3]: not a number".
engine::Result<ExplorerState> explorerStateFromJson(const QByteArray& json, const QString& sourceName);

// The "format" value of the Explorer's state files, which carry no "experiment" key.
inline constexpr char kExplorerFormat[] = "logitlab-explorer";

// The Explorer's saved state as an experiment kind: `logitlab-cli run` on a file the Explorer
// saved writes its token table, temperature sweep, draws and preset comparison
// (explorer_state.h reads the file, explorer_run.h computes the views).
const ExperimentKind& explorerKind();

}  // namespace logitlab::app
