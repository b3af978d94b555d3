// What an Explorer export says about where its numbers came from: the semantics, every stage
// value that is set, biases and breakers and context by token, the stage order, the chain as
// text, where the table came from, its size (and its logits when small), and the draw settings.
#pragma once

#include "app/io/provenance.h"
#include "app/kinds/explorer_state.h"

#include <QString>

namespace logitlab::app {

// `chainText` is the chain as the page shows it; `source` where the table came from
// ("lesson preset: ...", "file: ...").
Provenance explorerProvenance(const ExplorerState& state, const QString& chainText, const QString& source);

}  // namespace logitlab::app
