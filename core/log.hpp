#pragma once
// Line-oriented logging to stderr, as text (`2026-11-21T10:15:30.123Z info
// http: listening on ... key=value`) or as one JSON object per line
// (`{"time":...,"level":...,"component":...,"message":...,"key":"value"}`).
// Never pass secrets (API keys, webhook secrets, the admin token) to it.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace svc::core {

enum class log_level { debug, info, warn, error };
enum class log_format { text, json };

/// Named values a line carries besides its message (an access line's status, duration, ...).
using log_fields = std::vector<std::pair<std::string_view, std::string>>;

/// Sets the minimum level written ("debug" | "info" | "warn" | "error").
void set_log_level(std::string_view level);

/// Sets how lines are written ("text" | "json"); text until set.
void set_log_format(std::string_view format);

/// True when messages of `level` are written.
bool log_enabled(log_level level);

/// The line `log` writes, without its newline (exposed for tests).
std::string format_log_line(log_format format, std::string_view time, log_level level, std::string_view component,
                            std::string_view message, const log_fields& fields);

/// Writes one line atomically: time, level, component, message and fields
/// (after the lines `log_buffered` holds, so no line overtakes another).
void log(log_level level, std::string_view component, std::string_view message, const log_fields& fields = {});

/// Like `log`, for lines written at request rates (access lines): the line
/// joins a buffer that `flush_log_buffer` writes in one call, whole lines in
/// order, since a write per line costs more than making it. True when the
/// buffer was empty: the caller then sees that `flush_log_buffer` runs soon.
/// A full buffer (64 KiB) is written at once.
bool log_buffered(log_level level, std::string_view component, std::string_view message,
                  const log_fields& fields = {});

/// Writes the lines `log_buffered` holds.
void flush_log_buffer();

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
