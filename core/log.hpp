#pragma once
// Line-oriented logging to stderr: `2026-11-21T10:15:30.123Z info http: listening on ...`.
// Never pass secrets (API keys, webhook secrets, the admin token) to it.

#include <string_view>

namespace svc::core {

enum class log_level { debug, info, warn, error };

/// Sets the minimum level written ("debug" | "info" | "warn" | "error").
void set_log_level(std::string_view level);

/// True when messages of `level` are written.
bool log_enabled(log_level level);

/// Writes one line atomically: time, level, component, message.
void log(log_level level, std::string_view component, std::string_view message);

inline void log_info(std::string_view component, std::string_view message) {
  log(log_level::info, component, message);
}
inline void log_warn(std::string_view component, std::string_view message) {
  log(log_level::warn, component, message);
}
inline void log_error(std::string_view component, std::string_view message) {
  log(log_level::error, component, message);
}

} // namespace svc::core
