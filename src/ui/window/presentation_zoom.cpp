#include "ui/window/presentation_zoom.h"

#include "charts/chart_style.h"

#include <QApplication>
#include <QChartView>
#include <QSettings>
#include <QWidget>

#include <algorithm>
#include <array>

namespace logitlab::ui {

namespace {

const QString kZoomKey = QStringLiteral("view/zoomPercent");
// Steps a lecture needs: fine near 100%, coarse above.
constexpr std::array<int, 11> kSteps{80, 90, 100, 110, 125, 150, 175, 200, 225, 250, 300};

// The font is the application's, so the zoom is too: 100% is the font the application had
// before any window zoomed it, whichever window does it first or later.
struct ApplicationZoom {
    QFont base = QApplication::font();
    int percent = 100;
};

ApplicationZoom& applicationZoom()
{
    static ApplicationZoom zoom;
    return zoom;
}

}  // namespace

PresentationZoom::PresentationZoom(QWidget* window) : QObject(window), m_window(window)
{
    setPercent(QSettings().value(kZoomKey, 100).toInt());
}

int PresentationZoom::percent() const { return applicationZoom().percent; }

void PresentationZoom::setPercent(int percent, bool remember)
{
    percent = std::clamp(percent, kMinPercent, kMaxPercent);
    ApplicationZoom& zoom = applicationZoom();
    if (percent == zoom.percent)
        return;
    zoom.percent = percent;
    QFont font = zoom.base;
    font.setPointSizeF(zoom.base.pointSizeF() * percent / 100.0);
    QApplication::setFont(font);
    // Charts are not widgets: their fonts follow only when restyled.
    for (QChartView* view : m_window->findChildren<QChartView*>())
        styleChart(view->chart(), view->palette());
    if (remember)
        QSettings().setValue(kZoomKey, percent);
    emit zoomChanged(percent);
}

void PresentationZoom::zoomIn()
{
    const auto next = std::upper_bound(kSteps.begin(), kSteps.end(), percent());
    setPercent(next == kSteps.end() ? kMaxPercent : *next);
}

void PresentationZoom::zoomOut()
{
    const auto below = std::lower_bound(kSteps.begin(), kSteps.end(), percent());
    setPercent(below == kSteps.begin() ? kMinPercent : *std::prev(below));
}

}  // namespace logitlab::ui
