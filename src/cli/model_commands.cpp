#include "cli/model_commands.h"

#include "app/io/gguf_model_file.h"
#include "app/io/mapped_file.h"
#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/transformer/gguf_vocabulary.h"
#include "engine/transformer/transformer.h"

#include <QThread>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace logitlab::cli {

namespace {

using engine::gguf::GgufFile;
using engine::tokenizer::Tokenizer;
using engine::transformer::vocabularyFromGguf;

QString fromStd(const std::string& s) { return QString::fromStdString(s); }

// The model file, mapped, and its parsed directory (which points into the mapping).
struct LoadedModel {
    std::shared_ptr<const app::MappedFile> mapped;
    std::optional<GgufFile> file;
};

LoadedModel loadModel(const QCommandLineParser& parser)
{
    if (!parser.isSet(QStringLiteral("model")))
        throw UsageError{QStringLiteral("--model: give the GGUF model file")};
    const QString path = parser.value(QStringLiteral("model"));
    LoadedModel model;
    auto mapped = app::modelFileBytes(path);
    if (!mapped)
        throw UsageError{fromStd(mapped.error())};
    model.mapped = mapped.value();
    const auto bytes = model.mapped->bytes();
    auto file = GgufFile::parse(std::as_bytes(bytes), path.toStdString());
    if (!file)
        throw UsageError{fromStd(file.error())};
    model.file.emplace(std::move(file).value());
    return model;
}

Tokenizer makeTokenizer(const GgufFile& file)
{
    auto vocabulary = vocabularyFromGguf(file);
    if (!vocabulary)
        throw UsageError{fromStd(vocabulary.error())};
    auto tokenizer = Tokenizer::create(std::move(vocabulary).value());
    if (!tokenizer)
        throw UsageError{fromStd(file.what() + ": " + tokenizer.error())};
    return std::move(tokenizer).value();
}

// A string as a JSON string literal (UTF-8; invalid bytes become U+FFFD).
QString jsonString(const std::string& text)
{
    QString s = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
    QString out = QStringLiteral("\"");
    for (const QChar c : s) {
        switch (c.unicode()) {
        case '"':
            out += QStringLiteral("\\\"");
            break;
        case '\\':
            out += QStringLiteral("\\\\");
            break;
        case '\n':
            out += QStringLiteral("\\n");
            break;
        case '\r':
            out += QStringLiteral("\\r");
            break;
        case '\t':
            out += QStringLiteral("\\t");
            break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
            else
                out += c;
        }
    }
    return out + QLatin1Char('"');
}

// The shortest text that reads back as the same float ("nan", "inf", "-inf" for the others).
std::string floatText(float value)
{
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return std::string(buffer, end);
}

std::string idList(std::span<const std::int32_t> ids)
{
    std::string out;
    for (std::size_t i = 0; i < ids.size(); ++i)
        out += (i ? "," : "") + std::to_string(ids[i]);
    return out;
}

QCommandLineOption modelOption()
{
    return {QStringLiteral("model"), QStringLiteral("The model: a GGUF file (llama, qwen2 or gpt2)."),
            QStringLiteral("FILE.gguf")};
}

QList<QCommandLineOption> specialOptions()
{
    return {
        {QStringLiteral("no-bos"), QStringLiteral("Do not add the BOS (and EOS) tokens the model's tokenizer adds.")},
        {QStringLiteral("no-parse-special"),
         QStringLiteral(
             "Spell out the text of control tokens (e.g. <|im_start|>) instead of reading them as those tokens.")},
    };
}

std::vector<std::int32_t> encode(const Tokenizer& tokenizer, const QCommandLineParser& parser, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    return tokenizer.encode(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())),
                            !parser.isSet(QStringLiteral("no-bos")), !parser.isSet(QStringLiteral("no-parse-special")));
}

