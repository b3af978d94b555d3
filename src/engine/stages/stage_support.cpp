#include "engine/stages/stage_support.h"

#include <algorithm>

namespace logitlab::engine::detail {

std::vector<std::string_view> splitOn(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

std::string_view trimSpaces(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::size_t> orderByLogit(const CandidateArray& a)
{
    std::vector<std::size_t> order(a.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&a](std::size_t x, std::size_t y) { return a[x].logit > a[y].logit; });
    return order;
}

void removeExceptTop(CandidateArray& a, std::vector<bool> remove, std::size_t minKeep)
{
    if (minKeep > 0) {
        const auto order = orderByLogit(a);
        for (std::size_t i = 0; i < std::min(minKeep, order.size()); ++i)
            remove[order[i]] = false;
    }
    std::size_t out = 0;
    auto& data = a.data();
    for (std::size_t i = 0; i < data.size(); ++i)
        if (!remove[i] && !masked(data[i]))
            data[out++] = data[i];
    if (out == 0 && !data.empty())
        out = 1;  // unreachable with minKeep >= 1; keeps the array non-empty regardless
    data.resize(out);
}

void maskAllBut(CandidateArray& a, std::size_t keep)
{
    for (std::size_t i = 0; i < a.size(); ++i)
        if (i != keep)
            a[i].logit = kNegInf;
}

}  // namespace logitlab::engine::detail
