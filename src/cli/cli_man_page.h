// logitlab-cli(1), written from the command table (`logitlab-cli --man`; the build installs it).
#pragma once

#include <QString>

namespace logitlab::cli {

QString cliManPage();

}  // namespace logitlab::cli
