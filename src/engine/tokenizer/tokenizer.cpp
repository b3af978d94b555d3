#include "engine/tokenizer/tokenizer.h"

#include "engine/tokenizer/unicode_category.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <queue>

namespace logitlab::engine::tokenizer {

namespace {

const std::string kSpmSpace = "\xE2\x96\x81";  // U+2581, SentencePiece's visible space

// Token strings llama.cpp treats as end of generation (and so as control tokens) whatever the
// file says: its EOG list and its fill-in-the-middle pad, repo and file-separator tokens.
constexpr std::string_view kEogTexts[] = {
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|flush|>",
    "<|calls|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "</s>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "[EOT]",
    "[EOS]",
    "<|end_of_text|>",
    "<end_of_utterance>",
    "<eos>",
    "<turn|>",
    "<|tool_response>",
    "<\xEF\xBD\x9C"
    "end\xE2\x96\x81"
    "of\xE2\x96\x81"
    "sentence\xEF\xBD\x9C>",
    "[e~[",
    "<|fim_pad|>",
    "<fim-pad>",
    "<fim_pad>",
    "<PAD>",
    "[PAD]",
    "<|fim_repo|>",
    "<|repo_name|>",
    "<fim-repo>",
    "<REPO>",
    "<reponame>",
    "<|file_sep|>",
};

std::string replaceAll(std::string_view text, std::string_view from, std::string_view to)
{
    std::string out;
    out.reserve(text.size());
    std::size_t pos = 0;
    while (true) {
        const std::size_t hit = text.find(from, pos);
        if (hit == std::string_view::npos) {
            out.append(text.substr(pos));
            return out;
        }
        out.append(text.substr(pos, hit - pos));
        out.append(to);
        pos = hit + from.size();
    }
}

std::string mergeKey(std::string_view left, std::string_view right)
{
    std::string key;
    key.reserve(left.size() + right.size() + 1);
    key.append(left);
    key.push_back('\0');
    key.append(right);
    return key;
}

std::uint8_t attrOfType(std::int32_t type)
{
    switch (type) {
    case 1:
        return 1 << 2;  // normal
    case 2:
        return 1 << 0;  // unknown
    case 3:
        return 1 << 3;  // control
    case 4:
        return 1 << 4;  // user defined
    case 5:
        return 1 << 1;  // unused
    case 6:
        return 1 << 5;  // byte
    default:
        return 0;  // undefined: decodes to nothing, like llama.cpp
    }
}

// llama.cpp's detokenize clean-up of spaces (clean_up_tokenization_spaces), three passes.
std::string cleanSpaces(const std::string& in)
{
    std::string a;
    a.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char x = in[i];
        if (i > 0 && in[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',') && !a.empty()) {
            a.pop_back();  // " ?" " !" " ." " ,"
        }
        a.push_back(x);
    }
    std::string b;
    b.reserve(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const char x = a[i];
        if (x == '\'' && i > 0 && i + 1 < a.size() && a[i - 1] == ' ' && a[i + 1] == ' ') {
            b.pop_back();  // " ' " -> "'"
            b.push_back(x);
            a[++i] = '\0';  // the space after is dropped and no longer counts as a space before
            continue;
        }
        b.push_back(x);
    }
    std::string c;
    c.reserve(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) {
        const char x = b[i];
        if (x == '\'' && i > 0 && b[i - 1] == ' ' && i + 1 < b.size()) {
            const char x1 = b[i + 1];
            const bool twoLetters =
                i + 2 < b.size() && ((x1 == 'r' && b[i + 2] == 'e') || (x1 == 'v' && b[i + 2] == 'e'));
            if (x1 == 's' || x1 == 'm' || twoLetters) {
                c.pop_back();  // " 's" " 'm" " 're" " 've"
            }
        }
        c.push_back(x);
    }
    return c;
}

}  // namespace

bool defaultAddBos(std::string_view model, std::string_view pre)
{
    if (model == "llama") {
        return true;
    }
    const auto info = findPreTokenizer(pre);
    return model == "gpt2" && info && info->addBos;
}

