#include "app/text/sampler_settings_json.h"

namespace logitlab::app {

QString readSamplerSetting(JsonObjectReader& reader, const engine::SamplerParameter& parameter,
                           engine::ChainSettings& settings)
{
    const QString name = QString::fromLatin1(parameter.name);
    QString key = reader.has(name) ? name : QString();
    for (const char* old : parameter.oldKeys) {
        const QString oldKey = QString::fromLatin1(old);
        if (!reader.has(oldKey))
            continue;
        if (!key.isEmpty())
            throw JsonFieldError{reader.keyPath(oldKey),
                                 QStringLiteral("is the old spelling of %1: give only one of them").arg(key)};
        key = oldKey;
    }
    if (key.isEmpty())
        return key;
    if (parameter.choice) {
        QStringList allowed;
        for (const char* c : parameter.choices)
            allowed << QString::fromLatin1(c);
        settings.*parameter.choice = reader.string(key, {}, allowed).toStdString();
    } else if (parameter.list)
        settings.*parameter.list = reader.string(key, {}).toStdString();
    else if (engine::isWholeNumber(parameter))
        settings.*parameter.field = static_cast<double>(
            reader.integer(key, {}, static_cast<qint64>(parameter.minimum), static_cast<qint64>(parameter.maximum)));
    else
        settings.*parameter.field = reader.number(key, {}, parameter.minimum, parameter.maximum);
    return key;
}

engine::ChainSettings readSamplerSettings(JsonObjectReader& reader, bool lessonOnly)
{
    engine::ChainSettings settings;
    for (const engine::SamplerParameter& p : engine::samplerParameters())
        if (!lessonOnly || p.group == engine::ParameterGroup::Lesson)
            readSamplerSetting(reader, p, settings);
    return settings;
}

QJsonObject samplerSettingsToJson(const engine::ChainSettings& settings)
{
    QJsonObject json;
    for (const engine::SamplerParameter& p : engine::samplerParameters()) {
        const QString key = QString::fromLatin1(p.name);
        if (p.choice && !(settings.*p.choice).empty())
            json.insert(key, QString::fromStdString(settings.*p.choice));
        else if (p.list && !(settings.*p.list).empty())
            json.insert(key, QString::fromStdString(settings.*p.list));
        else if (p.field && (settings.*p.field).has_value())
            json.insert(key, engine::isWholeNumber(p) ? QJsonValue(static_cast<qint64>(*(settings.*p.field)))
                                                      : QJsonValue(*(settings.*p.field)));
    }
    return json;
}

QJsonObject samplerSettingsToJson(const engine::SamplerSettings& lesson)
{
    engine::ChainSettings settings;
    settings.temperature = lesson.temperature;
    if (lesson.topK)
        settings.topK = *lesson.topK;
    settings.topP = lesson.topP;
    return samplerSettingsToJson(settings);
}

}  // namespace logitlab::app
