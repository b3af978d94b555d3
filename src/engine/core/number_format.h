// Shortest round-trip text for a double, the same digits JavaScript and Python print.
#pragma once

#include <string>

namespace logitlab::engine {

std::string formatDouble(double value);

}  // namespace logitlab::engine
