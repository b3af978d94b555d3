#include "app/io/vocabulary_file.h"

#include "app/io/input_file.h"
#include "app/io/json_duplicate_keys.h"
#include "engine/core/input_limits.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace logitlab::app {

namespace {

engine::TokenSpelling spellingOf(const QJsonObject& root)
{
    const auto text = [&](const char* key) {
        return QJsonDocument(root.value(QLatin1String(key)).toObject()).toJson(QJsonDocument::Compact);
    };
    const QByteArray parts = text("pre_tokenizer") + text("decoder");
    if (parts.contains("\"ByteLevel\""))
        return engine::TokenSpelling::ByteLevel;
    if (parts.contains("\"Metaspace\"") || parts.contains("\xE2\x96\x81"))
        return engine::TokenSpelling::Metaspace;
    return engine::TokenSpelling::Plain;
}

}  // namespace

engine::Result<engine::TokenTable> parseTokenizerJson(const QByteArray& json, const std::string& what)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return engine::Error{what + ": offset " + std::to_string(error.offset) +
                             ": not valid JSON: " + error.errorString().toStdString()};
    if (auto problem = duplicateJsonKeyProblem(json))
        return engine::Error{what + ": " + problem->toStdString()};
    const QJsonObject root = document.object();
    const QJsonValue vocab = root.value(QLatin1String("model")).toObject().value(QLatin1String("vocab"));
    if (!vocab.isObject() && !vocab.isArray())
        return engine::Error{
            what +
            ": field model.vocab: expected the tokenizer's vocabulary (a tokenizer.json of Hugging Face tokenizers)"};

    engine::TokenTable table;
    table.spelling = spellingOf(root);
    const auto put = [&](qint64 id, const QString& token, const std::string& field) -> std::optional<std::string> {
        if (id < 0 || id >= static_cast<qint64>(engine::kMaxValues))
            return what + ": " + field + ": id " + std::to_string(id) + " is outside 0 to " +
                   engine::groupedNumber(engine::kMaxValues - 1);
        const auto index = static_cast<std::size_t>(id);
        if (index >= table.byId.size())
            table.byId.resize(index + 1);
        const std::string text = token.toStdString();
        if (table.byId[index] && *table.byId[index] != text)
            return what + ": " + field + ": id " + std::to_string(id) + " is already the token '" + *table.byId[index] +
                   "'";
        if (!table.byId[index])
            ++table.tokenCount;
        table.byId[index] = text;
        return std::nullopt;
    };
    if (vocab.isObject()) {
        const QJsonObject map = vocab.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it.value().isDouble() || it.value().toDouble() != static_cast<double>(it.value().toInteger()))
                return engine::Error{what + ": field model.vocab['" + it.key().toStdString() +
                                     "']: expected a whole-number id"};
            if (auto problem = put(it.value().toInteger(), it.key(), "model.vocab['" + it.key().toStdString() + "']"))
                return engine::Error{*problem};
        }
    } else {
        const QJsonArray list = vocab.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QJsonArray pair = list[i].toArray();
            if (pair.isEmpty() || !pair[0].isString())
                return engine::Error{what + ": field model.vocab[" + std::to_string(i) + "]: expected [token, score]"};
            if (auto problem = put(i, pair[0].toString(), "model.vocab[" + std::to_string(i) + "]"))
                return engine::Error{*problem};
        }
    }
    const QJsonArray added = root.value(QLatin1String("added_tokens")).toArray();
    for (qsizetype i = 0; i < added.size(); ++i) {
        const QJsonObject token = added[i].toObject();
        const std::string field = "added_tokens[" + std::to_string(i) + "]";
        if (!token.value(QLatin1String("id")).isDouble() || !token.value(QLatin1String("content")).isString())
            return engine::Error{what + ": field " + field + ": expected {\"id\": N, \"content\": \"...\"}"};
        // Added tokens are written as they are: they are not byte-level encoded.
        const QString content = token.value(QLatin1String("content")).toString();
        if (auto problem = put(token.value(QLatin1String("id")).toInteger(), content, field))
            return engine::Error{*problem};
    }
    if (table.tokenCount == 0)
        return engine::Error{what + ": field model.vocab: holds no tokens"};
    return table;
}

engine::Result<engine::TokenTable> readVocabularyFile(const QString& path)
{
    const auto bytes = readInputFile(path);
    if (!bytes)
        return engine::Error{bytes.error()};
    // A tokenizer.json saved with a UTF-8 byte order mark is still JSON (the mark is dropped).
    const bool bom = bytes->startsWith("\xEF\xBB\xBF");
    const QByteArray trimmed = bytes->mid(bom ? 3 : 0, 64).trimmed();
    if (trimmed.startsWith('{'))
        return parseTokenizerJson(bom ? bytes->mid(3) : *bytes, path.toStdString());
    return engine::parseVocabularyText(std::string_view(bytes->constData(), static_cast<std::size_t>(bytes->size())),
                                       path.toStdString());
}

}  // namespace logitlab::app
