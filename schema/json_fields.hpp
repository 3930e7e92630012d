#pragma once
// Reads string fields from a stored JSON object without throwing (the first
// failure is kept, so a reader checks `ok()` once). Records' stored forms come
// from `stored_json.hpp`; request bodies are read by `field_reader`, which
// names the offending parameter.

#include <string>
#include <string_view>

#include <boost/json.hpp>

namespace svc::schema {

class json_fields {
public:
  /// Reads from `v`; not ok if `v` is not an object.
  explicit json_fields(const boost::json::value& v) : object_{v.if_object()}, ok_{object_ != nullptr} {}

  /// True while every read so far found its field with the right type.
  bool ok() const { return ok_; }

  /// A required string field.
  std::string str(std::string_view key);

private:
  const boost::json::value* find(std::string_view key, bool required);
  const boost::json::object* object_;
  bool ok_;
};

} // namespace svc::schema
