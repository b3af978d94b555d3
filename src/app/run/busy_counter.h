// How many pieces of background work are under way, for one busy indicator over many of them.
// Each source reports busy(true) when it starts and busy(false) when it ends; the counter says
// busyChanged(true) when the first starts and busyChanged(false) when the last ends, so work
// that overlaps never hides another's busy state the way one shared flag would.
#pragma once

#include <QObject>

namespace logitlab::app {

class BusyCounter : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    bool isBusy() const { return m_count > 0; }
    int count() const { return m_count; }

    // Connect a source's busyChanged(bool) here. A source must report each change once.
    void change(bool busy);

signals:
    void busyChanged(bool busy);

private:
    int m_count = 0;
};

}  // namespace logitlab::app
