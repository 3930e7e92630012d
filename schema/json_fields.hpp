#pragma once
// Decodes the typed fields of a stored record (a value this process wrote to
// LMDB) without throwing: each accessor records the first failure, so a codec
// reads every field and then checks `ok()` once. Request bodies are read by
// `field_reader`, which names the offending parameter.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json.hpp>

#include "core/clock.hpp"

namespace svc::schema {

class json_fields {
public:
  /// Reads from `v`; not ok if `v` is not an object.
  explicit json_fields(const boost::json::value& v) : object_{v.if_object()}, ok_{object_ != nullptr} {}

  /// True while every read so far found its field with the right type.
  bool ok() const { return ok_; }

  /// A required string field.
  std::string str(std::string_view key);
  /// A required integer field (any JSON integer that fits in int64).
  int64_t i64(std::string_view key);
  /// A required number field (integer or double).
  double num(std::string_view key);
  /// A required boolean field.
  bool boolean(std::string_view key);
  /// An optional integer field (absent or null gives nullopt).
  std::optional<int64_t> opt_i64(std::string_view key);
  /// An optional string field (absent or null gives nullopt).
  std::optional<std::string> opt_str(std::string_view key);
  /// An optional Unix-ms time field (absent or null gives nullopt).
  std::optional<core::time_point> opt_time(std::string_view key);
  /// A required object of string values (metadata).
  std::map<std::string, std::string> string_map(std::string_view key);
  /// A required array of strings.
  std::vector<std::string> strings(std::string_view key);
  /// A required field of any type; null if absent (and marks failure).
  const boost::json::value& any(std::string_view key);

private:
  const boost::json::value* find(std::string_view key, bool required);
  const boost::json::object* object_;
  bool ok_;
};

/// An optional time in the stored form: Unix ms, or null.
boost::json::value optional_unix_ms(const std::optional<core::time_point>& t);

/// A string map as a JSON object.
boost::json::object string_map_json(const std::map<std::string, std::string>& m);

/// A string vector as a JSON array.
boost::json::array strings_json(const std::vector<std::string>& v);

} // namespace svc::schema
