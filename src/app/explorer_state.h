// The Explorer's state as a small versioned JSON file ("Save experiment..."): the tokens and
// logits, the sampler chain (semantics preset and values) and the draw settings. Until the runner's experiment-file
// format lands this is what File > Save/Open use for the Explorer; docs/explorer.md has the
// format. -inf logits (tokens of probability 0) are written as the string "-inf", as JSON
// has no infinity.
#pragma once

#include "distribution.h"
#include "result.h"
#include "explorer_chain.h"

#include <QByteArray>
#include <QString>

namespace logitlab::app {

struct ExplorerState {
    static constexpr int kVersion = 2;  // 2: every stage, the order and the context

    engine::Distribution distribution;
    engine::ExplorerChain chain;  // semantics preset, every stage's values, order, context
    QString rng = QStringLiteral("mulberry32");
    quint64 seed = 42;
    qint64 draws = 1000;
};

QByteArray explorerStateToJson(const ExplorerState& state);

// Errors name the source and the field: "lesson.json: logits[3]: not a number".
engine::Result<ExplorerState> explorerStateFromJson(const QByteArray& json, const QString& sourceName);

}  // namespace logitlab::app