std::vector<std::int32_t> parseTokenIds(const QString& text, std::int64_t vocabulary)
{
    std::vector<std::int32_t> ids;
    const QStringList parts = text.split(QLatin1Char(','));
    for (const QString& raw : parts) {
        const QString part = raw.trimmed();
        bool ok = false;
        const qint64 id = part.toLongLong(&ok);
        if (!ok)
            throw UsageError{QStringLiteral("--token-ids: '%1' is not a whole number").arg(part)};
        if (id < 0 || id >= vocabulary)
            throw UsageError{
                QStringLiteral("--token-ids: token %1 is outside the vocabulary 0..%2").arg(id).arg(vocabulary - 1)};
        ids.push_back(static_cast<std::int32_t>(id));
    }
    return ids;
}

}  // namespace

CommandSpec tokenizeCommand()
{
    return {
        QStringLiteral("tokenize"),
        QStringLiteral("the token ids of a text under a GGUF model's tokenizer"),
        QStringLiteral("Print the token ids a GGUF model's tokenizer gives a text, one per line with the\n"
                       "token's text (as a JSON string), as llama.cpp's tokenizer would: BOS added when the\n"
                       "model asks for it, control tokens in the text read as such."),
        {},
        {},
        QList<QCommandLineOption>{
            modelOption(), {QStringLiteral("text"), QStringLiteral("The text to tokenize."), QStringLiteral("TEXT")}} +
            specialOptions() +
            QList<QCommandLineOption>{{QStringLiteral("json"), QStringLiteral("Print one JSON object.")}},
        runTokenize};
}

int runTokenize(CommandContext& context)
{
    QCommandLineParser parser;
    declareCommand(parser, tokenizeCommand());
    if (!parseOrThrow(parser, context.arguments, context.out))
        return 0;
    if (!parser.isSet(QStringLiteral("text")))
        throw UsageError{QStringLiteral("--text: give the text to tokenize")};
    const LoadedModel model = loadModel(parser);
    const Tokenizer tokenizer = makeTokenizer(*model.file);
    const std::vector<std::int32_t> ids = encode(tokenizer, parser, parser.value(QStringLiteral("text")));
    if (parser.isSet(QStringLiteral("json"))) {
        QString pieces;
        for (std::size_t i = 0; i < ids.size(); ++i)
            pieces += (i ? QStringLiteral(",") : QString()) + jsonString(tokenizer.tokenPiece(ids[i]));
        context.out << "{\"model\":" << jsonString(model.file->what()) << ",\"count\":" << ids.size()
                    << ",\"token_ids\":[" << fromStd(idList(ids)) << "],\"pieces\":[" << pieces << "]}\n";
        return 0;
    }
    for (const std::int32_t id : ids)
        context.out << id << '\t' << jsonString(tokenizer.tokenPiece(id)) << '\n';
    return 0;
}

CommandSpec logitsCommand()
{
    return {
        QStringLiteral("logits"),
        QStringLiteral("a GGUF model's logits after a prompt, computed on the CPU"),
        QStringLiteral("Run a GGUF model (llama, qwen2 or gpt2; F32, F16, BF16, Q8_0, Q4_0, Q5_0, Q4_K,\n"
                       "Q6_K weights) over a prompt or token ids and print the logits after the last\n"
                       "token: the --top highest with their tokens, or with --top 0 every logit in id\n"
                       "order, one per line (a logits file the other commands read)."),
        {},
        {},
        QList<QCommandLineOption>{
            modelOption(),
            {QStringLiteral("prompt"), QStringLiteral("The prompt, tokenized by the model's tokenizer."),
             QStringLiteral("TEXT")},
            {QStringLiteral("token-ids"), QStringLiteral("The tokens instead of a prompt: ids, comma-separated."),
             QStringLiteral("ID,ID,...")}} +
            specialOptions() +
            QList<QCommandLineOption>{
                {QStringLiteral("top"), QStringLiteral("How many of the highest logits to print (default 10; 0: all)."),
                 QStringLiteral("K")},
                {QStringLiteral("threads"), QStringLiteral("Threads of the forward pass (1..256). Default: all cores."),
                 QStringLiteral("N")},
                {QStringLiteral("json"), QStringLiteral("Print one JSON object with every logit.")},
            },
        runLogits};
}

