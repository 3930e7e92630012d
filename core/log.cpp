#include "core/log.hpp"

#include <atomic>
#include <string>
#include <unistd.h>

#include "core/time_format.hpp"

namespace svc::core {
namespace {

std::atomic<int> min_level{static_cast<int>(log_level::info)};

const char* level_name(log_level level) {
  switch (level) {
    case log_level::debug: return "debug";
    case log_level::info: return "info";
    case log_level::warn: return "warn";
    default: return "error";
  }
}

} // namespace

void set_log_level(std::string_view level) {
  auto l = level == "debug" ? log_level::debug
           : level == "warn" ? log_level::warn
           : level == "error" ? log_level::error
                              : log_level::info;
  min_level = static_cast<int>(l);
}

bool log_enabled(log_level level) {
  return static_cast<int>(level) >= min_level.load(std::memory_order_relaxed);
}

void log(log_level level, std::string_view component, std::string_view message) {
  if (!log_enabled(level))
    return;
  std::string line = format_iso8601(std::chrono::system_clock::now());
  line.append(" ").append(level_name(level)).append(" ").append(component).append(": ");
  line.append(message).push_back('\n');
  // One write per line keeps lines whole across threads.
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
}

} // namespace svc::core