Result<Tokenizer> Tokenizer::create(TokenizerVocabulary v)
{
    Tokenizer t;
    if (v.model == "llama") {
        t.m_spm = true;
    } else if (v.model != "gpt2") {
        return Error{"tokenizer model '" + v.model + "' is not supported (gpt2, llama)"};
    }
    if (!t.m_spm) {
        const auto pre = findPreTokenizer(v.pre);
        if (!pre) {
            return Error{"pre-tokenizer '" + v.pre + "' is not supported (" + supportedPreTokenizers() + ")"};
        }
        t.m_pre = *pre;
    }
    const std::size_t n = v.tokens.size();
    if (n == 0) {
        return Error{"the vocabulary has no tokens"};
    }
    if (n > static_cast<std::size_t>(INT32_MAX)) {
        return Error{"the vocabulary has too many tokens"};
    }
    if (!v.scores.empty() && v.scores.size() != n) {
        return Error{"the vocabulary has " + std::to_string(n) + " tokens but " + std::to_string(v.scores.size()) +
                     " scores"};
    }
    if (!v.types.empty() && v.types.size() != n) {
        return Error{"the vocabulary has " + std::to_string(n) + " tokens but " + std::to_string(v.types.size()) +
                     " token types"};
    }

    t.m_tokens = std::move(v.tokens);
    t.m_scores = v.scores.empty() ? std::vector<float>(n, 0.0f) : std::move(v.scores);
    t.m_attrs.resize(n, Normal);
    t.m_ids.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::string& text = t.m_tokens[i];
        if (text.empty()) {
            text = "[EMPTY_" + std::to_string(i) + "]";  // as llama.cpp names empty strings
        }
        if (!v.types.empty()) {
            t.m_attrs[i] = attrOfType(v.types[i]);
        }
        const auto [it, inserted] = t.m_ids.emplace(text, static_cast<std::int32_t>(i));
        if (!inserted) {
            return Error{"token " + std::to_string(i) + " ('" + text + "') repeats token " +
                         std::to_string(it->second)};
        }
    }

    if (!t.m_spm) {
        t.m_mergeRanks.reserve(v.merges.size());
        for (std::size_t r = 0; r < v.merges.size(); ++r) {
            const std::string& m = v.merges[r];
            const std::size_t space = m.size() > 1 ? m.find(' ', 1) : std::string::npos;
            const auto where = [&] { return "merge " + std::to_string(r) + " ('" + m + "')"; };
            if (space == std::string::npos) {
                return Error{where() + " is not two tokens separated by a space"};
            }
            const std::string_view left = std::string_view(m).substr(0, space);
            const std::string_view right = std::string_view(m).substr(space + 1);
            if (!t.m_ids.contains(left) || !t.m_ids.contains(right)) {
                return Error{where() + " names a token that is not in the vocabulary"};
            }
            t.m_mergeRanks.emplace(mergeKey(left, right), static_cast<std::int32_t>(r));  // first rank wins
        }
    }

    // Special ids: llama.cpp's defaults when the file has none (llama: BOS 1, EOS 2, unknown 0;
    // gpt2: BOS = EOS = 11), dropped when out of range; ids the file gives must be in range.
    const auto checkId = [&](std::int32_t id, const char* what) -> std::optional<Error> {
        if (id >= 0 && static_cast<std::size_t>(id) >= n) {
            return Error{std::string(what) + " token id " + std::to_string(id) +
                         " is out of range (the vocabulary has " + std::to_string(n) + " tokens)"};
        }
        return std::nullopt;
    };
    for (const auto& [id, what] : {std::pair{v.bos, "BOS"}, std::pair{v.eos, "EOS"}, std::pair{v.unknown, "unknown"}}) {
        if (auto e = checkId(id, what)) {
            return *e;
        }
    }
    const auto orDefault = [&](std::int32_t id, std::int32_t fallback) {
        if (id >= 0) {
            return id;
        }
        return static_cast<std::size_t>(fallback) < n ? fallback : -1;
    };
    t.m_bos = orDefault(v.bos, t.m_spm ? 1 : 11);
    t.m_eos = orDefault(v.eos, t.m_spm ? 2 : 11);
    t.m_unknown = t.m_spm ? orDefault(v.unknown, 0) : (v.unknown >= 0 ? v.unknown : -1);
    t.m_addBos = v.addBos;
    t.m_addEos = v.addEos;
    t.m_addSpacePrefix = v.addSpacePrefix.value_or(t.m_spm);
    t.m_cleanSpaces = !t.m_spm && t.m_pre.cleanSpaces;
    if (t.m_addBos && t.m_bos < 0) {
        return Error{"add_bos_token is set but the vocabulary has no BOS token"};
    }
    if (t.m_addEos && t.m_eos < 0) {
        return Error{"add_eos_token is set but the vocabulary has no EOS token"};
    }

    // End of generation: EOS and the tokens llama.cpp recognises by their text (these become
    // control tokens if the file says otherwise, as in llama.cpp).
    for (const std::string_view text : kEogTexts) {
        if (const auto it = t.m_ids.find(text); it != t.m_ids.end()) {
            t.m_eog.push_back(it->second);
            t.m_attrs[static_cast<std::size_t>(it->second)] |= Control;
        }
    }
    if (t.m_eos >= 0) {
        t.m_eog.push_back(t.m_eos);
    }
    std::sort(t.m_eog.begin(), t.m_eog.end());
    t.m_eog.erase(std::unique(t.m_eog.begin(), t.m_eog.end()), t.m_eog.end());

    for (std::size_t i = 0; i < n; ++i) {
        if (t.m_attrs[i] & (Control | UserDefined | Unknown)) {
            t.m_specials.push_back(static_cast<std::int32_t>(i));
        }
    }
    std::stable_sort(t.m_specials.begin(), t.m_specials.end(), [&](std::int32_t a, std::int32_t b) {
        return t.m_tokens[static_cast<std::size_t>(a)].size() > t.m_tokens[static_cast<std::size_t>(b)].size();
    });
    t.m_pieces.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        t.m_pieces.push_back(t.makePiece(i));
    }
    return t;
}

