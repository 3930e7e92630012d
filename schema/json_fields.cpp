#include "schema/json_fields.hpp"

#include <cmath>

namespace svc::schema {

const boost::json::value* json_fields::find(std::string_view key, bool required) {
  if (!object_)
    return nullptr;
  auto* v = object_->if_contains(key);
  if (!v && required)
    ok_ = false;
  return v;
}

std::string json_fields::str(std::string_view key) {
  if (auto* v = find(key, true)) {
    if (auto* s = v->if_string())
      return std::string{s->data(), s->size()};
    ok_ = false;
  }
  return {};
}

int64_t json_fields::i64(std::string_view key) {
  if (auto* v = find(key, true)) {
    if (auto* i = v->if_int64())
      return *i;
    if (auto* u = v->if_uint64(); u && *u <= static_cast<uint64_t>(INT64_MAX))
      return static_cast<int64_t>(*u);
    ok_ = false;
  }
  return 0;
}

double json_fields::num(std::string_view key) {
  if (auto* v = find(key, true)) {
    // JSON text such as 1e400 parses to infinity, which no view can render as JSON.
    if (auto* d = v->if_double(); d && std::isfinite(*d))
      return *d;
    if (auto* i = v->if_int64())
      return static_cast<double>(*i);
    if (auto* u = v->if_uint64())
      return static_cast<double>(*u);
    ok_ = false;
  }
  return 0;
}

bool json_fields::boolean(std::string_view key) {
  if (auto* v = find(key, true)) {
    if (auto* b = v->if_bool())
      return *b;
    ok_ = false;
  }
  return false;
}

std::optional<int64_t> json_fields::opt_i64(std::string_view key) {
  auto* v = find(key, false);
  if (!v || v->is_null())
    return std::nullopt;
  if (auto* i = v->if_int64())
    return *i;
  ok_ = false;
  return std::nullopt;
}

std::optional<std::string> json_fields::opt_str(std::string_view key) {
  auto* v = find(key, false);
  if (!v || v->is_null())
    return std::nullopt;
  if (auto* s = v->if_string())
    return std::string{s->data(), s->size()};
  ok_ = false;
  return std::nullopt;
}

const boost::json::value& json_fields::any(std::string_view key) {
  static const boost::json::value null_value;
  auto* v = find(key, true);
  return v ? *v : null_value;
}

std::optional<core::time_point> json_fields::opt_time(std::string_view key) {
  auto ms = opt_i64(key);
  return ms ? std::optional<core::time_point>{core::from_unix_ms(*ms)} : std::nullopt;
}

std::map<std::string, std::string> json_fields::string_map(std::string_view key) {
  std::map<std::string, std::string> out;
  auto* v = find(key, true);
  if (!v)
    return out;
  auto* o = v->if_object();
  if (!o) {
    ok_ = false;
    return out;
  }
  for (auto& [k, val] : *o) {
    auto* s = val.if_string();
    if (!s) {
      ok_ = false;
      return {};
    }
    out[std::string{k}] = std::string{*s};
  }
  return out;
}

std::vector<std::string> json_fields::strings(std::string_view key) {
  std::vector<std::string> out;
  auto* v = find(key, true);
  if (!v)
    return out;
  auto* a = v->if_array();
  if (!a) {
    ok_ = false;
    return out;
  }
  for (auto& item : *a) {
    auto* s = item.if_string();
    if (!s) {
      ok_ = false;
      return {};
    }
    out.emplace_back(*s);
  }
  return out;
}

boost::json::value optional_unix_ms(const std::optional<core::time_point>& t) {
  return t ? boost::json::value(core::to_unix_ms(*t)) : boost::json::value(nullptr);
}

boost::json::object string_map_json(const std::map<std::string, std::string>& m) {
  boost::json::object o;
  for (auto& [k, v] : m)
    o[k] = v;
  return o;
}

boost::json::array strings_json(const std::vector<std::string>& v) {
  boost::json::array a;
  for (auto& s : v)
    a.emplace_back(s);
  return a;
}

} // namespace svc::schema
