#include "schema/scopes.hpp"

namespace svc::schema {

std::string_view to_string(scope s) {
  switch (s) {
    case scope::read: return "read";
    case scope::write: return "write";
    case scope::full: return "full";
    default: return "none";
  }
}

std::optional<scope> scope_from_name(std::string_view name) {
  if (name == "read")
    return scope::read;
  if (name == "write")
    return scope::write;
  if (name == "full")
    return scope::full;
  return std::nullopt;
}

} // namespace svc::schema