const std::string& Tokenizer::tokenText(std::int32_t id) const
{
    static const std::string none;
    return inRange(id) ? m_tokens[static_cast<std::size_t>(id)] : none;
}

std::int32_t Tokenizer::tokenId(std::string_view text) const
{
    const auto it = m_ids.find(text);
    return it == m_ids.end() ? -1 : it->second;
}

bool Tokenizer::isEog(std::int32_t id) const { return std::binary_search(m_eog.begin(), m_eog.end(), id); }

bool Tokenizer::isControl(std::int32_t id) const
{
    return inRange(id) && (m_attrs[static_cast<std::size_t>(id)] & Control);
}

// Special tokens are cut out of the text longest first; each cut leaves the text on either side
// as fragments for the next token to search (llama.cpp's tokenizer_st_partition).
std::vector<Tokenizer::Fragment> Tokenizer::splitSpecial(std::string_view text, bool parseSpecial) const
{
    std::vector<Fragment> fragments;
    if (text.empty()) {
        return fragments;
    }
    fragments.push_back({-1, 0, text.size()});
    for (const std::int32_t id : m_specials) {
        const std::uint8_t attr = m_attrs[static_cast<std::size_t>(id)];
        if (!parseSpecial && (attr & (Control | Unknown))) {
            continue;  // user-defined tokens are always matched, as in llama.cpp and Hugging Face
        }
        const std::string& special = m_tokens[static_cast<std::size_t>(id)];
        std::vector<Fragment> next;
        next.reserve(fragments.size());
        for (const Fragment& f : fragments) {
            if (f.token >= 0) {
                next.push_back(f);
                continue;
            }
            std::size_t pos = f.begin;
            const std::size_t end = f.begin + f.length;
            while (true) {
                const std::size_t hit = text.substr(0, end).find(special, pos);
                if (hit == std::string_view::npos) {
                    break;
                }
                if (hit > pos) {
                    next.push_back({-1, pos, hit - pos});
                }
                next.push_back({id, 0, 0});
                pos = hit + special.size();
            }
            if (pos < end) {
                next.push_back({-1, pos, end - pos});
            }
        }
        fragments = std::move(next);
    }
    return fragments;
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view text, bool addSpecial, bool parseSpecial) const
{
    std::vector<std::int32_t> out;
    const std::vector<Fragment> fragments = splitSpecial(text, parseSpecial);
    if (addSpecial && m_addBos) {
        out.push_back(m_bos);
    }
    bool afterSpecial = true;  // SentencePiece: a space before the text and after special tokens
    for (const Fragment& f : fragments) {
        if (f.token >= 0) {
            out.push_back(f.token);
            afterSpecial = true;
            continue;
        }
        const std::string_view piece = text.substr(f.begin, f.length);
        if (m_spm) {
            std::string spaced = m_addSpacePrefix && afterSpecial ? " " : "";
            spaced.append(piece);
            encodeSpm(replaceAll(spaced, " ", kSpmSpace), out);
        } else {
            for (const std::string& word : preTokenize(piece, m_pre.kind)) {
                encodeBpeWord(word, out);
            }
        }
        afterSpecial = false;
    }
    if (addSpecial && m_addEos) {
        out.push_back(m_eos);
    }
    return out;
}

