#include "app/run/busy_counter.h"

namespace logitlab::app {

void BusyCounter::change(bool busy)
{
    if (busy) {
        if (++m_count == 1)
            emit busyChanged(true);
        return;
    }
    if (m_count == 0)
        return;  // an end without a start: nothing of ours was counted
    if (--m_count == 0)
        emit busyChanged(false);
}

}  // namespace logitlab::app
