// Rows pasted from a spreadsheet (tab-separated) or typed as CSV: `token<TAB>logit`, or a
// single logit per row. Good rows are kept; each bad row is reported by its 1-based row number
// so the user can fix exactly those.
#pragma once

#include "engine/sampler/distribution.h"

#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

struct RowProblem {
    int row = 0;          // 1-based, counting every line of the pasted text
    std::string message;  // e.g. "'abc' is not a number"
};

struct PastedTable {
    Distribution distribution;  // the good rows, in order
    std::vector<RowProblem> problems;
};

// A first row whose logit is not a number is taken as a header and skipped. Blank rows are
// skipped. NaN and +inf logits are problems; -inf is allowed (a token of probability 0).
PastedTable parsePastedTable(std::string_view text);

}  // namespace logitlab::engine
