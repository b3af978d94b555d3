#include "ui/forms/chart_export_dialog.h"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QVBoxLayout>

#include <cmath>

namespace logitlab::ui {

namespace {

const QString kSettingsGroup = QStringLiteral("chartExport");
constexpr int kPreviewWidth = 360;
constexpr int kPreviewHeight = 260;

// A decimal number as typed: '.' or ',' as the decimal mark; NaN for anything else.
double typedNumber(const QString& text)
{
    bool ok = false;
    const double value = QString(text).replace(QLatin1Char(','), QLatin1Char('.')).trimmed().toDouble(&ok);
    return ok ? value : std::nan("");
}

QString shown(double value) { return QString::number(value, 'g', 4); }

}  // namespace

QString suggestedChartFileName(const QString& pageTitle, const QString& chartTitle, ChartFormat format)
{
    QString settings = chartTitle;
    if (const qsizetype colon = settings.lastIndexOf(QLatin1Char(':')); colon >= 0)
        settings.truncate(colon);  // "...: 12 survivors of 50" is the result, not the setting
    static const QRegularExpression equals(QStringLiteral("\\s*=\\s*"));
    settings.replace(equals, QString());
    QString name = pageTitle.toLower() + QLatin1Char('-') + settings;
    static const QRegularExpression other(QStringLiteral("[^A-Za-z0-9.+-]+"));
    name.replace(other, QStringLiteral("-"));
    static const QRegularExpression dashes(QStringLiteral("-{2,}"));
    name.replace(dashes, QStringLiteral("-"));
    name = name.left(80);
    while (name.endsWith(QLatin1Char('-')) || name.endsWith(QLatin1Char('.')))
        name.chop(1);
    while (name.startsWith(QLatin1Char('-')))
        name.remove(0, 1);
    if (name.isEmpty())
        name = QStringLiteral("chart");
    return name + QLatin1Char('.') + chartFormatName(format);
}

ChartExportDialog::ChartExportDialog(QChart* chart, const QString& pageTitle, QWidget* parent)
    : QDialog(parent), m_chart(chart), m_pageTitle(pageTitle)
{
    setWindowTitle(tr("Export chart"));
    auto* form = new QFormLayout;

    auto* size = new QWidget;
    auto* sizeRow = new QHBoxLayout(size);
    sizeRow->setContentsMargins(0, 0, 0, 0);
    m_unit = new QComboBox;
    m_unit->addItem(tr("cm"), lengthUnitName(LengthUnit::Cm));
    m_unit->addItem(tr("in"), lengthUnitName(LengthUnit::Inch));
    sizeRow->addWidget(fieldWithError(m_width));
    sizeRow->addWidget(new QLabel(QStringLiteral("\u00d7")), 0, Qt::AlignTop);
    sizeRow->addWidget(fieldWithError(m_height));
    sizeRow->addWidget(m_unit, 0, Qt::AlignTop);
    // Object names for tests and for style sheets.
    m_width.edit->setObjectName(QStringLiteral("width"));
    m_height.edit->setObjectName(QStringLiteral("height"));
    m_width.edit->setAccessibleName(tr("Width"));
    m_height.edit->setAccessibleName(tr("Height"));
    form->addRow(tr("&Size:"), size);
    qobject_cast<QLabel*>(form->labelForField(size))->setBuddy(m_width.edit);

    form->addRow(tr("&DPI (PNG):"), fieldWithError(m_dpi));
    qobject_cast<QLabel*>(form->labelForField(m_dpi.edit->parentWidget()))->setBuddy(m_dpi.edit);
    m_dpi.edit->setObjectName(QStringLiteral("dpi"));
    m_pixels = new QLabel;
    form->addRow(QString(), m_pixels);
    form->addRow(tr("Font &scale:"), fieldWithError(m_fontScale));
    qobject_cast<QLabel*>(form->labelForField(m_fontScale.edit->parentWidget()))->setBuddy(m_fontScale.edit);

    m_fontScale.edit->setObjectName(QStringLiteral("font-scale"));
    m_background = new QComboBox;
    m_background->addItem(tr("White"));
    m_background->addItem(tr("Transparent"));
    form->addRow(tr("&Background:"), m_background);
    // Off by default: the paper's caption names the figure (the preview shows the difference).
    m_title = new QCheckBox(tr("Show the chart's &title"));
    m_title->setObjectName(QStringLiteral("title"));
    form->addRow(QString(), m_title);
    m_format = new QComboBox;
    m_format->addItem(tr("PNG image"), chartFormatName(ChartFormat::Png));
    m_format->addItem(tr("SVG drawing"), chartFormatName(ChartFormat::Svg));
    m_format->addItem(tr("PDF document"), chartFormatName(ChartFormat::Pdf));
    form->addRow(tr("&Format:"), m_format);

    auto* file = new QWidget;
    auto* fileRow = new QHBoxLayout(file);
    fileRow->setContentsMargins(0, 0, 0, 0);
    fileRow->addWidget(fieldWithError(m_file), 1);
    m_file.edit->setObjectName(QStringLiteral("file"));
    auto* browse = new QPushButton(tr("B&rowse..."));
    fileRow->addWidget(browse, 0, Qt::AlignTop);
    form->addRow(tr("F&ile:"), file);
    qobject_cast<QLabel*>(form->labelForField(file))->setBuddy(m_file.edit);

    m_unit->setObjectName(QStringLiteral("unit"));
    m_background->setObjectName(QStringLiteral("background"));
    m_format->setObjectName(QStringLiteral("format"));
    m_preview = new QLabel;
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setFixedSize(kPreviewWidth, kPreviewHeight);
    m_preview->setAlignment(Qt::AlignCenter);
    m_preview->setFrameShape(QFrame::StyledPanel);
    m_preview->setAccessibleName(tr("Preview"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* columns = new QHBoxLayout;
    columns->addLayout(form, 1);
    auto* previewColumn = new QVBoxLayout;
    previewColumn->addWidget(new QLabel(tr("Preview (the figure's proportions and text size):")));
    previewColumn->addWidget(m_preview);
    m_cutWarning = new QLabel;
    m_cutWarning->setObjectName(QStringLiteral("cutWarning"));
    m_cutWarning->setWordWrap(true);
    m_cutWarning->setMaximumWidth(kPreviewWidth);
    m_cutWarning->setStyleSheet(QStringLiteral("color: #b00020"));
    m_cutWarning->hide();
    previewColumn->addWidget(m_cutWarning);
    previewColumn->addStretch();
    columns->addLayout(previewColumn);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(buttons);

    loadSettings();
    for (Field* field : {&m_width, &m_height, &m_dpi, &m_fontScale})
        connect(field->edit, &QLineEdit::textEdited, this, &ChartExportDialog::readFields);
    connect(m_file.edit, &QLineEdit::textEdited, this, [this] {
        m_fileEdited = true;
        readFields();
    });
    connect(m_unit, &QComboBox::currentIndexChanged, this, &ChartExportDialog::unitChanged);
    connect(m_background, &QComboBox::currentIndexChanged, this, &ChartExportDialog::readFields);
    connect(m_title, &QCheckBox::toggled, this, &ChartExportDialog::readFields);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ChartExportDialog::formatChanged);
    connect(browse, &QPushButton::clicked, this, &ChartExportDialog::browse);
    formatChanged();
}

QWidget* ChartExportDialog::fieldWithError(Field& field)
{
    auto* box = new QWidget;
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    field.edit = new QLineEdit;
    field.error = new QLabel;
    field.error->setWordWrap(true);
    field.error->setStyleSheet(QStringLiteral("color: #c00000"));
    field.error->hide();
    column->addWidget(field.edit);
    column->addWidget(field.error);
    return box;
}

ChartFormat ChartExportDialog::format() const
{
    return chartFormatFromName(m_format->currentData().toString()).value_or(ChartFormat::Png);
}

QString ChartExportDialog::path() const { return m_file.edit->text().trimmed(); }

QString ChartExportDialog::fieldError(const QString& field) const
{
    const Field* f = field == QLatin1String("width")        ? &m_width
                     : field == QLatin1String("height")     ? &m_height
                     : field == QLatin1String("dpi")        ? &m_dpi
                     : field == QLatin1String("font-scale") ? &m_fontScale
                     : field == QLatin1String("file")       ? &m_file
                                                            : nullptr;
    return f && !f->error->isHidden() ? f->error->text() : QString();
}

bool ChartExportDialog::isValid() const { return m_ok->isEnabled(); }

void ChartExportDialog::readFields()
{
    m_options.width = typedNumber(m_width.edit->text());
    m_options.height = typedNumber(m_height.edit->text());
    m_options.unit = m_shownUnit;
    const double dpi = typedNumber(m_dpi.edit->text());
    // A fractional or unreadable DPI becomes 0, which the check refuses.
    m_options.dpi = std::isfinite(dpi) && dpi == std::floor(dpi) && std::abs(dpi) < 1e6 ? static_cast<int>(dpi) : 0;
    m_options.fontScale = typedNumber(m_fontScale.edit->text());
    m_options.transparent = m_background->currentIndex() == 1;
    m_options.title = m_title->isChecked();
    m_options.screenFonts = false;

    // Each field is checked on its own (good values standing in for the others), so every
    // wrong one says so at once, next to itself.
    const auto check = [this](Field& field, const QString& name, auto set) {
        ChartExportOptions probe = ChartExportOptions::fromScreenPixels(QSize(960, 600), ChartExportOptions{}.dpi);
        probe.unit = m_options.unit;  // 10 x 6.25 stands in, good in cm and in inches
        set(probe);
        const ChartOptionProblem problem = checkChartExportOptions(probe);
        const QString message = problem.field == name ? problem.message : QString();
        field.error->setText(message);
        field.error->setVisible(!message.isEmpty());
        return message.isEmpty();
    };
    bool ok = true;
    ok &= check(m_width, QStringLiteral("width"), [this](ChartExportOptions& p) { p.width = m_options.width; });
    ok &= check(m_height, QStringLiteral("height"), [this](ChartExportOptions& p) { p.height = m_options.height; });
    ok &= check(m_dpi, QStringLiteral("dpi"), [this](ChartExportOptions& p) { p.dpi = m_options.dpi; });
    ok &= check(m_fontScale, QStringLiteral("font-scale"),
                [this](ChartExportOptions& p) { p.fontScale = m_options.fontScale; });
    const QString fileProblem = path().isEmpty() ? tr("file: choose where to write the chart") : QString();
    m_file.error->setText(fileProblem);
    m_file.error->setVisible(!fileProblem.isEmpty());
    ok &= fileProblem.isEmpty();
    m_ok->setEnabled(ok);
    if (ok) {
        const QSize pixels = m_options.pixelSize();
        m_pixels->setText(format() == ChartFormat::Png
                              ? tr("%1 \u00d7 %2 pixels").arg(pixels.width()).arg(pixels.height())
                              : tr("vector: the DPI does not apply"));
        updatePreview();
    }
}

void ChartExportDialog::unitChanged()
{
    const LengthUnit unit = lengthUnitFromName(m_unit->currentData().toString()).value_or(LengthUnit::Cm);
    if (unit == m_shownUnit)
        return;
    // The figure keeps its size; only the numbers change to the new unit.
    const double factor = unit == LengthUnit::Cm ? 2.54 : 1.0 / 2.54;
    for (Field* field : {&m_width, &m_height}) {
        const double value = typedNumber(field->edit->text());
        if (std::isfinite(value))
            field->edit->setText(shown(value * factor));
    }
    m_shownUnit = unit;
    readFields();
}

void ChartExportDialog::formatChanged()
{
    m_dpi.edit->setEnabled(format() == ChartFormat::Png);
    const QString current = path();
    if (!m_fileEdited || current.isEmpty()) {
        const QString folder =
            QSettings().value(kSettingsGroup + QStringLiteral("/folder"), QDir::homePath()).toString();
        m_file.edit->setText(QDir(folder).filePath(
            suggestedChartFileName(m_pageTitle, m_chart ? m_chart->title() : QString(), format())));
    } else {
        const QFileInfo info(current);
        m_file.edit->setText(
            QDir(info.path()).filePath(info.completeBaseName() + QLatin1Char('.') + chartFormatName(format())));
    }
    readFields();
}

void ChartExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export chart"), path(), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (chosen.isEmpty())
        return;
    m_fileEdited = true;
    m_file.edit->setText(chosen);
    if (const auto chosenFormat = chartFormatFromName(QFileInfo(chosen).suffix()))
        m_format->setCurrentIndex(m_format->findData(chartFormatName(*chosenFormat)));
    readFields();
}

void ChartExportDialog::updatePreview()
{
    if (!m_chart) {
        m_preview->setText(tr("This page has no chart."));
        return;
    }
    // Rendered at screen resolution: enough to judge proportions and text size, and quick
    // enough to follow every keystroke.
    ChartExportOptions preview = m_options;
    preview.dpi = ChartExportOptions::kMinDpi;
    QStringList cut;
    const QImage image = chartImage(m_chart, preview, &cut);
    // The export would cut what the preview cuts: say so before the file is written.
    m_cutWarning->setVisible(!cut.isEmpty());
    if (!cut.isEmpty()) {
        const qsizetype count = cut.size();
        cut.removeDuplicates();
        QStringList quoted;
        for (const QString& text : cut.mid(0, 3))
            quoted << QStringLiteral("\u201c%1\u201d").arg(text.toHtmlEscaped());
        m_cutWarning->setText((count == 1 ? tr("At this size 1 text would be cut to %1.")
                                          : tr("At this size %1 texts would be cut, to %2.").arg(count))
                                  .arg(quoted.join(QStringLiteral(", "))) +
                              QLatin1Char(' ') + tr("A larger size or a smaller font scale shows them whole."));
    }
    QPixmap pixmap = QPixmap::fromImage(image);
    pixmap.setDevicePixelRatio(1.0);
    m_preview->setPixmap(pixmap.scaled(m_preview->size() - QSize(4, 4), Qt::KeepAspectRatio, Qt::SmoothTransformation));
}

void ChartExportDialog::loadSettings()
{
    const QSettings settings;
    const ChartExportOptions defaults;
    const auto value = [&](const char* key, const QVariant& fallback) {
        return settings.value(kSettingsGroup + QLatin1Char('/') + QLatin1String(key), fallback);
    };
    m_shownUnit = lengthUnitFromName(value("unit", lengthUnitName(defaults.unit)).toString()).value_or(defaults.unit);
    m_unit->setCurrentIndex(m_unit->findData(lengthUnitName(m_shownUnit)));
    m_width.edit->setText(shown(value("width", defaults.width).toDouble()));
    m_height.edit->setText(shown(value("height", defaults.height).toDouble()));
    m_dpi.edit->setText(QString::number(value("dpi", defaults.dpi).toInt()));
    m_fontScale.edit->setText(shown(value("fontScale", defaults.fontScale).toDouble()));
    m_background->setCurrentIndex(value("transparent", defaults.transparent).toBool() ? 1 : 0);
    m_title->setChecked(value("title", defaults.title).toBool());
    const int formatIndex = m_format->findData(value("format", chartFormatName(ChartFormat::Png)).toString());
    m_format->setCurrentIndex(formatIndex >= 0 ? formatIndex : 0);
}

void ChartExportDialog::saveSettings() const
{
    QSettings settings;
    settings.beginGroup(kSettingsGroup);
    settings.setValue(QStringLiteral("unit"), lengthUnitName(m_options.unit));
    settings.setValue(QStringLiteral("width"), m_options.width);
    settings.setValue(QStringLiteral("height"), m_options.height);
    settings.setValue(QStringLiteral("dpi"), m_options.dpi);
    settings.setValue(QStringLiteral("fontScale"), m_options.fontScale);
    settings.setValue(QStringLiteral("transparent"), m_options.transparent);
    settings.setValue(QStringLiteral("title"), m_options.title);
    settings.setValue(QStringLiteral("format"), chartFormatName(format()));
    settings.setValue(QStringLiteral("folder"), QFileInfo(path()).absolutePath());
}

void ChartExportDialog::accept()
{
    readFields();
    if (!isValid())
        return;
    saveSettings();
    QDialog::accept();
}

}  // namespace logitlab::ui