std::int32_t Tokenizer::byteToken(std::uint8_t byte) const
{
    char hex[8];
    std::snprintf(hex, sizeof hex, "<0x%02X>", static_cast<unsigned>(byte));
    if (const std::int32_t id = tokenId(hex); id >= 0) {
        return id;
    }
    const char raw = static_cast<char>(byte);
    if (const std::int32_t id = tokenId(std::string_view(&raw, 1)); id >= 0) {
        return id;
    }
    return m_unknown;  // llama.cpp stops with an exception here
}

// SentencePiece BPE: start from UTF-8 characters; repeatedly join the adjacent pair whose joined
// text is the vocabulary token with the highest score (the leftmost among equal scores);
// symbols that are not tokens in the end become byte tokens.
void Tokenizer::encodeSpm(std::string_view text, std::vector<std::int32_t>& out) const
{
    struct Symbol {
        std::size_t begin;
        std::size_t length;
        int prev;
        int next;
    };
    struct Bigram {
        int left;
        int right;
        float score;
        std::size_t length;
    };
    const auto lower = [](const Bigram& a, const Bigram& b) {
        return a.score < b.score || (a.score == b.score && a.left > b.left);
    };
    std::vector<Symbol> symbols;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t len = std::min(utf8SequenceLength(text[pos]), text.size() - pos);
        const int index = static_cast<int>(symbols.size());
        symbols.push_back({pos, len, index - 1, pos + len == text.size() ? -1 : index + 1});
        pos += len;
    }
    std::priority_queue<Bigram, std::vector<Bigram>, decltype(lower)> queue(lower);
    const auto tryAdd = [&](int left, int right) {
        if (left < 0 || right < 0) {
            return;
        }
        const Symbol& l = symbols[static_cast<std::size_t>(left)];
        const std::size_t length = l.length + symbols[static_cast<std::size_t>(right)].length;
        const std::int32_t id = tokenId(text.substr(l.begin, length));
        if (id >= 0) {
            queue.push({left, right, m_scores[static_cast<std::size_t>(id)], length});
        }
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i) {
        tryAdd(i - 1, i);
    }
    while (!queue.empty()) {
        const Bigram b = queue.top();
        queue.pop();
        Symbol& l = symbols[static_cast<std::size_t>(b.left)];
        Symbol& r = symbols[static_cast<std::size_t>(b.right)];
        if (l.length == 0 || r.length == 0 || l.length + r.length != b.length) {
            continue;  // one side has changed since this pair was queued
        }
        l.length += r.length;
        r.length = 0;
        l.next = r.next;
        if (r.next >= 0) {
            symbols[static_cast<std::size_t>(r.next)].prev = b.left;
        }
        tryAdd(l.prev, b.left);
        tryAdd(b.left, l.next);
    }
    for (int i = symbols.empty() ? -1 : 0; i != -1; i = symbols[static_cast<std::size_t>(i)].next) {
        const Symbol& s = symbols[static_cast<std::size_t>(i)];
        const std::string_view piece = text.substr(s.begin, s.length);
        if (const std::int32_t id = tokenId(piece); id >= 0) {
            out.push_back(id);
            continue;
        }
        for (const char c : piece) {
            if (const std::int32_t id = byteToken(static_cast<std::uint8_t>(c)); id >= 0) {
                out.push_back(id);
            }
        }
    }
}

