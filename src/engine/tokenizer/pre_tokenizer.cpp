#include "engine/tokenizer/pre_tokenizer.h"

#include "engine/tokenizer/unicode_category.h"

#include <cstdint>
#include <utility>

namespace logitlab::engine::tokenizer {

namespace {

using CodePoints = std::vector<std::uint32_t>;
using Span = std::pair<std::size_t, std::size_t>;  // [begin, end) in code points

struct NamedPre {
    std::string_view name;
    PreTokenizerInfo info;
};

// From llama.cpp's llama_vocab::impl::load (tokenizer.ggml.pre -> pre_type and flags). "gpt2"
// is accepted as another name of "gpt-2", which is what the converters write.
constexpr PreTokenizerKind kDefault = PreTokenizerKind::Default;
constexpr PreTokenizerKind kGpt2 = PreTokenizerKind::Gpt2;
constexpr PreTokenizerKind kLlama3 = PreTokenizerKind::Llama3;
constexpr PreTokenizerKind kQwen2 = PreTokenizerKind::Qwen2;
constexpr PreTokenizerKind kSmollm = PreTokenizerKind::Smollm;
constexpr NamedPre kPreTokenizers[] = {
    {"default", {kDefault, false, true, false}},
    {"gpt-2", {kGpt2, false, true, false}},
    {"gpt2", {kGpt2, false, true, false}},
    {"phi-2", {kGpt2, false, true, false}},
    {"mpt", {kGpt2, false, true, false}},
    {"olmo", {kGpt2, false, true, false}},
    {"jais", {kGpt2, false, true, false}},
    {"exaone4", {kGpt2, false, true, false}},
    {"trillion", {kGpt2, false, false, false}},
    {"granite-docling", {kGpt2, false, false, false}},
    {"llama3", {kLlama3, true, true, true}},
    {"llama-v3", {kLlama3, true, true, true}},
    {"llama-bpe", {kLlama3, true, true, true}},
    {"falcon3", {kLlama3, true, true, true}},
    {"falcon-h1", {kLlama3, true, true, true}},
    {"pixtral", {kLlama3, true, true, true}},
    {"lfm2", {kLlama3, true, true, true}},
    {"dbrx", {kLlama3, false, true, false}},
    {"smaug-bpe", {kLlama3, false, true, false}},
    {"qwen2", {kQwen2, false, false, false}},
    {"deepseek-r1-qwen", {kQwen2, false, false, false}},
    {"megrez", {kQwen2, false, true, false}},
    {"stablelm2", {kQwen2, false, true, false}},
    {"smollm", {kSmollm, false, false, false}},
    {"command-r", {kSmollm, false, false, false}},
    {"starcoder", {kSmollm, false, true, false}},
    {"refact", {kSmollm, false, true, false}},
    {"codeshell", {kSmollm, false, true, false}},
    {"exaone", {kSmollm, false, true, false}},
    {"minerva-7b", {kSmollm, false, true, false}},
};

bool isLetter(std::uint32_t cp) { return unicodeCategory(cp) == UnicodeCategory::Letter; }
bool isNumber(std::uint32_t cp) { return unicodeCategory(cp) == UnicodeCategory::Number; }
bool isSpace(std::uint32_t cp) { return unicodeCategory(cp) == UnicodeCategory::Whitespace; }
// [^\s\p{L}\p{N}]
bool isOther(std::uint32_t cp)
{
    const auto c = unicodeCategory(cp);
    return c != UnicodeCategory::Whitespace && c != UnicodeCategory::Letter && c != UnicodeCategory::Number;
}
bool isNewline(std::uint32_t cp) { return cp == '\r' || cp == '\n'; }
std::uint32_t asciiLower(std::uint32_t cp) { return cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp; }

// The contractions 's 't 're 've 'm 'll 'd at `pos`: their length in code points, or 0.
std::size_t contraction(const CodePoints& cps, std::size_t pos, std::size_t end, bool anyCase)
{
    if (cps[pos] != '\'' || pos + 1 >= end) {
        return 0;
    }
    const auto fold = [&](std::uint32_t cp) { return anyCase ? asciiLower(cp) : cp; };
    const std::uint32_t a = fold(cps[pos + 1]);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') {
        return 2;
    }
    if (pos + 2 < end) {
        const std::uint32_t b = fold(cps[pos + 2]);
        if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
            return 3;
        }
    }
    return 0;
}

