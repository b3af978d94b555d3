// A range of steps of a multi-step logits file: the "steps" key of a file distribution
// ("steps": "all" or {"from": 0, "to": -1}, both ends inclusive, negative counting from the
// end; docs/experiments.md, docs/import.md). Parsed in one place so every experiment that walks
// a file's steps (junk risk along a reply, seed sweeps over every step) reads it the same way.
#pragma once

#include "app/io/json_object_reader.h"
#include "engine/core/result.h"

#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <string>
#include <utility>

namespace logitlab::app {

struct StepRange {
    qint64 from = 0;  // first step; negative counts from the end (-1 is the last)
    qint64 to = -1;   // last step, inclusive; negative counts from the end

    bool isAll() const { return from == 0 && to == -1; }
    friend bool operator==(const StepRange&, const StepRange&) = default;
};

// Reads `key` of `r` ("all" or {"from", "to"}; "to" defaults to -1). Throws JsonFieldError
// naming the key ("distribution.steps.from"). The range is checked against a file only by
// resolveStepRange: its length is not known here.
StepRange readStepRange(JsonObjectReader& r, const QString& key = QStringLiteral("steps"));
// "all" for the whole array, else {"from", "to"}: what readStepRange reads back equal.
QJsonValue stepRangeToJson(const StepRange& range);
// "all" or "3..-1", for provenance, summaries and the pages' step fields.
QString describeStepRange(const StepRange& range);
// A range as typed in a page's field: "all" (or nothing), "FROM..TO" or "FROM" (to the end);
// negative counts from the end. What describeStepRange writes reads back equal.
engine::Result<StepRange> parseStepRangeText(const QString& text);

// The first and last step (from 0, inclusive) `range` names in an array of `steps` steps.
// Errors start with `what` (the file) and `key`: a range outside the array, from after to, or
// an array of one step (a single distribution: use "row").
engine::Result<std::pair<std::uint64_t, std::uint64_t>> resolveStepRange(const StepRange& range, std::uint64_t steps,
                                                                         const std::string& what,
                                                                         const std::string& key = "steps");

}  // namespace logitlab::app
