#pragma once
// The one reader of untrusted JSON request bodies: typed reads that name the
// offending parameter (`loras[2].weight`, `metadata.<key>`, `events[1]`). The
// first failure becomes a 400 `invalid_parameter` or `unknown_parameter` and
// every later read is a no-op, so a validator reads its fields in order and
// checks `error()` once.

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "schema/errors.hpp"

namespace svc::schema {

/// How strictly a body's JSON types are taken. Each route keeps the one it was
/// written with, so that no answer changed when the readers became one:
/// - `lenient` (image, video and webhook endpoint bodies): null means "not
///   given", `1024.0` is an integer, text is UTF-8 counted in code points, and
///   a long unknown key is cut at a character boundary;
/// - `strict` (team, key, credit and operator bodies): null is a value of the
///   wrong type, an integer is a JSON integer, text is counted in bytes with one
///   message for every fault, number bounds are shown as Boost.JSON writes them
///   (`1E0`), and a long unknown key is cut at 100 bytes.
enum class json_discipline { lenient, strict };

/// The bounds of a string-to-string object such as `metadata`.
struct string_map_limits {
  std::size_t max_keys;        ///< entries
  std::size_t max_key_chars;   ///< code points, at least 1
  std::size_t max_value_chars; ///< code points
};

class field_reader {
public:
  /// Reads `object` leniently; `path` names it in `error.param` (`loras[2]`, empty at top level).
  explicit field_reader(const boost::json::object& object, std::string path = {});

  /// Reads a top-level `object` with `discipline`.
  field_reader(const boost::json::object& object, json_discipline discipline);

  /// Fails with `unknown_parameter` on the first key (in body order) not in `allowed`.
  void only(std::initializer_list<std::string_view> allowed);

  /// The field's value; nullptr when absent (or, leniently, JSON null), or after a failure.
  const boost::json::value* get(std::string_view name);

  /// An integer in [min, max]. Not given: nullopt, and a failure if `required`.
  std::optional<int64_t> integer(std::string_view name, int64_t min, int64_t max, bool required = false);

  /// A number (integer or double) in [min, max].
  std::optional<double> number(std::string_view name, double min, double max, bool required = false);

  /// A string of `min_len`..`max_len` characters (lenient: code points of valid UTF-8; strict: bytes).
  std::optional<std::string> text(std::string_view name, std::size_t min_len, std::size_t max_len,
                                  bool required = false);

  /// An array of strings.
  std::optional<std::vector<std::string>> strings(std::string_view name, bool required = false);

  /// An object of string values within `limits`; a bad value is named `name.<key>`.
  std::optional<std::map<std::string, std::string>> string_map(std::string_view name, const string_map_limits& limits);

  /// Records an `invalid_parameter` failure for `name` unless one is kept already.
  void fail(std::string_view name, std::string detail);

  /// Keeps `inner`'s failure (a nested object's reader) unless one is kept already.
  void merge(const field_reader& inner);

  /// `path.name`, or `name` at top level: the `error.param` of a field.
  std::string param(std::string_view name) const;

  /// The first failure, if any.
  const std::optional<api_error>& error() const { return error_; }

  /// True while nothing failed.
  bool ok() const { return !error_; }

private:
  const boost::json::value* given(std::string_view name, bool required);

  const boost::json::object& object_;
  std::string path_;
  json_discipline discipline_ = json_discipline::lenient;
  std::optional<api_error> error_;
};

/// `v` as an int64 if it is a JSON integer or an integral double that fits.
std::optional<int64_t> integral_value(const boost::json::value& v);

} // namespace svc::schema