template <class Pred>
std::size_t skipWhile(const CodePoints& cps, std::size_t pos, std::size_t end, Pred pred)
{
    while (pos < end && pred(cps[pos])) {
        ++pos;
    }
    return pos;
}

// GPT-2: 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// The alternatives are tried in order at each position; the lookahead sees only this span (the
// regex runs on each span of the previous pass, as in llama.cpp).
void splitGpt2(const CodePoints& cps, Span span, std::vector<Span>& out)
{
    const auto [begin, end] = span;
    std::size_t pos = begin;
    while (pos < end) {
        const std::size_t start = pos;
        const std::uint32_t c = cps[pos];
        if (const std::size_t n = contraction(cps, pos, end, false)) {
            pos += n;
        } else {
            // " ?X+": an optional space, then at least one X.
            const bool space = c == ' ' && pos + 1 < end;
            const std::uint32_t first = space ? cps[pos + 1] : c;
            const std::size_t from = pos + (space ? 1 : 0);
            if (c != ' ' || space) {
                if (isLetter(first)) {
                    pos = skipWhile(cps, from, end, isLetter);
                } else if (isNumber(first)) {
                    pos = skipWhile(cps, from, end, isNumber);
                } else if (isOther(first)) {
                    pos = skipWhile(cps, from, end, isOther);
                }
            }
            if (pos == start) {
                // \s+(?!\S) leaves the last space of a run for the word after it; \s+ takes a
                // run at the end of the span.
                const std::size_t runEnd = skipWhile(cps, pos, end, isSpace);
                pos = runEnd - start > 1 && runEnd < end ? runEnd - 1 : runEnd;
                if (pos == start) {
                    ++pos;  // not reached: every code point is \s, \p{L}, \p{N} or none of them
                }
            }
        }
        out.emplace_back(start, pos);
    }
}

// Llama 3 (maxDigits 3) and Qwen2 (maxDigits 1):
// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,maxDigits}|
// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
void splitLlama3(const CodePoints& cps, Span span, std::size_t maxDigits, std::vector<Span>& out)
{
    const auto [begin, end] = span;
    std::size_t pos = begin;
    while (pos < end) {
        const std::size_t start = pos;
        const std::uint32_t c = cps[pos];
        if (const std::size_t n = contraction(cps, pos, end, true)) {
            pos += n;
        } else if (!isNewline(c) && !isNumber(c) && (isLetter(c) || (pos + 1 < end && isLetter(cps[pos + 1])))) {
            pos = skipWhile(cps, pos + 1, end, isLetter);
        } else if (isNumber(c)) {
            while (pos < end && pos - start < maxDigits && isNumber(cps[pos])) {
                ++pos;
            }
        } else if ((c == ' ' && pos + 1 < end && isOther(cps[pos + 1])) || (c != ' ' && isOther(c))) {
            pos = skipWhile(cps, pos + 1, end, isOther);
            pos = skipWhile(cps, pos, end, isNewline);
        } else {
            // A whitespace run: \s*[\r\n]+ ends after its last \r or \n; else \s+(?!\S) leaves
            // the last space for the next word unless the run ends the span; else \s+.
            const std::size_t runEnd = skipWhile(cps, pos, end, isSpace);
            std::size_t lastNewline = 0;
            for (std::size_t i = pos; i < runEnd; ++i) {
                if (isNewline(cps[i])) {
                    lastNewline = i + 1;
                }
            }
            if (lastNewline > 0) {
                pos = lastNewline;
            } else if (runEnd - start > 1 && runEnd < end) {
                pos = runEnd - 1;
            } else {
                pos = runEnd;
            }
            if (pos == start) {
                ++pos;  // a lone space at the end of the span ( ?[^...]+ fails, \s+ matches)
            }
        }
        out.emplace_back(start, pos);
    }
}

// A regex matching single code points or runs of one class (std::regex_iterator semantics):
// each match is a piece and so is the text between matches.
template <class Pred>
void splitMatches(const CodePoints& cps, Span span, bool runs, Pred pred, std::vector<Span>& out)
{
    const auto [begin, end] = span;
    std::size_t pieceStart = begin;
    std::size_t pos = begin;
    while (pos < end) {
        if (!pred(cps[pos])) {
            ++pos;
            continue;
        }
        if (pos > pieceStart) {
            out.emplace_back(pieceStart, pos);
        }
        const std::size_t matchEnd = runs ? skipWhile(cps, pos, end, pred) : pos + 1;
        out.emplace_back(pos, matchEnd);
        pos = pieceStart = matchEnd;
    }
    if (pieceStart < end) {
        out.emplace_back(pieceStart, end);
    }
}

