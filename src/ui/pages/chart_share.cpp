#include "ui/pages/chart_share.h"

#include <QEvent>
#include <QObject>
#include <QPointer>
#include <QSplitter>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace logitlab::ui {

namespace {

int minimumExtent(const QSplitter* splitter, int i)
{
    const QWidget* w = splitter->widget(i);
    const QSize min = w->minimumSizeHint().expandedTo(w->minimumSize());
    return splitter->orientation() == Qt::Vertical ? min.height() : min.width();
}

void rebalance(QSplitter* splitter, int chartIndex, const QWidget* chart, double share)
{
    QList<int> sizes = splitter->sizes();
    if (chartIndex >= sizes.size() || !chart->isVisible())
        return;
    const int want = static_cast<int>(std::ceil(share * chart->window()->height()));
    int deficit = want - chart->height();
    if (deficit <= 0)
        return;
    int slack = 0;
    for (int i = 0; i < sizes.size(); ++i)
        if (i != chartIndex)
            slack += std::max(0, sizes[i] - minimumExtent(splitter, i));
    deficit = std::min(deficit, slack);
    if (deficit <= 0)
        return;
    int taken = 0;
    for (int i = 0; i < sizes.size(); ++i) {
        if (i == chartIndex)
            continue;
        const int give = std::max(0, sizes[i] - minimumExtent(splitter, i));
        const int part = static_cast<int>(static_cast<long long>(deficit) * give / slack);
        sizes[i] -= part;
        taken += part;
    }
    sizes[chartIndex] += taken;
    splitter->setSizes(sizes);
}

class ChartShareKeeper : public QObject {
public:
    ChartShareKeeper(QSplitter* splitter, int chartIndex, QWidget* chart, double share)
        : QObject(splitter), m_splitter(splitter), m_chart(chart), m_chartIndex(chartIndex), m_share(share)
    {
        splitter->installEventFilter(this);
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        // After the splitter's own handling of the resize (it spreads the change by stretch).
        if (watched == m_splitter && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
            QTimer::singleShot(0, this, [this] {
                if (m_splitter && m_chart)
                    rebalance(m_splitter, m_chartIndex, m_chart, m_share);
            });
        return false;
    }

private:
    QPointer<QSplitter> m_splitter;
    QPointer<QWidget> m_chart;
    int m_chartIndex;
    double m_share;
};

}  // namespace

void keepChartShare(QSplitter* splitter, int chartIndex, QWidget* chart, double share)
{
    new ChartShareKeeper(splitter, chartIndex, chart, share);
}

}  // namespace logitlab::ui
