#include "schema/field_reader.hpp"

#include <cmath>

#include <boost/json.hpp>

#include "schema/utf8.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

// Long enough for any real field name, short enough to keep a hostile key
// out of the error body.
constexpr std::size_t max_param_bytes = 100;

// `2.0`, not Boost.JSON's `2E0`: the bound is read by people.
std::string show(double d) {
  if (std::floor(d) == d && std::fabs(d) < 1e15)
    return std::to_string(static_cast<int64_t>(d)) + ".0";
  return json::serialize(json::value(d));
}

} // namespace

std::optional<int64_t> integral_value(const json::value& v) {
  if (auto* i = v.if_int64())
    return *i;
  if (auto* u = v.if_uint64(); u && *u <= static_cast<uint64_t>(INT64_MAX))
    return static_cast<int64_t>(*u);
  // Clients in languages with one number type send 1024.0; 2^63 bounds keep
  // the cast defined.
  if (auto* d = v.if_double(); d && std::isfinite(*d) && std::floor(*d) == *d && *d >= -9.2e18 && *d <= 9.2e18)
    return static_cast<int64_t>(*d);
  return std::nullopt;
}

field_reader::field_reader(const json::object& object, std::string path)
    : object_{object}, path_{std::move(path)} {}

std::string field_reader::param(std::string_view name) const {
  auto shown = std::string{utf8_prefix(name, max_param_bytes)};
  return path_.empty() ? shown : path_ + "." + shown;
}

void field_reader::fail(std::string_view name, std::string detail) {
  if (!error_)
    error_ = make_api_error(error_code::invalid_parameter, {{"detail", std::move(detail)}}, param(name));
}

void field_reader::merge(const field_reader& inner) {
  if (!error_ && inner.error_)
    error_ = inner.error_;
}

void field_reader::only(std::initializer_list<std::string_view> allowed) {
  if (error_)
    return;
  for (auto& entry : object_) {
    std::string_view key = entry.key();
    bool known = false;
    for (auto a : allowed)
      known = known || a == key;
    if (!known) {
      error_ = make_api_error(error_code::unknown_parameter, {}, param(key));
      return;
    }
  }
}

const json::value* field_reader::get(std::string_view name) {
  if (error_)
    return nullptr;
  auto* v = object_.if_contains(name);
  return v && !v->is_null() ? v : nullptr;
}

std::optional<int64_t> field_reader::integer(std::string_view name, int64_t min, int64_t max, bool required) {
  auto* v = get(name);
  if (!v) {
    if (required)
      fail(name, "is required");
    return std::nullopt;
  }
  auto n = integral_value(*v);
  if (!n || *n < min || *n > max) {
    fail(name, "must be an integer between " + std::to_string(min) + " and " + std::to_string(max));
    return std::nullopt;
  }
  return n;
}

std::optional<double> field_reader::number(std::string_view name, double min, double max, bool required) {
  auto* v = get(name);
  if (!v) {
    if (required)
      fail(name, "is required");
    return std::nullopt;
  }
  std::optional<double> d;
  if (auto* x = v->if_double())
    d = *x;
  else if (auto* i = v->if_int64())
    d = static_cast<double>(*i);
  else if (auto* u = v->if_uint64())
    d = static_cast<double>(*u);
  if (!d || !std::isfinite(*d) || *d < min || *d > max) {
    fail(name, "must be a number between " + show(min) + " and " + show(max));
    return std::nullopt;
  }
  return d;
}

std::optional<std::string> field_reader::text(std::string_view name, std::size_t min_chars, std::size_t max_chars,
                                              bool required) {
  auto* v = get(name);
  if (!v) {
    if (required)
      fail(name, "is required");
    return std::nullopt;
  }
  auto* s = v->if_string();
  if (!s) {
    fail(name, "must be a string");
    return std::nullopt;
  }
  auto length = utf8_length(*s);
  if (!length) {
    fail(name, "must be valid UTF-8");
    return std::nullopt;
  }
  if (*length < min_chars || *length > max_chars) {
    fail(name, "must be " + std::to_string(min_chars) + " to " + std::to_string(max_chars) + " characters long");
    return std::nullopt;
  }
  return std::string{s->data(), s->size()};
}

} // namespace svc::schema
