#include "schema/field_reader.hpp"

#include <cmath>

#include <boost/json.hpp>

#include "schema/json_numbers.hpp"
#include "schema/utf8.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

// Long enough for any real field name, short enough to keep a hostile key
// out of the error body.
constexpr std::size_t max_param_bytes = 100;

// Lenient bounds read `2.0`, not Boost.JSON's `2E0`: the bound is read by people.
std::string show(double d, json_discipline discipline) {
  if (discipline == json_discipline::lenient && std::floor(d) == d && std::fabs(d) < 1e15)
    return std::to_string(static_cast<int64_t>(d)) + ".0";
  return json::serialize(json::value(d));
}

} // namespace

std::optional<int64_t> integral_value(const json::value& v) {
  if (auto n = exact_int64(v))
    return n;
  // Clients in languages with one number type send 1024.0; 2^63 bounds keep
  // the cast defined.
  if (auto* d = v.if_double(); d && std::isfinite(*d) && std::floor(*d) == *d && *d >= -9.2e18 && *d <= 9.2e18)
    return static_cast<int64_t>(*d);
  return std::nullopt;
}

field_reader::field_reader(const json::object& object, std::string path)
    : object_{object}, path_{std::move(path)} {}

field_reader::field_reader(const json::object& object, json_discipline discipline)
    : object_{object}, discipline_{discipline} {}

std::string field_reader::param(std::string_view name) const {
  auto shown = discipline_ == json_discipline::strict ? name.substr(0, max_param_bytes)
                                                      : utf8_prefix(name, max_param_bytes);
  return path_.empty() ? std::string{shown} : path_ + "." + std::string{shown};
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
  return v && (discipline_ == json_discipline::strict || !v->is_null()) ? v : nullptr;
}

const json::value* field_reader::given(std::string_view name, bool required) {
  auto* v = get(name);
  if (!v && required)
    fail(name, "is required");
  return v;
}

std::optional<int64_t> field_reader::integer(std::string_view name, int64_t min, int64_t max, bool required) {
  auto* v = given(name, required);
  if (!v)
    return std::nullopt;
  auto n = discipline_ == json_discipline::strict && v->is_double() ? std::nullopt : integral_value(*v);
  if (!n || *n < min || *n > max) {
    fail(name, "must be an integer between " + std::to_string(min) + " and " + std::to_string(max));
    return std::nullopt;
  }
  return n;
}

std::optional<double> field_reader::number(std::string_view name, double min, double max, bool required) {
  auto* v = given(name, required);
  if (!v)
    return std::nullopt;
  auto d = finite_number(*v);
  if (!d || *d < min || *d > max) {
    fail(name, "must be a number between " + show(min, discipline_) + " and " + show(max, discipline_));
    return std::nullopt;
  }
  return d;
}

std::optional<std::string> field_reader::text(std::string_view name, std::size_t min_len, std::size_t max_len,
                                              bool required) {
  auto* v = given(name, required);
  if (!v)
    return std::nullopt;
  auto* s = v->if_string();
  if (discipline_ == json_discipline::strict) {
    if (!s || s->size() < min_len || s->size() > max_len) {
      fail(name, "must be a string of " + std::to_string(min_len) + " to " + std::to_string(max_len) + " characters");
      return std::nullopt;
    }
    return std::string{s->data(), s->size()};
  }
  if (!s) {
    fail(name, "must be a string");
    return std::nullopt;
  }
  auto length = utf8_length(*s);
  if (!length) {
    fail(name, "must be valid UTF-8");
    return std::nullopt;
  }
  if (*length < min_len || *length > max_len) {
    fail(name, "must be " + std::to_string(min_len) + " to " + std::to_string(max_len) + " characters long");
    return std::nullopt;
  }
  return std::string{s->data(), s->size()};
}

std::optional<std::vector<std::string>> field_reader::strings(std::string_view name, bool required) {
  auto* v = given(name, required);
  if (!v)
    return std::nullopt;
  auto* items = v->if_array();
  std::vector<std::string> out;
  for (std::size_t i = 0; items && i < items->size(); ++i) {
    auto* s = (*items)[i].if_string();
    if (!s)
      items = nullptr;
    else
      out.emplace_back(s->data(), s->size());
  }
  if (!items) {
    fail(name, "must be an array of strings");
    return std::nullopt;
  }
  return out;
}

std::optional<std::map<std::string, std::string>> field_reader::string_map(std::string_view name,
                                                                           const string_map_limits& limits) {
  auto* v = get(name);
  if (!v)
    return std::nullopt;
  auto* o = v->if_object();
  if (!o || o->size() > limits.max_keys) {
    fail(name, "must be an object of at most " + std::to_string(limits.max_keys) + " string values");
    return std::nullopt;
  }
  field_reader entries{*o, param(name)};
  std::map<std::string, std::string> out;
  for (auto& e : *o) {
    std::string_view key = e.key();
    auto key_chars = utf8_length(key);
    if (!key_chars || *key_chars < 1 || *key_chars > limits.max_key_chars) {
      // The key itself is what is wrong, so the param is the object.
      fail(name, "keys must be 1 to " + std::to_string(limits.max_key_chars) + " characters long");
      return std::nullopt;
    }
    auto* s = e.value().if_string();
    auto value_chars = s ? utf8_length(*s) : std::nullopt;
    if (!value_chars || *value_chars > limits.max_value_chars) {
      entries.fail(key, "must be a string of at most " + std::to_string(limits.max_value_chars) + " characters");
      merge(entries);
      return std::nullopt;
    }
    out.emplace(std::string{key}, std::string{s->data(), s->size()});
  }
  return out;
}

} // namespace svc::schema
