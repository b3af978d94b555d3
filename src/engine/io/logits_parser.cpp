#include "engine/io/logits_parser.h"

#include "engine/core/input_limits.h"
#include "engine/core/number_format.h"
#include "engine/stages/stage_support.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace logitlab::engine {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// A parsed logit that no distribution can hold, described for an error message.
std::optional<std::string> illegalLogit(double value)
{
    if (std::isnan(value))
        return "is NaN";
    if (value == std::numeric_limits<double>::infinity())
        return "is +inf (only -inf, probability 0, is allowed)";
    return std::nullopt;
}

std::string tooManyValues(const std::string& source)
{
    return source + ": more than " + groupedNumber(kMaxValues) + " logits (the limit for one distribution)";
}

// Files that are not UTF-8 text, named for what they are instead of failing on line 1 with
// bytes no message can show.
std::optional<std::string> notPlainText(std::string_view text)
{
    if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF")
        return "is UTF-16 text; save it as UTF-8";
    const auto nul = text.find('\0');
    if (nul != std::string_view::npos)
        return "holds a NUL byte at line " +
               std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')) +
               ": not a text file (UTF-16 text must be saved as UTF-8)";
    return std::nullopt;
}

std::string quoted(std::string_view s)
{
    constexpr std::size_t kMax = 40;
    std::string out(s.substr(0, kMax));
    if (s.size() > kMax)
        out += "...";
    return "'" + out + "'";
}

}  // namespace

std::optional<double> parseDouble(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return std::nullopt;
    double value = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (end != text.data() + text.size())
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        // from_chars leaves `value` untouched here. A negative exponent means underflow: the
        // nearest double is a signed zero. Anything else overflowed and is refused like +inf.
        const auto e = text.find_last_of("eE");
        if (e == std::string_view::npos || e + 1 >= text.size() || text[e + 1] != '-')
            return std::nullopt;
        return text.front() == '-' ? -0.0 : 0.0;
    }
    if (ec != std::errc())
        return std::nullopt;
    return value;
}

Result<std::vector<double>> parseNumberList(std::string_view text, std::string_view field)
{
    if (trim(text).empty())
        return Error{std::string(field) + ": the list is empty"};
    std::vector<double> values;
    const auto parts = detail::splitOn(text, ',');
    if (parts.size() > kMaxValues)
        return Error{std::string(field) + ": " + groupedNumber(parts.size()) + " items; the limit is " +
                     groupedNumber(kMaxValues)};
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto value = parseDouble(parts[i]);
        if (!value)
            return Error{std::string(field) + ": item " + std::to_string(i + 1) + " (" + quoted(trim(parts[i])) +
                         ") is not a number"};
        values.push_back(*value);
    }
    return values;
}

Result<std::vector<std::string>> parseTokenList(std::string_view text)
{
    if (trim(text).empty())
        return Error{"tokens: the list is empty"};
    std::vector<std::string> tokens;
    const auto parts = detail::splitOn(text, ',');
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto token = trim(parts[i]);
        if (token.empty())
            return Error{"tokens: item " + std::to_string(i + 1) + " is empty"};
        if (auto problem = tokenNameProblem(token))
            return Error{"tokens: item " + std::to_string(i + 1) + " " + *problem};
        tokens.emplace_back(token);
    }
    return tokens;
}

std::optional<std::string> validateLogits(const Eigen::Ref<const Eigen::ArrayXd>& logits, std::string_view field)
{
    const std::string name(field);
    if (logits.size() == 0)
        return name + ": the list is empty";
    bool anyFinite = false;
    for (Eigen::Index i = 0; i < logits.size(); ++i) {
        if (auto problem = illegalLogit(logits[i]))
            return name + ": item " + std::to_string(i + 1) + " " + *problem;
        anyFinite = anyFinite || std::isfinite(logits[i]);
    }
    if (!anyFinite)
        return name + ": every logit is -inf, so no token has any probability";
    return std::nullopt;
}

Result<std::vector<std::string>> splitCsvRecord(std::string_view line)
{
    std::vector<std::string> fields(1);
    bool inQuotes = false;
    bool wasQuoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') {
                    fields.back() += '"';
                    ++i;
                } else {
                    inQuotes = false;
                }
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            if (!trim(fields.back()).empty() || wasQuoted)
                return Error{"a quote inside an unquoted field"};
            fields.back().clear();
            inQuotes = true;
            wasQuoted = true;
        } else if (c == ',') {
            fields.emplace_back();
            wasQuoted = false;
        } else if (wasQuoted) {
            if (!std::isspace(static_cast<unsigned char>(c)))
                return Error{"text after a closing quote"};
        } else {
            fields.back() += c;
        }
    }
    if (inQuotes)
        return Error{"an unterminated quoted field"};
    return fields;
}

Result<Distribution> parseLogitsText(std::string_view text, std::string_view sourceName)
{
    const std::string source(sourceName);
    // Excel and Notepad start UTF-8 files with a byte order mark; it is not part of the data.
    constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
    if (text.substr(0, kUtf8Bom.size()) == kUtf8Bom)
        text.remove_prefix(kUtf8Bom.size());
    if (auto problem = notPlainText(text))
        return Error{source + ": " + *problem};
    Distribution dist;
    std::vector<double> logits;
    enum class Format { Unknown, Numbers, Csv } format = Format::Unknown;

    const auto lines = detail::splitOn(text, '\n');
    for (std::size_t lineNo = 1; lineNo <= lines.size(); ++lineNo) {
        std::string_view line = lines[lineNo - 1];
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const std::string where = source + ":" + std::to_string(lineNo) + ": ";
        if (trim(line).empty() || trim(line).front() == '#')
            continue;

        const bool isCsv = line.find(',') != std::string_view::npos;
        if (format == Format::Unknown) {
            format = isCsv ? Format::Csv : Format::Numbers;
            if (isCsv) {
                auto header = splitCsvRecord(line);
                if (header.ok() && header->size() == 2 && trim(header->at(0)) == "token" &&
                    trim(header->at(1)) == "logit")
                    continue;
            }
        }
        if (format == Format::Numbers) {
            if (isCsv)
                return Error{where + "a token,logit row in a file of plain numbers"};
            const auto value = parseDouble(line);
            if (!value)
                return Error{where + "logit " + quoted(trim(line)) + " is not a number"};
            if (auto problem = illegalLogit(*value))
                return Error{where + "logit " + *problem};
            if (logits.size() == kMaxValues)
                return Error{tooManyValues(source)};
            logits.push_back(*value);
            continue;
        }
        auto fields = splitCsvRecord(line);
        if (!fields.ok())
            return Error{where + fields.error()};
        if (fields->size() != 2)
            return Error{where + "expected 2 fields (token,logit), found " + std::to_string(fields->size())};
        const auto value = parseDouble(fields->at(1));
        if (!value)
            return Error{where + "logit " + quoted(trim(fields->at(1))) + " is not a number"};
        if (auto problem = illegalLogit(*value))
            return Error{where + "logit " + *problem};
        if (auto problem = tokenNameProblem(fields->at(0)))
            return Error{where + "token name " + *problem};
        if (logits.size() == kMaxValues)
            return Error{tooManyValues(source)};
        dist.tokens.push_back(fields->at(0));
        logits.push_back(*value);
    }
    if (logits.empty())
        return Error{source + ": no logits found"};

    dist.logits = Eigen::Map<const Eigen::ArrayXd>(logits.data(), static_cast<Eigen::Index>(logits.size()));
    if (auto problem = validateLogits(dist.logits, source + ": logits"))
        return Error{*problem};
    return dist;
}

}  // namespace logitlab::engine
