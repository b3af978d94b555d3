#include "engine/models/vocabulary.h"

#include "engine/core/input_limits.h"

namespace logitlab::engine {

Result<TokenTable> parseVocabularyText(std::string_view text, const std::string& what)
{
    TokenTable table;
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    std::size_t line = 0;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view token = text.substr(0, end);
        text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
        if (token.ends_with('\r'))
            token.remove_suffix(1);
        ++line;
        if (token.find('\0') != std::string_view::npos)
            return Error{what + ":" + std::to_string(line) +
                         ": holds a NUL byte; expected one token per line of UTF-8 text"};
        if (table.byId.size() == kMaxValues)
            return Error{what + ": more than " + groupedNumber(kMaxValues) +
                         " tokens (the limit for one distribution)"};
        if (token.empty()) {
            table.byId.emplace_back();
        } else {
            table.byId.emplace_back(std::string(token));
            ++table.tokenCount;
        }
    }
    if (table.tokenCount == 0)
        return Error{what + ": no tokens; expected one token per line"};
    return table;
}

Result<Vocabulary> fitVocabulary(const TokenTable& table, std::size_t logitCount, const std::string& what)
{
    if (table.byId.size() > logitCount)
        return Error{what + ": has " + groupedNumber(table.tokenCount) + " tokens with ids up to " +
                     groupedNumber(table.byId.size() - 1) + ", but the logits have " + groupedNumber(logitCount) +
                     " values (ids 0 to " + groupedNumber(logitCount - 1) + "): it belongs to another model"};
    Vocabulary vocabulary;
    vocabulary.shown.reserve(logitCount);
    bool anyRawDiffers = false;
    std::vector<std::string> raw;
    raw.reserve(logitCount);
    std::size_t firstUnnamed = logitCount;
    for (std::size_t id = 0; id < logitCount; ++id) {
        const bool named = id < table.byId.size() && table.byId[id].has_value();
        if (!named) {
            vocabulary.shown.push_back("<id " + std::to_string(id) + ">");
            raw.push_back(vocabulary.shown.back());
            firstUnnamed = std::min(firstUnnamed, id);
            ++vocabulary.unnamed;
            continue;
        }
        const std::string& token = *table.byId[id];
        std::string shown = readableToken(token, table.spelling);
        if (auto problem = tokenNameProblem(shown))
            return Error{what + ": token id " + std::to_string(id) + " " + *problem};
        anyRawDiffers = anyRawDiffers || shown != token;
        vocabulary.shown.push_back(std::move(shown));
        raw.push_back(token);
    }
    if (anyRawDiffers)
        vocabulary.raw = std::move(raw);
    if (vocabulary.unnamed > 0)
        vocabulary.note = what + " names " + groupedNumber(logitCount - vocabulary.unnamed) + " of the " +
                          groupedNumber(logitCount) + " ids; " + groupedNumber(vocabulary.unnamed) +
                          (vocabulary.unnamed == 1 ? " id has" : " ids have") + " no token (shown as <id " +
                          std::to_string(firstUnnamed) + ">" + (vocabulary.unnamed > 1 ? " and so on)" : ")");
    return vocabulary;
}

}  // namespace logitlab::engine
