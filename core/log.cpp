#include "core/log.hpp"

#include <atomic>
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
std::string text_value(std::string_view v) {
  std::string out;
  bool quote = v.empty();
  for (unsigned char c : v) {
    if (c < 0x20 || c == 0x7f) {
      out.push_back('?');
      continue;
    }
    if (c == ' ' || c == '"' || c == '=')
      quote = true;
    if (c == '"' || c == '\\')
      out.push_back('\\');
    out.push_back(static_cast<char>(c));
  }
  return quote ? "\"" + out + "\"" : out;
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
  std::string line{time};
  line.append(" ").append(level_name(level)).append(" ").append(component).append(": ").append(message);
  for (auto& [name, value] : fields)
    line.append(" ").append(name).append("=").append(text_value(value));
  return line;
}

void log(log_level level, std::string_view component, std::string_view message, const log_fields& fields) {
  if (!log_enabled(level))
    return;
  auto line = format_log_line(format_in_use.load(std::memory_order_relaxed),
                              format_iso8601(std::chrono::system_clock::now()), level, component, message, fields);
  line.push_back('\n');
  // One write per line keeps lines whole across threads.
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
}

} // namespace svc::core