int runLogits(CommandContext& context)
{
    QCommandLineParser parser;
    declareCommand(parser, logitsCommand());
    if (!parseOrThrow(parser, context.arguments, context.out))
        return 0;
    const bool prompt = parser.isSet(QStringLiteral("prompt"));
    if (prompt == parser.isSet(QStringLiteral("token-ids")))
        throw UsageError{QStringLiteral("give either --prompt or --token-ids")};
    const qint64 top =
        parser.isSet(QStringLiteral("top")) ? integerOption(parser, QStringLiteral("top"), 0, 1'000'000'000) : 10;
    engine::transformer::TransformerOptions options;
    options.threads =
        parser.isSet(QStringLiteral("threads"))
            ? static_cast<int>(integerOption(parser, QStringLiteral("threads"), 1,
                                             engine::transformer::TransformerOptions::kMaxThreads))
            : std::clamp(QThread::idealThreadCount(), 1, engine::transformer::TransformerOptions::kMaxThreads);
    const LoadedModel model = loadModel(parser);
    const GgufFile& file = *model.file;

    // The tokenizer: needed for a prompt; for token ids only to name the tokens.
    std::optional<Tokenizer> tokenizer;
    if (prompt) {
        tokenizer.emplace(makeTokenizer(file));
    } else if (auto vocabulary = vocabularyFromGguf(file)) {
        if (auto made = Tokenizer::create(std::move(vocabulary).value()))
            tokenizer.emplace(std::move(made).value());
    }
    auto config = engine::transformer::ModelConfig::fromGguf(file);
    if (!config)
        throw UsageError{fromStd(config.error())};
    const std::vector<std::int32_t> ids =
        prompt ? encode(*tokenizer, parser, parser.value(QStringLiteral("prompt")))
               : parseTokenIds(parser.value(QStringLiteral("token-ids")), config->vocabulary);
    if (ids.empty())
        throw UsageError{QStringLiteral("--prompt: the prompt gives no tokens (add text, or drop --no-bos)")};
    if (static_cast<std::int64_t>(ids.size()) > config->context)
        throw UsageError{
            QStringLiteral("%1 tokens are more than the model's context of %2").arg(ids.size()).arg(config->context)};
    options.context = static_cast<std::int64_t>(ids.size());  // the cache holds just the prompt
    auto transformer = engine::transformer::Transformer::load(file, options);
    if (!transformer)
        throw UsageError{fromStd(transformer.error())};
    const auto logits = transformer.value().evaluate(ids);
    if (!logits)
        throw UsageError{fromStd(logits.error())};
    const std::span<const float> values = *logits;

    if (parser.isSet(QStringLiteral("json"))) {
        std::string numbers;
        numbers.reserve(values.size() * 11);
        for (std::size_t i = 0; i < values.size(); ++i) {
            numbers += i ? "," : "";
            numbers += std::isfinite(values[i]) ? floatText(values[i]) : std::string("null");
        }
        context.out << "{\"model\":" << jsonString(file.what())
                    << ",\"architecture\":" << jsonString(engine::transformer::architectureName(config->arch))
                    << ",\"token_ids\":[" << fromStd(idList(ids)) << "],\"vocabulary\":" << values.size()
                    << ",\"logits\":[" << fromStd(numbers) << "]}\n";
        return 0;
    }
    if (top == 0) {
        for (const float v : values)
            context.out << fromStd(floatText(v)) << '\n';
        return 0;
    }
    // The highest logits, ties by id.
    std::vector<std::int32_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    const auto shown = static_cast<std::size_t>(std::min<qint64>(top, static_cast<qint64>(values.size())));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                      [&](std::int32_t a, std::int32_t b) {
                          const float x = values[static_cast<std::size_t>(a)];
                          const float y = values[static_cast<std::size_t>(b)];
                          if (std::isnan(x) != std::isnan(y))
                              return std::isnan(y);
                          return x > y || (!(y > x) && a < b);
                      });
    context.out << "rank\tid\tlogit\ttoken\n";
    for (std::size_t r = 0; r < shown; ++r) {
        const std::int32_t id = order[r];
        context.out << r + 1 << '\t' << id << '\t' << fromStd(floatText(values[static_cast<std::size_t>(id)])) << '\t'
                    << (tokenizer ? jsonString(tokenizer->tokenPiece(id)) : QStringLiteral("\"\"")) << '\n';
    }
    return 0;
}

}  // namespace logitlab::cli
