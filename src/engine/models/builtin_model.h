// The n-gram model that ships with LogitLab: trained at build time on the project's own docs
// (tools/train_ngram, resources/MODEL-SOURCES.md) and compiled in, so the loop runs offline.
#pragma once

#include "engine/models/ngram_model.h"

#include <memory>
#include <string>

namespace logitlab::engine {

// Read from the compiled-in bytes once (thread-safe), shared afterwards.
std::shared_ptr<const NgramModel> builtinModel();

// The files it was trained on, relative to the checkout ("README.md, docs/architecture.md, ...").
std::string builtinModelSources();

}  // namespace logitlab::engine
