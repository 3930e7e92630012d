#include "json_schema_check.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <regex>
#include <stdexcept>

namespace svc::test {
namespace {

namespace json = boost::json;

// Patterns are compiled once: the e2e suites check thousands of responses against the same few dozen.
const std::regex& compiled(const std::string& pattern) {
  static std::mutex mutex;
  static std::map<std::string, std::regex> cache;
  std::lock_guard lock{mutex};
  auto it = cache.find(pattern);
  if (it == cache.end())
    it = cache.emplace(pattern, std::regex{pattern, std::regex::ECMAScript}).first;
  return it->second;
}

bool is_integral(const json::value& v) {
  if (v.is_int64() || v.is_uint64())
    return true;
  return v.is_double() && v.get_double() == static_cast<double>(static_cast<long long>(v.get_double()));
}

bool has_type(const json::value& v, std::string_view type) {
  if (type == "null")
    return v.is_null();
  if (type == "boolean")
    return v.is_bool();
  if (type == "integer")
    return is_integral(v);
  if (type == "number")
    return v.is_number();
  if (type == "string")
    return v.is_string();
  if (type == "array")
    return v.is_array();
  if (type == "object")
    return v.is_object();
  return false;
}

double number_of(const json::value& v) { return v.to_number<double>(); }

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s)
    n += (c & 0xC0) != 0x80;
  return n;
}

