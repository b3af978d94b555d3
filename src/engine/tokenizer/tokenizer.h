// Text to token ids and back for a GGUF model's vocabulary, matching llama.cpp's tokenizers so
// ids can be compared with it: `gpt2` is byte-level BPE (merges by rank inside the words of the
// pre-tokenizer named by `tokenizer.ggml.pre`), `llama` is SentencePiece (the highest-scoring
// adjacent pair merges first, characters outside the vocabulary fall back to <0xXX> byte tokens,
// spaces become U+2581 and a leading space is added). Control, unknown and user-defined tokens
// are matched in the text before either (control and unknown only when asked to parse them).
#pragma once

#include "engine/core/result.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "engine/tokenizer/tokenizer_vocabulary.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace logitlab::engine::tokenizer {

// llama.cpp's add_bos when the file has no tokenizer.ggml.add_bos_token: true for llama and for
// the llama3 family of pre-tokenizers, false otherwise.
bool defaultAddBos(std::string_view model, std::string_view pre);

struct DecodeOptions {
    bool renderSpecial = false;  // control and unknown tokens show their text (else nothing)
    bool removeSpecial = false;  // drop a leading BOS and a trailing EOS the vocabulary adds
    // llama.cpp's clean_up_tokenization_spaces pass (" ." -> ".", " 's" -> "'s", ...). Off, the
    // text round-trips; cleansSpaces() says whether llama.cpp applies it to this vocabulary.
    bool cleanSpaces = false;
};

class Tokenizer {
public:
    // Checks the vocabulary and builds the lookup tables; an error names what is wrong.
    static Result<Tokenizer> create(TokenizerVocabulary vocabulary);

    // addSpecial adds BOS (and EOS) as the vocabulary says; parseSpecial turns the text of
    // control tokens (e.g. "<|im_start|>") into those tokens instead of spelling it out.
    std::vector<std::int32_t> encode(std::string_view text, bool addSpecial, bool parseSpecial = false) const;

    // The text of a token sequence. With a space prefix (SentencePiece), the first token after
    // any BOS loses one leading space, so decode(encode(x)) == x (llama.cpp strips the very first
    // token instead, leaving " x" after a BOS).
    std::string decode(std::span<const std::int32_t> ids, DecodeOptions options = {}) const;

    // The bytes one token stands for ("" for an id out of range; control and unknown tokens give
    // their text when renderSpecial, else ""). May be part of a UTF-8 character.
    std::string tokenPiece(std::int32_t id, bool renderSpecial = true) const;

    // The token's string in the vocabulary (byte-level characters for gpt2, U+2581 for llama).
    const std::string& tokenText(std::int32_t id) const;
    // The id of a vocabulary string, or -1.
    std::int32_t tokenId(std::string_view text) const;

    std::size_t size() const { return m_tokens.size(); }
    std::int32_t bos() const { return m_bos; }  // -1 when there is none
    std::int32_t eos() const { return m_eos; }
    bool addsBos() const { return m_addBos; }
    bool isEog(std::int32_t id) const;  // end of generation: EOS, EOT-like tokens (llama.cpp's list)
    bool isControl(std::int32_t id) const;
    bool cleansSpaces() const { return m_cleanSpaces; }
    bool isSentencePiece() const { return m_spm; }

private:
    enum Attr : std::uint8_t {
        Unknown = 1 << 0,
        Unused = 1 << 1,
        Normal = 1 << 2,
        Control = 1 << 3,
        UserDefined = 1 << 4,
        Byte = 1 << 5,
    };

    struct Fragment {
        std::int32_t token;     // -1: text
        std::size_t begin = 0;  // the text, in the input
        std::size_t length = 0;
    };

    Tokenizer() = default;
    std::vector<Fragment> splitSpecial(std::string_view text, bool parseSpecial) const;
    void encodeSpm(std::string_view text, std::vector<std::int32_t>& out) const;
    void encodeBpeWord(const std::string& word, std::vector<std::int32_t>& out) const;
    std::int32_t byteToken(std::uint8_t byte) const;
    std::string makePiece(std::size_t id) const;
    bool inRange(std::int32_t id) const { return id >= 0 && static_cast<std::size_t>(id) < m_tokens.size(); }

    bool m_spm = false;
    PreTokenizerInfo m_pre;
    // Lookups by std::string_view without building a std::string.
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using StringMap = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;

    std::vector<std::string> m_tokens;
    std::vector<std::string> m_pieces;  // tokenPiece(id, true) of every token
    std::vector<float> m_scores;
    std::vector<std::uint8_t> m_attrs;
    StringMap m_ids;
    StringMap m_mergeRanks;                // "left\0right" -> rank
    std::vector<std::int32_t> m_specials;  // control, user-defined and unknown tokens, longest first
    std::vector<std::int32_t> m_eog;       // sorted
    std::int32_t m_bos = -1;
    std::int32_t m_eos = -1;
    std::int32_t m_unknown = -1;
    bool m_addBos = false;
    bool m_addEos = false;
    bool m_addSpacePrefix = false;
    bool m_cleanSpaces = false;
};

}  // namespace logitlab::engine::tokenizer
