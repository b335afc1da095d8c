// The process environment, read through a function so that tests can hand in
// their own.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace archfit {

// Reads one environment variable; nullopt when unset or empty.
using Getenv = std::function<std::optional<std::string>(const std::string& name)>;

// The real environment (std::getenv).
Getenv process_getenv();

}  // namespace archfit
