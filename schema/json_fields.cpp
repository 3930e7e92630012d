#include "schema/json_fields.hpp"

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
