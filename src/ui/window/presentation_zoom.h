// View > Zoom in / out / reset for a projector: scales the application font in steps (80% to
// 300%), so every page, table and menu grows together, and restyles every chart of the window so
// its titles, axes and legends follow. The zoom persists between sessions.
#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace logitlab::ui {

class PresentationZoom : public QObject {
    Q_OBJECT
public:
    static constexpr int kMinPercent = 80;
    static constexpr int kMaxPercent = 300;

    // Takes the application font as 100% and applies the saved zoom to `window`.
    explicit PresentationZoom(QWidget* window);

    int percent() const;
    // Clamped to [kMinPercent, kMaxPercent]; `remember` false leaves the saved zoom as it was
    // (`logitlab --zoom` for one screenshot).
    void setPercent(int percent, bool remember = true);
    void zoomIn();
    void zoomOut();
    void reset() { setPercent(100); }

signals:
    void zoomChanged(int percent);

private:
    QWidget* m_window;
};

}  // namespace logitlab::ui
