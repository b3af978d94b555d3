// What a stage may read besides the candidates: the token history (oldest first), the size of
// the whole vocabulary, and bookkeeping that lets the chain report each survivor's probability
// before truncation (p_raw) without keeping every removed token in the working array.
#pragma once

#include "engine/sampler/cut_note.h"
#include "engine/stages/stage_support.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace logitlab::engine {

struct SamplerContext {
    std::vector<std::int32_t> history;  // tokens already generated, oldest first
    std::size_t vocabSize = 0;          // V of the whole vocabulary (mirostat v1 needs it)

    // Product of the temperatures applied so far; logits in the array are base / scale. 0 after a
    // greedy temperature (T <= 0): p_raw is then the T -> 0 limit, 1 for the kept argmax.
    double temperatureScale = 1.0;
    // Logits changed per token (bias, penalties, DRY, n-gram bans), on the temperature-1 scale.
    std::map<std::int32_t, double> adjustedLogits;
    // When set, the cut stages record every decision here (what they compared, against what).
    std::vector<CutNote>* cutNotes = nullptr;

    void noteCut(CutNote note)
    {
        if (cutNotes)
            cutNotes->push_back(std::move(note));
    }

    // Records that token `id` now has `currentLogit` (on the current temperature scale).
    void noteAdjusted(std::int32_t id, double currentLogit)
    {
        // -inf is a ban and stays one; anything else stays finite, as the stages keep it.
        adjustedLogits[id] = temperatureScale > 0.0 && currentLogit != detail::kNegInf
                                 ? detail::saturated(currentLogit * temperatureScale)
                                 : currentLogit;
    }
};

}  // namespace logitlab::engine
