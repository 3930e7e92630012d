#pragma once
// Reading the operator's YAML files field by field: a map's unknown keys,
// missing fields and values out of range fail with where they are, so a
// misspelt field is an error and never a silent default.

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace svc::providers {

/// A fault in a file: `what` says where and why. Thrown inside a reader and
/// caught once at its top, never past it.
struct file_fault {
  std::string what;
};

/// Throws `file_fault{where + ": " + what}`.
[[noreturn]] void fault(const std::string& where, const std::string& what);

/// `path (line N)` of a node.
std::string where_of(const std::string& path, const YAML::Node& n);

/// True for 1..`max` characters of a-z, 0-9, '-', '_' and '.'.
bool is_name(std::string_view s, std::size_t max);

/// The fields of one YAML map; every getter faults on a bad value.
class map_reader {
public:
  /// Faults unless `node` is a map whose keys are all in `known`.
  map_reader(const YAML::Node& node, std::string where, std::initializer_list<std::string_view> known);

  /// Where the map is, for messages.
  const std::string& where() const { return where_; }
  /// Whether `key` is given.
  bool has(const std::string& key) const { return static_cast<bool>(node_[key]); }
  /// The raw node of `key` (undefined when absent).
  YAML::Node get(const std::string& key) const { return node_[key]; }
  /// A scalar as text; absent: a fault if `required`, else `fallback`.
  std::string text(const std::string& key, bool required = true, std::string fallback = {}) const;
  /// A whole number in [min, max]; absent: `fallback`.
  long integer(const std::string& key, long min, long max, long fallback) const;
  /// A number in [min, max]; absent: `fallback`.
  double number(const std::string& key, double min, double max, double fallback) const;
  /// true or false; absent: false.
  bool flag(const std::string& key) const;
  /// A list of at least one text.
  std::vector<std::string> texts(const std::string& key) const;

private:
  YAML::Node node_;
  std::string where_;
};

} // namespace svc::providers
