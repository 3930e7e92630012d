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

} // namespace svc::schema
