// Parsers for logits and token names given as text: a comma list on the command line, or a
// file with one number per line or `token,logit` CSV rows. Every error names the field and
// the place (item number, or file:line).
#pragma once

#include "engine/core/result.h"
#include "engine/sampler/distribution.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

// Parses one number, accepting a leading '+' and "-inf"/"-infinity". Nothing else may follow.
std::optional<double> parseDouble(std::string_view text);

// "3,2,1.5" -> {3, 2, 1.5}. `field` names the list in messages ("logits").
Result<std::vector<double>> parseNumberList(std::string_view text, std::string_view field);

// "users,data" -> {"users", "data"}; items are trimmed and may not be empty.
Result<std::vector<std::string>> parseTokenList(std::string_view text);

// NaN and +inf are refused (with the item's position); -inf is a token of probability 0, but
// not every logit may be -inf. `field` names the list in messages.
std::optional<std::string> validateLogits(const Eigen::Ref<const Eigen::ArrayXd>& logits,
                                          std::string_view field = "logits");

// File contents: one number per line, or `token,logit` CSV (RFC 4180 quoting; an optional
// `token,logit` header). Blank lines and lines starting with '#' are skipped.
Result<Distribution> parseLogitsText(std::string_view text, std::string_view sourceName);

// Splits one CSV record (no embedded newlines) into fields, honouring "quoted, fields" and "".
Result<std::vector<std::string>> splitCsvRecord(std::string_view line);

}  // namespace logitlab::engine
