#include "core/log.hpp"

#include <atomic>
#include <cerrno>
#include <mutex>
#include <string>
#include <unistd.h>

#include <boost/json.hpp>

#include "core/time_format.hpp"

namespace svc::core {
namespace {

std::atomic<int> min_level{static_cast<int>(log_level::info)};
std::atomic<log_format> format_in_use{log_format::text};

const char* level_name(log_level level) {
  switch (level) {
    case log_level::debug: return "debug";
    case log_level::info: return "info";
    case log_level::warn: return "warn";
    default: return "error";
  }
}

// A text field value on one line: control bytes (a newline would forge a line) become '?', and a value with
// spaces, quotes or nothing at all is quoted.
void append_text_value(std::string& out, std::string_view v) {
  bool quote = v.empty();
  for (unsigned char c : v)
    quote = quote || c == ' ' || c == '"' || c == '=';
  if (quote)
    out.push_back('"');
  for (unsigned char c : v) {
    if (c < 0x20 || c == 0x7f) {
      out.push_back('?');
      continue;
    }
    if (c == '"' || c == '\\')
      out.push_back('\\');
    out.push_back(static_cast<char>(c));
  }
  if (quote)
    out.push_back('"');
}

// Lines of `log_buffered` not yet written. The mutex also orders the writes
// of `log`, so a line never overtakes one written before it.
std::mutex buffer_mutex;
std::string buffer;
constexpr std::size_t buffer_limit = 64 * 1024;

// Writes all of `text` (a write to a pipe may take part of it).
void write_all(std::string_view text) {
  while (!text.empty()) {
    auto n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return; // stderr is gone: nothing to tell anyone
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

// The line `log` and `log_buffered` write, with its newline.
std::string full_line(log_level level, std::string_view component, std::string_view message,
                      const log_fields& fields) {
  auto line = format_log_line(format_in_use.load(std::memory_order_relaxed),
                              format_iso8601(std::chrono::system_clock::now()), level, component, message, fields);
  line.push_back('\n');
  return line;
}

} // namespace

void set_log_level(std::string_view level) {
  auto l = level == "debug" ? log_level::debug
           : level == "warn" ? log_level::warn
           : level == "error" ? log_level::error
                              : log_level::info;
  min_level = static_cast<int>(l);
}

void set_log_format(std::string_view format) {
  format_in_use = format == "json" ? log_format::json : log_format::text;
}

bool log_enabled(log_level level) {
  return static_cast<int>(level) >= min_level.load(std::memory_order_relaxed);
}

std::string format_log_line(log_format format, std::string_view time, log_level level, std::string_view component,
                            std::string_view message, const log_fields& fields) {
  if (format == log_format::json) {
    // Boost.JSON escapes; bytes that are not UTF-8 are kept as they are, so a message quoting client bytes is
    // made valid UTF-8 by the caller (schema::utf8_sanitized) where it matters.
    boost::json::object line{{"time", time}, {"level", level_name(level)}, {"component", component},
                             {"message", message}};
    for (auto& [name, value] : fields)
      line[name] = value;
    return boost::json::serialize(line);
  }
  std::string line;
  line.reserve(256);
  line.append(time).append(" ").append(level_name(level)).append(" ").append(component).append(": ");
  // A message may quote what others sent (an etcd value, a peer's error):
  // a control character in it must not end the line and forge the next.
  for (unsigned char c : message)
    line.push_back(c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c));
  for (auto& [name, value] : fields) {
    line.append(" ").append(name).append("=");
    append_text_value(line, value);
  }
  return line;
}

void log(log_level level, std::string_view component, std::string_view message, const log_fields& fields) {
  if (!log_enabled(level))
    return;
  auto line = full_line(level, component, message, fields);
  std::lock_guard<std::mutex> guard{buffer_mutex};
  if (!buffer.empty()) {
    write_all(buffer);
    buffer.clear();
  }
  write_all(line);
}

bool log_buffered(log_level level, std::string_view component, std::string_view message, const log_fields& fields) {
  if (!log_enabled(level))
    return false;
  auto line = full_line(level, component, message, fields);
  std::lock_guard<std::mutex> guard{buffer_mutex};
  bool was_empty = buffer.empty();
  buffer.append(line);
  if (buffer.size() >= buffer_limit) {
    write_all(buffer);
    buffer.clear();
  }
  return was_empty;
}

void flush_log_buffer() {
  std::lock_guard<std::mutex> guard{buffer_mutex};
  if (buffer.empty())
    return;
  write_all(buffer);
  buffer.clear();
}

} // namespace svc::core
