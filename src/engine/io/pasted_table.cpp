#include "engine/io/pasted_table.h"

#include "engine/core/input_limits.h"
#include "engine/io/logits_parser.h"

#include <cmath>
#include <limits>
#include <utility>

namespace logitlab::engine {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string> fieldsOf(std::string_view line)
{
    std::vector<std::string> fields;
    if (line.find('\t') != std::string_view::npos) {
        std::size_t start = 0;
        while (true) {
            const std::size_t tab = line.find('\t', start);
            fields.emplace_back(trimmed(line.substr(start, tab - start)));
            if (tab == std::string_view::npos)
                break;
            start = tab + 1;
        }
    } else if (auto csv = splitCsvRecord(line)) {
        for (const auto& f : *csv)
            fields.emplace_back(trimmed(f));
    } else {
        fields.emplace_back(trimmed(line));
    }
    while (fields.size() > 1 && fields.back().empty())  // spreadsheets pad rows with empty cells
        fields.pop_back();
    return fields;
}

}  // namespace

PastedTable parsePastedTable(std::string_view text)
{
    PastedTable out;
    std::vector<double> logits;
    int row = 0;
    bool first = true;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string_view line = text.substr(start, end == std::string_view::npos ? end : end - start);
        start = end == std::string_view::npos ? text.size() + 1 : end + 1;
        ++row;
        if (trimmed(line).empty())
            continue;
        const auto fields = fieldsOf(line);
        const bool firstRow = std::exchange(first, false);
        if (fields.size() > 2) {
            out.problems.push_back(
                {row, "expected token and logit, found " + std::to_string(fields.size()) + " columns"});
            continue;
        }
        const std::string& number = fields.back();
        const auto value = parseDouble(number);
        if (!value) {
            if (firstRow && fields.size() == 2)
                continue;  // a header such as "token<TAB>logit"
            out.problems.push_back({row, "'" + number + "' is not a number"});
            continue;
        }
        if (std::isnan(*value)) {
            out.problems.push_back({row, "the logit is NaN"});
            continue;
        }
        if (*value == std::numeric_limits<double>::infinity()) {
            out.problems.push_back({row, "the logit is +inf"});
            continue;
        }
        if (fields.size() == 2 && fields.front().empty()) {
            out.problems.push_back({row, "the token has no name"});
            continue;
        }
        if (fields.size() == 2) {
            if (auto problem = tokenNameProblem(fields.front())) {
                out.problems.push_back({row, "the token name " + *problem});
                continue;
            }
        }
        if (logits.size() == kMaxValues) {
            out.problems.push_back({row, "more than " + groupedNumber(kMaxValues) +
                                             " rows (the limit for one distribution); the rest was not read"});
            break;
        }
        out.distribution.tokens.push_back(fields.size() == 2 ? fields.front() : std::to_string(logits.size()));
        logits.push_back(*value);
    }
    out.distribution.logits = Eigen::Map<const Eigen::ArrayXd>(logits.data(), static_cast<Eigen::Index>(logits.size()));
    return out;
}

}  // namespace logitlab::engine
