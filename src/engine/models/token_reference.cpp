#include "engine/models/token_reference.h"

#include "engine/core/number_format.h"
#include "engine/io/logits_parser.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace logitlab::engine {

namespace {

bool isSeparator(char c) { return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::vector<std::string_view> items(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSeparator(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isSeparator(text[i]))
            ++i;
        if (i > start)
            out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::string quoted(std::string_view field, std::size_t index, std::string_view item)
{
    return std::string(field) + ": item " + std::to_string(index + 1) + " '" + std::string(item) + "'";
}

}  // namespace

Result<std::int32_t> resolveToken(std::string_view item, const std::vector<std::string>& names)
{
    const auto named = std::find(names.begin(), names.end(), item);
    if (named != names.end())
        return static_cast<std::int32_t>(named - names.begin());
    std::string_view digits = item;
    if (!digits.empty() && digits.front() == '#')
        digits.remove_prefix(1);
    long long id = -1;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
        return Error{"is neither a token in the table nor a token id"};
    if (id < 0 || static_cast<unsigned long long>(id) >= names.size())
        return Error{"is outside the vocabulary of " + std::to_string(names.size()) + " tokens"};
    return static_cast<std::int32_t>(id);
}

Result<std::vector<std::int32_t>> parseTokenReferences(std::string_view text, const std::vector<std::string>& names,
                                                       std::string_view field)
{
    std::vector<std::int32_t> ids;
    const auto all = items(text);
    for (std::size_t i = 0; i < all.size(); ++i) {
        auto id = resolveToken(all[i], names);
        if (!id)
            return Error{quoted(field, i, all[i]) + " " + id.error()};
        ids.push_back(*id);
    }
    return ids;
}

std::string tokenReference(std::int32_t id, const std::vector<std::string>& names)
{
    if (id >= 0 && static_cast<std::size_t>(id) < names.size()) {
        const std::string& name = names[static_cast<std::size_t>(id)];
        const bool plain = !name.empty() && std::none_of(name.begin(), name.end(), isSeparator) &&
                           name.find(':') == std::string::npos && name.front() != '#';
        if (plain) {
            const auto back = resolveToken(name, names);
            if (back && *back == id)
                return name;
        }
    }
    return "#" + std::to_string(id);
}

std::string formatTokenReferences(const std::vector<std::int32_t>& ids, const std::vector<std::string>& names)
{
    std::string out;
    for (std::int32_t id : ids)
        out += (out.empty() ? "" : " ") + tokenReference(id, names);
    return out;
}

Result<std::string> parseBiasReferences(std::string_view text, const std::vector<std::string>& names,
                                        std::string_view field)
{
    std::string out;
    const auto all = items(text);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::size_t colon = all[i].rfind(':');
        if (colon == std::string_view::npos)
            return Error{quoted(field, i, all[i]) + " is not token:value"};
        auto id = resolveToken(all[i].substr(0, colon), names);
        if (!id)
            return Error{quoted(field, i, all[i]) + ": the token " + id.error()};
        std::string_view number = all[i].substr(colon + 1);
        if (!number.empty() && number.front() == '+')
            number.remove_prefix(1);
        const auto value = parseDouble(number);
        if (!value || std::isnan(*value) || *value == INFINITY)
            return Error{quoted(field, i, all[i]) + ": the value must be a number or -inf"};
        out += (out.empty() ? "" : "/") + std::to_string(*id) + "@" + formatDouble(*value);
    }
    return out;
}

std::string formatBiasReferences(std::string_view stageSpelling, const std::vector<std::string>& names)
{
    std::string out;
    for (std::string_view pair : detail::splitOn(stageSpelling, '/')) {
        const std::size_t at = pair.find('@');
        if (pair.empty() || at == std::string_view::npos)
            continue;
        std::int32_t id = 0;
        std::from_chars(pair.data(), pair.data() + at, id);
        out += (out.empty() ? "" : ", ") + tokenReference(id, names) + ":" + std::string(pair.substr(at + 1));
    }
    return out;
}

std::vector<std::int32_t> idsFromStageList(std::string_view stageSpelling)
{
    std::vector<std::int32_t> ids;
    for (std::string_view item : detail::splitOn(stageSpelling, '/')) {
        std::int32_t id = 0;
        if (!item.empty() && std::from_chars(item.data(), item.data() + item.size(), id).ec == std::errc())
            ids.push_back(id);
    }
    return ids;
}

std::string stageListFromIds(const std::vector<std::int32_t>& ids)
{
    std::string out;
    for (std::int32_t id : ids)
        out += (out.empty() ? "" : "/") + std::to_string(id);
    return out;
}

}  // namespace logitlab::engine
