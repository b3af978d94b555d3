#include "app/io/safetensors_header.h"

#include "app/io/json_duplicate_keys.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace logitlab::app {

namespace {

// A whole number in [0, 2^53]: JSON numbers are doubles here, and offsets past 2^53 could not
// be told apart.
std::optional<std::uint64_t> wholeNumber(const QJsonValue& value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (d < 0 || d > 9007199254740992.0 || d != static_cast<double>(static_cast<std::uint64_t>(d)))
        return std::nullopt;
    return static_cast<std::uint64_t>(d);
}

}  // namespace

engine::Result<std::vector<engine::SafetensorsEntry>> parseSafetensorsHeader(const QByteArray& json,
                                                                             const std::string& what)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        return engine::Error{what + ": header at offset " + std::to_string(8 + error.offset) +
                             ": not valid JSON: " + error.errorString().toStdString()};
    if (!document.isObject())
        return engine::Error{what + ": header at offset 8: expected a JSON object"};
    if (auto problem = duplicateJsonKeyProblem(json))
        return engine::Error{what + ": header field " + problem->toStdString()};
    std::vector<engine::SafetensorsEntry> entries;
    const QJsonObject root = document.object();
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__"))
            continue;
        engine::SafetensorsEntry entry;
        entry.name = it.key().toStdString();
        const std::string field = what + ": header field '" + entry.name + "'";
        const QJsonObject tensor = it.value().toObject();
        if (!it.value().isObject())
            return engine::Error{field + ": expected an object with dtype, shape and data_offsets"};
        if (!tensor.value(QLatin1String("dtype")).isString())
            return engine::Error{field + ".dtype: expected a string such as \"F32\""};
        entry.dtype = tensor.value(QLatin1String("dtype")).toString().toStdString();
        if (!tensor.value(QLatin1String("shape")).isArray())
            return engine::Error{field + ".shape: expected an array of whole numbers"};
        for (const QJsonValue& d : tensor.value(QLatin1String("shape")).toArray()) {
            const auto n = wholeNumber(d);
            if (!n)
                return engine::Error{field + ".shape: expected an array of whole numbers"};
            entry.shape.push_back(*n);
        }
        const QJsonArray offsets = tensor.value(QLatin1String("data_offsets")).toArray();
        const auto begin = offsets.size() == 2 ? wholeNumber(offsets[0]) : std::nullopt;
        const auto end = offsets.size() == 2 ? wholeNumber(offsets[1]) : std::nullopt;
        if (!begin || !end)
            return engine::Error{field + ".data_offsets: expected [begin, end], two whole numbers"};
        entry.begin = *begin;
        entry.end = *end;
        entries.push_back(std::move(entry));
    }
    return entries;
}

}  // namespace logitlab::app
