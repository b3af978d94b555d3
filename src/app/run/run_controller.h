// One controller for a kind of background work in the GUI: start(job, land) runs `job` on the
// pool with a WorkControl (cancel, total, progress) and calls `land` with its result on the UI
// thread, only if no newer run was started and nothing cancelled it meanwhile. See
// RunControllerBase for the modes, busy state and shutdown. A job that throws lands nowhere;
// failed() carries its message.
#pragma once

#include "app/run/background_run.h"
#include "app/run/run_controller_base.h"

#include <exception>
#include <functional>
#include <memory>
#include <optional>

namespace logitlab::app {

template <class T>
class RunController : public RunControllerBase {
public:
    using Job = std::function<T(const WorkControl&)>;
    // Gets the result to keep or move from.
    using Landing = std::function<void(T&)>;

    explicit RunController(Mode mode = Mode::Supersede, QObject* parent = nullptr) : RunControllerBase(mode, parent) {}

    int start(Job job, Landing land)
    {
        // Written by the worker, read here once the future says it finished.
        struct Slot {
            std::optional<T> value;
            QString error;
        };
        auto slot = std::make_shared<Slot>();
        return submit(
            [job = std::move(job), slot](QPromise<void>& promise) {
                try {
                    slot->value.emplace(job(promiseWorkControl(promise)));
                } catch (const std::exception& e) {
                    slot->error = QString::fromUtf8(e.what());
                } catch (...) {
                    slot->error = QStringLiteral("unknown error");
                }
            },
            [this, land = std::move(land), slot] {
                if (slot->value)
                    land(*slot->value);
                else
                    emit failed(currentRun(), slot->error);
            });
    }
};

}  // namespace logitlab::app
