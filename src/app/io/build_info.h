// Version and git hash of this build, for About boxes and provenance headers.
#pragma once

#include <QString>

namespace logitlab::app {

QString appVersion();  // e.g. "0.1.0"
QString gitHash();     // short hash, "-dirty" when built from uncommitted changes, or "unknown"

}  // namespace logitlab::app
