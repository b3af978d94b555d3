// Makes a PDF written by QPdfWriter byte-reproducible. Qt 6 stamps /CreationDate with the wall
// clock and offers no way to set it; this rewrites it in place, to SOURCE_DATE_EPOCH when that is
// set (the reproducible-builds convention) and otherwise to nothing at all, as the rest of
// LogitLab's provenance carries no wall-clock time. The new text is never longer than the old,
// and the rest of the entry is padded with spaces, so every byte offset in the cross-reference
// table stays valid. (The other source of varying bytes, the order of the embedded font subsets,
// follows QHash's per-process seed; chart_export.cpp makes that seed deterministic while it
// writes a PDF.)
#pragma once

#include <QByteArray>
#include <QDateTime>

#include <optional>

namespace logitlab::app {

// SOURCE_DATE_EPOCH as a UTC time, or nothing when unset or not a whole number of seconds >= 0.
std::optional<QDateTime> sourceDateEpoch();

// `pdf` with its /CreationDate (and /ModDate, if any) set to `date` in UTC, or blanked when
// `date` is empty. A PDF without such entries comes back unchanged.
QByteArray withFixedPdfDates(QByteArray pdf, const std::optional<QDateTime>& date);

}  // namespace logitlab::app