// [0-9][0-9][0-9], matched left to right.
void splitAsciiDigitTriples(const CodePoints& cps, Span span, std::vector<Span>& out)
{
    const auto [begin, end] = span;
    const auto digit = [&](std::size_t i) { return cps[i] >= '0' && cps[i] <= '9'; };
    std::size_t pieceStart = begin;
    std::size_t pos = begin;
    while (pos + 3 <= end) {
        if (digit(pos) && digit(pos + 1) && digit(pos + 2)) {
            if (pos > pieceStart) {
                out.emplace_back(pieceStart, pos);
            }
            out.emplace_back(pos, pos + 3);
            pos = pieceStart = pos + 3;
        } else {
            ++pos;
        }
    }
    if (pieceStart < end) {
        out.emplace_back(pieceStart, end);
    }
}

// [\p{P}\$\+<=>\^~\|] (llama.cpp's default pre-tokenizer's first regex).
bool isPunctuationOrAsciiMath(std::uint32_t cp)
{
    switch (cp) {
    case '$':
    case '+':
    case '<':
    case '=':
    case '>':
    case '^':
    case '~':
    case '|':
        return true;
    default:
        return unicodeCategory(cp) == UnicodeCategory::Punctuation;
    }
}

template <class Split>
std::vector<Span> apply(const CodePoints& cps, const std::vector<Span>& spans, Split split)
{
    std::vector<Span> out;
    out.reserve(spans.size() * 2);
    for (const Span& s : spans) {
        split(cps, s, out);
    }
    return out;
}

}  // namespace

std::optional<PreTokenizerInfo> findPreTokenizer(std::string_view name)
{
    if (name.empty()) {
        name = "default";
    }
    for (const NamedPre& p : kPreTokenizers) {
        if (p.name == name) {
            return p.info;
        }
    }
    return std::nullopt;
}

std::string supportedPreTokenizers()
{
    std::string list;
    for (const NamedPre& p : kPreTokenizers) {
        if (!list.empty()) {
            list += ", ";
        }
        list += p.name;
    }
    return list;
}

std::vector<std::string> preTokenize(std::string_view text, PreTokenizerKind kind)
{
    const CodePoints cps = codePointsFromUtf8(text);
    std::vector<Span> spans;
    if (!cps.empty()) {
        spans.emplace_back(0, cps.size());
    }
    const auto gpt2 = [](const CodePoints& c, Span s, std::vector<Span>& o) { splitGpt2(c, s, o); };
    switch (kind) {
    case PreTokenizerKind::Gpt2:
        spans = apply(cps, spans, gpt2);
        break;
    case PreTokenizerKind::Llama3:
    case PreTokenizerKind::Qwen2: {
        const std::size_t digits = kind == PreTokenizerKind::Llama3 ? 3 : 1;
        spans = apply(cps, spans,
                      [digits](const CodePoints& c, Span s, std::vector<Span>& o) { splitLlama3(c, s, digits, o); });
        break;
    }
    case PreTokenizerKind::Smollm:
        spans = apply(cps, spans, [](const CodePoints& c, Span s, std::vector<Span>& o) {
            splitMatches(c, s, false, isNumber, o);
        });
        spans = apply(cps, spans, gpt2);
        break;
    case PreTokenizerKind::Default:
        spans = apply(cps, spans, [](const CodePoints& c, Span s, std::vector<Span>& o) {
            splitMatches(c, s, true, isPunctuationOrAsciiMath, o);
        });
        spans = apply(cps, spans, gpt2);
        spans = apply(cps, spans,
                      [](const CodePoints& c, Span s, std::vector<Span>& o) { splitMatches(c, s, true, isNumber, o); });
        spans = apply(cps, spans, splitAsciiDigitTriples);
        break;
    }
    std::vector<std::string> words;
    words.reserve(spans.size());
    for (const auto& [b, e] : spans) {
        std::string w;
        for (std::size_t i = b; i < e; ++i) {
            appendUtf8(w, cps[i]);
        }
        words.push_back(std::move(w));
    }
    return words;
}

}  // namespace logitlab::engine::tokenizer
