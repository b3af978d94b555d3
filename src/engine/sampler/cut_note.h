// One decision of a cut stage, recorded when a run asks for them (SamplerContext::cutNotes): which
// token, what the stage compared (a running total, a probability or a logit) against which cut,
// and whether the token stayed. Comparing the notes of an exact and a library run shows the
// tokens whose fate depends on rounding; equal logits on both sides of a cut are ties.
#pragma once

#include <cstdint>
#include <string>

namespace logitlab::engine {

struct CutNote {
    std::string stage;  // "top-p", "typical", "min-p", "epsilon", "eta", "xtc", "top-k"
    std::int32_t id = 0;
    double logit = 0.0;                      // the token's logit when the stage saw it
    double total = 0.0;                      // what the stage compared: running total, probability or logit
    double cut = 0.0;                        // what it was compared with, in the run's arithmetic
    const char* quantity = "running total";  // "running total", "p", "logit", "rank"
    bool kept = false;
};

}  // namespace logitlab::engine
