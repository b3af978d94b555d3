// The Explorer's draw controls: how many tokens to draw, the seed, the generator, and the Draw
// button (disabled while draws run). The page reads the settings when it draws and saves them
// with the experiment.
#pragma once

#include <QGroupBox>

QT_BEGIN_NAMESPACE
class QComboBox;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace logitlab::ui {

class DrawPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit DrawPanel(QWidget* parent = nullptr);

    int count() const;
    quint64 seed() const;
    QString rng() const;
    // Values out of the controls' ranges are clamped (a seed above 2^31 - 1, more than 10^7 draws).
    // Saved files are checked against these ranges before they get here.
    void setSettings(const QString& rng, quint64 seed, qint64 count);
    void setDrawing(bool drawing);
    QPushButton* drawButton() const { return m_button; }

signals:
    void drawRequested();
    // N, the seed or the generator changed (once per setSettings call): draws made with the
    // old values no longer describe the panel.
    void settingsChanged();

private:
    QSpinBox* m_count;
    QSpinBox* m_seed;
    QComboBox* m_rng;
    QPushButton* m_button;
};

}  // namespace logitlab::ui