// Byte-level BPE on one pre-tokenized word: its bytes become GPT-2's byte characters; the
// adjacent pair with the lowest merge rank joins first (the leftmost among equal ranks).
void Tokenizer::encodeBpeWord(const std::string& word, std::vector<std::int32_t>& out) const
{
    std::string encoded;
    encoded.reserve(word.size() * 2);
    for (const char c : word) {
        encoded += byteToBpeChar(static_cast<std::uint8_t>(c));
    }
    if (m_pre.ignoreMerges) {
        if (const std::int32_t id = tokenId(encoded); id >= 0) {
            out.push_back(id);
            return;
        }
    }
    struct Symbol {
        std::size_t begin;
        std::size_t length;
        int prev;
        int next;
    };
    struct Bigram {
        int left;
        int right;
        std::int32_t rank;
        std::size_t length;
    };
    const auto later = [](const Bigram& a, const Bigram& b) {
        return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
    };
    std::vector<Symbol> symbols;
    for (std::size_t pos = 0; pos < encoded.size();) {
        const std::size_t len = std::min(utf8SequenceLength(encoded[pos]), encoded.size() - pos);
        const int index = static_cast<int>(symbols.size());
        symbols.push_back({pos, len, index - 1, pos + len == encoded.size() ? -1 : index + 1});
        pos += len;
    }
    const auto textOf = [&](int i) {
        const Symbol& s = symbols[static_cast<std::size_t>(i)];
        return std::string_view(encoded).substr(s.begin, s.length);
    };
    std::priority_queue<Bigram, std::vector<Bigram>, decltype(later)> queue(later);
    const auto tryAdd = [&](int left, int right) {
        if (left < 0 || right < 0) {
            return;
        }
        const auto it = m_mergeRanks.find(mergeKey(textOf(left), textOf(right)));
        if (it != m_mergeRanks.end()) {
            queue.push({left, right, it->second, textOf(left).size() + textOf(right).size()});
        }
    };
    for (int i = 1; i < static_cast<int>(symbols.size()); ++i) {
        tryAdd(i - 1, i);
    }
    while (!queue.empty()) {
        const Bigram b = queue.top();
        queue.pop();
        Symbol& l = symbols[static_cast<std::size_t>(b.left)];
        Symbol& r = symbols[static_cast<std::size_t>(b.right)];
        // Symbols only grow, by taking in their right neighbour: the pair is as it was queued
        // when both are still there and their lengths add up as they did.
        if (l.length == 0 || r.length == 0 || l.length + r.length != b.length) {
            continue;  // outdated
        }
        l.length += r.length;
        r.length = 0;
        l.next = r.next;
        if (r.next >= 0) {
            symbols[static_cast<std::size_t>(r.next)].prev = b.left;
        }
        tryAdd(l.prev, b.left);
        tryAdd(b.left, l.next);
    }
    for (int i = symbols.empty() ? -1 : 0; i != -1; i = symbols[static_cast<std::size_t>(i)].next) {
        const std::string_view piece = textOf(i);
        if (const std::int32_t id = tokenId(piece); id >= 0) {
            out.push_back(id);
            continue;
        }
        // As llama.cpp: look up each byte of the symbol's text on its own (only ASCII byte
        // characters can be found this way; a complete byte-level vocabulary never gets here).
        for (const char c : piece) {
            if (const std::int32_t id = tokenId(std::string_view(&c, 1)); id >= 0) {
                out.push_back(id);
            }
        }
    }
}

std::string Tokenizer::tokenPiece(std::int32_t id, bool renderSpecial) const
{
    if (!inRange(id)) {
        return {};
    }
    const auto i = static_cast<std::size_t>(id);
    if (!renderSpecial && (m_attrs[i] & (Control | Unknown))) {
        return {};
    }
    return m_pieces[i];
}

std::string Tokenizer::makePiece(std::size_t id) const
{
    const std::uint8_t attr = m_attrs[id];
    const std::string& text = m_tokens[id];
    if (attr & (Control | Unknown)) {
        return text;
    }
    if (attr & UserDefined) {
        return text;
    }
    if (attr & Normal) {
        if (m_spm) {
            return replaceAll(text, kSpmSpace, " ");
        }
        std::string bytes;
        for (const std::uint32_t cp : codePointsFromUtf8(text)) {
            if (const auto b = bpeCharToByte(cp)) {
                bytes.push_back(static_cast<char>(*b));
            } else {
                appendUtf8(bytes, cp);  // not a byte character: kept as it is
            }
        }
        return bytes;
    }
    if (attr & Byte) {
        unsigned value = 0;
        if (text.size() == 6 && text.starts_with("<0x") && text.back() == '>' &&
            std::sscanf(text.c_str() + 3, "%2x", &value) == 1) {
            return std::string(1, static_cast<char>(value));
        }
        return text;
    }
    return {};  // unused and undefined tokens
}

std::string Tokenizer::decode(std::span<const std::int32_t> ids, DecodeOptions options) const
{
    if (options.removeSpecial && m_addBos && !ids.empty() && ids.front() == m_bos) {
        ids = ids.subspan(1);
    }
    if (options.removeSpecial && m_addEos && !ids.empty() && ids.back() == m_eos) {
        ids = ids.subspan(0, ids.size() - 1);
    }
    std::string text;
    bool removeSpace = m_addSpacePrefix;
    for (const std::int32_t id : ids) {
        if (!inRange(id) || (!options.renderSpecial && (m_attrs[static_cast<std::size_t>(id)] & (Control | Unknown)))) {
            removeSpace = removeSpace && id == m_bos;
            continue;
        }
        std::string_view piece = m_pieces[static_cast<std::size_t>(id)];
        if (removeSpace && id != m_bos) {
            if (piece.starts_with(' ')) {
                piece.remove_prefix(1);
            }
            removeSpace = false;
        }
        text += piece;
    }
    return options.cleanSpaces ? cleanSpaces(text) : text;
}

}  // namespace logitlab::engine::tokenizer
