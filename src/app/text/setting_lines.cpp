#include "app/text/setting_lines.h"

#include "app/kinds/junk_risk_spec.h"
#include "engine/io/logits_parser.h"
#include "engine/sampler/sampler_settings.h"

#include <QObject>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>
#include <optional>

namespace logitlab::app {

namespace {

// The lesson's three values, when the chain text holds nothing else; nothing otherwise.
std::optional<engine::SamplerSettings> lessonValues(const QString& chain)
{
    engine::SamplerSettings s;
    for (const QString& part : chain.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList kv = part.split(QLatin1Char('='));
        const auto value = kv.size() == 2 ? engine::parseDouble(kv[1].trimmed().toStdString()) : std::nullopt;
        if (!value)
            return std::nullopt;
        const QString key = kv[0].trimmed();
        if (key == QLatin1String("temperature"))
            s.temperature = *value;
        else if (key == QLatin1String("top-k") && *value == std::floor(*value) && *value >= 1 && *value <= 2147483647.0)
            s.topK = static_cast<int>(*value);
        else if (key == QLatin1String("top-p"))
            s.topP = *value;
        else
            return std::nullopt;
    }
    return s;
}

// The chain text as the engine's grammar takes it: no blanks around the commas.
QString compact(const QString& chain)
{
    QStringList parts;
    for (const QString& part : chain.split(QLatin1Char(','), Qt::SkipEmptyParts))
        parts << part.trimmed();
    return parts.join(QLatin1Char(','));
}

}  // namespace

engine::Result<QList<SettingSpec>> settingsFromLines(const QString& text)
{
    QList<SettingSpec> out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    const QStringList presets = semanticsNames();
    for (qsizetype n = 0; n < lines.size(); ++n) {
        const QString line = lines[n].trimmed();
        if (line.isEmpty())
            continue;
        const auto fail = [n](const QString& why) {
            return engine::Error{QObject::tr("Settings, line %1: %2").arg(n + 1).arg(why).toStdString()};
        };
        // ": " separates the label and the preset; the chain's own ':' (xtc:probability=0.5) has
        // no blank after it.
        static const QRegularExpression separator(QStringLiteral(":\\s+"));
        QStringList parts = line.split(separator);
        for (QString& p : parts)
            p = p.trimmed();
        SettingSpec s;
        QString preset;
        if (parts.size() == 3) {
            s.label = parts[0];
            preset = parts[1];
        } else if (parts.size() == 2 && presets.contains(parts[0])) {
            preset = parts[0];
        } else if (parts.size() == 2) {
            s.label = parts[0];
        } else if (parts.size() > 3) {
            return fail(QObject::tr("expected [label:] [preset:] chain"));
        }
        if (!preset.isEmpty() && !presets.contains(preset))
            return fail(QObject::tr("'%1' is not a preset (%2)").arg(preset, presets.join(QStringLiteral(", "))));
        const QString chain = compact(parts.last());
        if (chain.isEmpty())
            return fail(QObject::tr("no chain: e.g. temperature=1, top-p=0.9"));
        const auto lesson =
            (preset.isEmpty() || preset == QLatin1String("lesson")) ? lessonValues(chain) : std::nullopt;
        if (lesson) {
            s.sampler = *lesson;
            if (auto problem = engine::validateSettings(s.sampler))
                return fail(QString::fromStdString(*problem));
        } else {
            s.semantics = preset.isEmpty() ? QStringLiteral("lesson") : preset;
            s.chain = chain;
            if (auto decoder = settingDecoder(s); !decoder)
                return fail(QString::fromStdString(decoder.error()));
        }
        if (s.label.isEmpty())
            s.label = s.describe();
        out << s;
    }
    if (out.isEmpty() || out.size() > kMaxSettings)
        return engine::Error{
            QObject::tr("Settings: give 1 to %1 settings, one per line").arg(kMaxSettings).toStdString()};
    return out;
}

QString settingsToLines(const QList<SettingSpec>& settings)
{
    QStringList lines;
    for (const auto& s : settings) {
        const QString described = s.describe();
        lines << (s.label == described ? described : s.label + QStringLiteral(": ") + described);
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace logitlab::app
