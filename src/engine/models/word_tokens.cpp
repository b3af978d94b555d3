#include "engine/models/word_tokens.h"

namespace logitlab::engine {

namespace {

bool isWordByte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

bool isJoiner(char c) { return c == '.' || c == '-' || c == '\''; }

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

bool attachesLeft(std::string_view token)
{
    static constexpr std::string_view kClosing = ".,;:!?)]}%";
    return !token.empty() && kClosing.find(token.front()) != std::string_view::npos;
}

bool attachesRight(std::string_view token)
{
    static constexpr std::string_view kOpening = "([{";
    return !token.empty() && kOpening.find(token.back()) != std::string_view::npos;
}

}  // namespace

std::vector<std::string> wordTokens(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    const std::size_t n = text.size();
    int newlines = 0;  // newlines in the current run of white space
    while (i < n) {
        const char c = text[i];
        if (isSpace(c)) {
            newlines += c == '\n' ? 1 : 0;
            ++i;
            continue;
        }
        // A blank line between two tokens is a paragraph break; none at the start.
        if (newlines >= 2 && !out.empty() && out.back() != kParagraphToken)
            out.emplace_back(kParagraphToken);
        newlines = 0;
        std::size_t end = i + 1;
        if (isWordByte(static_cast<unsigned char>(c))) {
            while (end < n) {
                if (isWordByte(static_cast<unsigned char>(text[end])))
                    ++end;
                else if (isJoiner(text[end]) && end + 1 < n && isWordByte(static_cast<unsigned char>(text[end + 1])))
                    end += 2;
                else
                    break;
            }
        } else {
            while (end < n && text[end] == c)
                ++end;
        }
        out.emplace_back(text.substr(i, end - i));
        i = end;
    }
    return out;
}

std::string separatorBefore(std::string_view previous, std::string_view token)
{
    if (previous.empty() || token == kParagraphToken)
        return {};
    if (previous == kParagraphToken)
        return "\n";
    if (attachesLeft(token) || attachesRight(previous))
        return {};
    return " ";
}

std::string joinWordTokens(const std::vector<std::string>& tokens)
{
    std::string out;
    std::string_view previous;
    for (const std::string& token : tokens) {
        out += separatorBefore(previous, token);
        out += token == kParagraphToken ? std::string("\n") : token;
        previous = token;
    }
    return out;
}

}  // namespace logitlab::engine
