#pragma once
// Typed reads of an untrusted JSON request object that name the offending
// parameter: the first failure becomes a 400 `invalid_parameter` or
// `unknown_parameter` and every later read is a no-op, so a validator reads
// its fields in order and checks `error()` once.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "schema/errors.hpp"

namespace svc::schema {

class field_reader {
public:
  /// Reads `object`; `path` names it in `error.param` (`loras[2]`, empty at top level).
  explicit field_reader(const boost::json::object& object, std::string path = {});

  /// Fails with `unknown_parameter` on the first key (in body order) not in `allowed`.
  void only(std::initializer_list<std::string_view> allowed);

  /// The field's value; nullptr when absent or JSON null (both mean "not given").
  const boost::json::value* get(std::string_view name);

  /// An integer in [min, max]; integral doubles (`1024.0`) count, booleans do not.
  /// Not given: nullopt, and a failure if `required`.
  std::optional<int64_t> integer(std::string_view name, int64_t min, int64_t max, bool required = false);

  /// A number (integer or double) in [min, max].
  std::optional<double> number(std::string_view name, double min, double max, bool required = false);

  /// Well-formed UTF-8 text of `min_chars`..`max_chars` code points.
  std::optional<std::string> text(std::string_view name, std::size_t min_chars, std::size_t max_chars,
                                  bool required = false);

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
  const boost::json::object& object_;
  std::string path_;
  std::optional<api_error> error_;
};

/// `v` as an int64 if it is a JSON integer or an integral double that fits.
std::optional<int64_t> integral_value(const boost::json::value& v);

} // namespace svc::schema
