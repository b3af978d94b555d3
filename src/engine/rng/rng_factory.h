// Makes an Rng from its name and seed; the list of names is what the CLI and GUI offer.
#pragma once

#include "engine/core/result.h"
#include "engine/rng/rng.h"

#include <memory>
#include <string>
#include <vector>

namespace logitlab::engine {

const std::vector<std::string>& rngNames();

// Error when the name is unknown; the message lists the known names.
Result<std::unique_ptr<Rng>> makeRng(const std::string& name, std::uint64_t seed);

}  // namespace logitlab::engine
