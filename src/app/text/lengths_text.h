// The reply lengths N of a junk-risk experiment as typed in a field: a list ("1,10,300") or a
// range ("1..2000 log 30", "10..1000 step 10"), and back. The page's field and anything else
// that takes lengths as text read them here; the file holds them as JSON (junk_risk_spec.h).
#pragma once

#include "app/kinds/junk_risk_spec.h"
#include "engine/core/result.h"

#include <QString>

namespace logitlab::app {

// "1,10,300", "1..2000 log 30" or "10..1000 step 10".
QString lengthsText(const LengthSpec& lengths);
// Errors start with "Lengths: " and say what is accepted.
engine::Result<LengthSpec> parseLengthsText(const QString& text);

}  // namespace logitlab::app