std::string shown(const json::value& v) {
  auto text = json::serialize(v);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

class checker {
public:
  explicit checker(const json::value& document) : document_(document) {}

  std::optional<std::string> check(const json::value& schema, const json::value& v, const std::string& at) const {
    if (!schema.is_object())
      return std::nullopt; // `true`/`{}`: anything goes
    auto& s = schema.as_object();
    if (auto* ref = s.if_contains("$ref"))
      if (auto m = check(resolve_ref(document_, *ref), v, at))
        return m;
    if (v.is_null() && s.contains("nullable") && s.at("nullable") == true)
      return std::nullopt;
    for (auto check_part : {&checker::type_and_values, &checker::combinations, &checker::object_fields,
                            &checker::array_items, &checker::string_form, &checker::number_range})
      if (auto m = (this->*check_part)(s, v, at))
        return m;
    return std::nullopt;
  }

private:
  std::optional<std::string> type_and_values(const json::object& s, const json::value& v,
                                             const std::string& at) const {
    if (auto* type = s.if_contains("type")) {
      bool ok = false;
      if (type->is_string())
        ok = has_type(v, type->as_string());
      else
        for (auto& t : type->as_array())
          ok = ok || has_type(v, t.as_string());
      if (!ok)
        return at + ": " + shown(v) + " is not of type " + json::serialize(*type);
    }
    if (auto* c = s.if_contains("const"); c && *c != v)
      return at + ": " + shown(v) + " is not " + shown(*c);
    if (auto* e = s.if_contains("enum")) {
      auto& values = e->as_array();
      if (std::find(values.begin(), values.end(), v) == values.end())
        return at + ": " + shown(v) + " is not one of " + shown(*e);
    }
    return std::nullopt;
  }

  std::optional<std::string> combinations(const json::object& s, const json::value& v, const std::string& at) const {
    if (auto* all = s.if_contains("allOf"))
      for (auto& part : all->as_array())
        if (auto m = check(part, v, at))
          return m;
    if (auto* any = s.if_contains("anyOf")) {
      std::optional<std::string> first;
      for (auto& part : any->as_array()) {
        auto m = check(part, v, at);
        if (!m)
          return std::nullopt;
        first = first ? first : m;
      }
      return at + ": matches no schema of anyOf (the first says " + first.value_or("nothing") + ")";
    }
    if (auto* one = s.if_contains("oneOf")) {
      std::size_t matched = 0;
      std::optional<std::string> first;
      for (auto& part : one->as_array()) {
        auto m = check(part, v, at);
        matched += !m;
        first = first ? first : m;
      }
      if (matched != 1)
        return at + ": matches " + std::to_string(matched) + " schemas of oneOf, not 1"
          + (first ? " (the first says " + *first + ")" : std::string{});
    }
    return std::nullopt;
  }

  std::optional<std::string> object_fields(const json::object& s, const json::value& v, const std::string& at) const {
    if (!v.is_object())
      return std::nullopt;
    auto& o = v.as_object();
    if (auto* required = s.if_contains("required"))
      for (auto& name : required->as_array())
        if (!o.contains(name.as_string()))
          return at + ": required field " + std::string{name.as_string()} + " is missing";
    auto* properties = s.if_contains("properties");
    auto* additional = s.if_contains("additionalProperties");
    for (auto& [name, field] : o) {
      auto where = at + "/" + std::string{name};
      const json::value* known = properties ? properties->as_object().if_contains(name) : nullptr;
      if (known) {
        if (auto m = check(*known, field, where))
          return m;
      } else if (additional && *additional == false) {
        return where + ": field not in the schema (additionalProperties is false)";
      } else if (additional && additional->is_object()) {
        if (auto m = check(*additional, field, where))
          return m;
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> array_items(const json::object& s, const json::value& v, const std::string& at) const {
    if (!v.is_array())
      return std::nullopt;
    auto& a = v.as_array();
    if (auto* min = s.if_contains("minItems"); min && a.size() < min->to_number<std::size_t>())
      return at + ": " + std::to_string(a.size()) + " items, fewer than minItems " + json::serialize(*min);
    if (auto* max = s.if_contains("maxItems"); max && a.size() > max->to_number<std::size_t>())
      return at + ": " + std::to_string(a.size()) + " items, more than maxItems " + json::serialize(*max);
    if (auto* items = s.if_contains("items"))
      for (std::size_t i = 0; i < a.size(); ++i)
        if (auto m = check(*items, a[i], at + "/" + std::to_string(i)))
          return m;
    return std::nullopt;
  }

  std::optional<std::string> string_form(const json::object& s, const json::value& v, const std::string& at) const {
    if (!v.is_string())
      return std::nullopt;
    std::string text{v.as_string()};
    if (auto* p = s.if_contains("pattern")) {
      std::string pattern{p->as_string()};
      if (!std::regex_search(text, compiled(pattern)))
        return at + ": " + shown(v) + " does not match " + pattern;
    }
    if (auto* min = s.if_contains("minLength"); min && code_points(text) < min->to_number<std::size_t>())
      return at + ": " + shown(v) + " is shorter than minLength " + json::serialize(*min);
    if (auto* max = s.if_contains("maxLength"); max && code_points(text) > max->to_number<std::size_t>())
      return at + ": " + shown(v) + " is longer than maxLength " + json::serialize(*max);
    if (auto* format = s.if_contains("format")) {
      static const std::map<std::string, std::string> forms{
        {"date-time", R"(^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$)"},
        {"date", R"(^\d{4}-\d{2}-\d{2}$)"},
      };
      auto form = forms.find(std::string{format->as_string()});
      if (form != forms.end() && !std::regex_search(text, compiled(form->second)))
        return at + ": " + shown(v) + " is not a " + form->first;
    }
    return std::nullopt;
  }

  std::optional<std::string> number_range(const json::object& s, const json::value& v, const std::string& at) const {
    if (!v.is_number())
      return std::nullopt;
    auto n = number_of(v);
    if (auto* min = s.if_contains("minimum"); min && n < number_of(*min))
      return at + ": " + shown(v) + " is below minimum " + json::serialize(*min);
    if (auto* max = s.if_contains("maximum"); max && n > number_of(*max))
      return at + ": " + shown(v) + " is above maximum " + json::serialize(*max);
    if (auto* min = s.if_contains("exclusiveMinimum"); min && min->is_number() && n <= number_of(*min))
      return at + ": " + shown(v) + " is not above exclusiveMinimum " + json::serialize(*min);
    if (auto* max = s.if_contains("exclusiveMaximum"); max && max->is_number() && n >= number_of(*max))
      return at + ": " + shown(v) + " is not below exclusiveMaximum " + json::serialize(*max);
    return std::nullopt;
  }

  const json::value& document_;
};

} // namespace

const json::value& resolve_ref(const json::value& document, const json::value& ref) {
  std::string pointer{ref.as_string()};
  if (pointer.rfind("#/", 0) != 0)
    throw std::runtime_error("only local $refs are supported: " + pointer);
  boost::system::error_code ec;
  auto* target = document.find_pointer(pointer.substr(1), ec);
  if (!target)
    throw std::runtime_error("$ref points nowhere: " + pointer);
  return *target;
}

std::optional<std::string> schema_mismatch(const json::value& document, const json::value& schema,
                                           const json::value& instance) {
  return checker{document}.check(schema, instance, "body");
}

} // namespace svc::test
