#include "support/json_util.hpp"

#include <cstdlib>

namespace svc::e2e {

const boost::json::value* json_at(const boost::json::value& v, std::string_view path) {
  const boost::json::value* cur = &v;
  while (cur && !path.empty()) {
    auto dot = path.find('.');
    auto part = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
    if (auto* o = cur->if_object()) {
      cur = o->if_contains(part);
    } else if (auto* a = cur->if_array()) {
      char* end = nullptr;
      std::string idx{part};
      auto i = std::strtoul(idx.c_str(), &end, 10);
      cur = (end && *end == '\0' && !idx.empty() && i < a->size()) ? &(*a)[i] : nullptr;
    } else {
      cur = nullptr;
    }
  }
  return cur;
}

std::string json_str(const boost::json::value& v, std::string_view path) {
  auto* p = json_at(v, path);
  return p && p->is_string() ? std::string{p->as_string()} : std::string{};
}

std::optional<std::int64_t> json_int(const boost::json::value& v, std::string_view path) {
  auto* p = json_at(v, path);
  if (p && p->is_int64())
    return p->as_int64();
  if (p && p->is_uint64())
    return static_cast<std::int64_t>(p->as_uint64());
  return std::nullopt;
}

std::optional<bool> json_bool(const boost::json::value& v, std::string_view path) {
  auto* p = json_at(v, path);
  if (p && p->is_bool())
    return p->as_bool();
  return std::nullopt;
}

bool json_is_null(const boost::json::value& v, std::string_view path) {
  auto* p = json_at(v, path);
  return p && p->is_null();
}

long json_size(const boost::json::value& v, std::string_view path) {
  auto* p = json_at(v, path);
  return p && p->is_array() ? static_cast<long>(p->as_array().size()) : -1;
}

std::vector<std::string> data_strings(const boost::json::value& list, std::string_view field) {
  std::vector<std::string> out;
  for (long i = 0; i < json_size(list, "data"); ++i)
    out.push_back(json_str(list, "data." + std::to_string(i) + "." + std::string(field)));
  return out;
}

} // namespace svc::e2e
