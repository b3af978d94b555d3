#include "app/io/build_info.h"

#include "build_info_generated.h"

namespace logitlab::app {

QString appVersion() { return QStringLiteral(LOGITLAB_VERSION); }

QString gitHash() { return QStringLiteral(LOGITLAB_GIT_HASH); }

}  // namespace logitlab::app
