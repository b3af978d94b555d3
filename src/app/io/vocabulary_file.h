// A vocabulary file: a Hugging Face tokenizer.json (told by its leading '{') or a text file
// with one token per line. The tokens by id go to engine::fitVocabulary with the logits' V.
#pragma once

#include "engine/core/result.h"
#include "engine/models/vocabulary.h"

#include <QByteArray>
#include <QString>

#include <string>

namespace logitlab::app {

// tokenizer.json: model.vocab ({"token": id} for BPE and WordPiece, [[token, score], ...] for
// Unigram) plus added_tokens ([{"id", "content"}, ...]). Byte-level BPE is recognised by a
// ByteLevel pre-tokenizer or decoder, SentencePiece's "▁" by a Metaspace or Replace decoder.
engine::Result<engine::TokenTable> parseTokenizerJson(const QByteArray& json, const std::string& what);

// Either kind of file, from its content.
engine::Result<engine::TokenTable> readVocabularyFile(const QString& path);

}  // namespace logitlab::app
