#include "providers/yaml_fields.hpp"

#include <algorithm>

namespace svc::providers {

void fault(const std::string& where, const std::string& what) { throw file_fault{where + ": " + what}; }

std::string where_of(const std::string& path, const YAML::Node& n) {
  auto mark = n.Mark();
  return mark.line >= 0 ? path + " (line " + std::to_string(mark.line + 1) + ")" : path;
}

bool is_name(std::string_view s, std::size_t max) {
  return !s.empty() && s.size() <= max && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
}

map_reader::map_reader(const YAML::Node& node, std::string where, std::initializer_list<std::string_view> known)
    : node_(node), where_(std::move(where)) {
  if (!node.IsMap())
    fault(where_, "must be a map");
  for (auto it = node.begin(); it != node.end(); ++it) {
    auto key = it->first.as<std::string>();
    if (std::find(known.begin(), known.end(), key) == known.end())
      fault(where_, "unknown field '" + key + "'");
  }
}

std::string map_reader::text(const std::string& key, bool required, std::string fallback) const {
  auto n = node_[key];
  if (!n) {
    if (required)
      fault(where_, "'" + key + "' is required");
    return fallback;
  }
  if (!n.IsScalar())
    fault(where_, "'" + key + "' must be a text");
  return n.as<std::string>();
}

long map_reader::integer(const std::string& key, long min, long max, long fallback) const {
  auto n = node_[key];
  if (!n)
    return fallback;
  long v = 0;
  if (!n.IsScalar() || !YAML::convert<long>::decode(n, v) || v < min || v > max)
    fault(where_, "'" + key + "' must be a whole number from " + std::to_string(min) + " to " + std::to_string(max));
  return v;
}

double map_reader::number(const std::string& key, double min, double max, double fallback) const {
  auto n = node_[key];
  if (!n)
    return fallback;
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || v < min || v > max)
    fault(where_, "'" + key + "' must be a number from " + std::to_string(min) + " to " + std::to_string(max));
  return v;
}

bool map_reader::flag(const std::string& key) const {
  auto n = node_[key];
  bool v = false;
  if (n && (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)))
    fault(where_, "'" + key + "' must be true or false");
  return v;
}

std::vector<std::string> map_reader::texts(const std::string& key) const {
  auto n = node_[key];
  if (!n || !n.IsSequence() || n.size() == 0)
    fault(where_, "'" + key + "' must be a list of at least one name");
  std::vector<std::string> out;
  for (auto item : n) {
    if (!item.IsScalar())
      fault(where_, "'" + key + "' must list names");
    out.push_back(item.as<std::string>());
  }
  return out;
}

} // namespace svc::providers
