// File > Export chart: the size of the figure in cm or inches, DPI (PNG), font scale,
// white or transparent background and format, with a live preview of the chart rendered with
// these options and a file name suggested from the page and its settings. The choices are
// remembered (QSettings) for the next export. A bad value is refused next to its field.
#pragma once

#include "charts/chart_export.h"

#include <QDialog>
#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace logitlab::ui {

// "explorer-T0.7-top-p0.9.png": the page's title, then the chart's title without its trailing
// ": result" part, reduced to letters, digits, '.', '+' and '-'.
QString suggestedChartFileName(const QString& pageTitle, const QString& chartTitle, ChartFormat format);

class ChartExportDialog : public QDialog {
    Q_OBJECT
public:
    ChartExportDialog(QChart* chart, const QString& pageTitle, QWidget* parent = nullptr);

    ChartExportOptions options() const { return m_options; }
    ChartFormat format() const;
    QString path() const;
    // The message shown next to `field` ("width", "height", "dpi", "font-scale", "file"); empty
    // when that field is fine. For tests and for the accessibility of the error.
    QString fieldError(const QString& field) const;
    // True when every field holds a good value (OK is enabled).
    bool isValid() const;

    void accept() override;

private:
    struct Field {
        QLineEdit* edit = nullptr;
        QLabel* error = nullptr;
    };
    QWidget* fieldWithError(Field& field);
    void readFields();  // the fields into m_options, the errors next to them, the preview
    void unitChanged();
    void formatChanged();
    void browse();
    void updatePreview();
    void loadSettings();
    void saveSettings() const;

    QChart* m_chart;
    QString m_pageTitle;
    ChartExportOptions m_options;
    LengthUnit m_shownUnit = LengthUnit::Cm;
    Field m_width;
    Field m_height;
    Field m_dpi;
    Field m_fontScale;
    Field m_file;
    QComboBox* m_unit = nullptr;
    QComboBox* m_background = nullptr;
    QCheckBox* m_title = nullptr;
    QComboBox* m_format = nullptr;
    QLabel* m_pixels = nullptr;
    QLabel* m_preview = nullptr;
    QLabel* m_cutWarning = nullptr;  // the texts the preview's size would cut
    QPushButton* m_ok = nullptr;
    bool m_fileEdited = false;  // once the user types a name, format changes only swap its suffix
};

}  // namespace logitlab::ui
