// Tokens named in a text field the way a person types them: by the name the table gives them
// ("users") or by id ("#12", or "12" when no token is named "12"). The Explorer's context
// (penalties, DRY, n-gram bans), logit-bias and DRY-breaker fields read and show tokens this way.
#pragma once

#include "engine/core/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace logitlab::engine {

// The id of `item`: an exact name first, then "#id" or a plain id below names.size().
Result<std::int32_t> resolveToken(std::string_view item, const std::vector<std::string>& names);

// Items separated by commas or whitespace; `field` starts every error, which names the item.
Result<std::vector<std::int32_t>> parseTokenReferences(std::string_view text, const std::vector<std::string>& names,
                                                       std::string_view field);

// How a token is written back: its name when that reads back as the same id, else "#id".
std::string tokenReference(std::int32_t id, const std::vector<std::string>& names);
std::string formatTokenReferences(const std::vector<std::int32_t>& ids, const std::vector<std::string>& names);

// "users:+2, #17:-inf" -> "0@2/17@-inf", the logit-bias stage's spelling (value finite or -inf).
Result<std::string> parseBiasReferences(std::string_view text, const std::vector<std::string>& names,
                                        std::string_view field);
// The stage's spelling back to "users:2, #17:-inf".
std::string formatBiasReferences(std::string_view stageSpelling, const std::vector<std::string>& names);

// Token ids in the stage spelling "13/198" and back.
std::vector<std::int32_t> idsFromStageList(std::string_view stageSpelling);
std::string stageListFromIds(const std::vector<std::int32_t>& ids);

}  // namespace logitlab::engine
