#pragma once
// Reading request bodies: a JSON object whose fields are all known, with
// typed getters that name the offending parameter. On any failure the request
// is answered with the catalogue error and the caller just returns.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

#include "http/request_context.hpp"

namespace svc::http {

/// Whether a route takes no body at all as `{}`: actions whose fields are all
/// optional do; creates and updates answer 400 `invalid_body`, since nothing
/// was sent that could be JSON.
enum class empty_body { refused, allowed };

/// The body as a JSON object, for callers that check the fields themselves;
/// nullopt after answering 400 `invalid_body` or 415.
std::optional<boost::json::object> parse_json_object(const context_ptr& ctx, empty_body empty = empty_body::refused);

/// The body as a JSON object with only `allowed` fields; nullopt after
/// answering 400 `invalid_body`/`unknown_parameter` or 415.
std::optional<boost::json::object> read_json_object(const context_ptr& ctx,
                                                    std::initializer_list<std::string_view> allowed,
                                                    empty_body empty = empty_body::refused);

/// Typed access to a body's fields; the first failure is kept in `error`.
class body_fields {
public:
  explicit body_fields(const boost::json::object& o) : object_{o} {}
  /// An integer in [min, max]; nullopt when absent (an error if `required`).
  std::optional<int64_t> integer(std::string_view name, int64_t min, int64_t max, bool required);
  /// A number in [min, max].
  std::optional<double> number(std::string_view name, double min, double max, bool required);
  /// A string of at most `max_len` characters (at least 1 if `required`).
  std::optional<std::string> string(std::string_view name, std::size_t max_len, bool required);
  /// An array of strings.
  std::optional<std::vector<std::string>> strings(std::string_view name, bool required);
  /// The first failure, if any.
  std::optional<schema::api_error> error;

private:
  const boost::json::value* find(std::string_view name, bool required);
  void fail(std::string_view name, std::string detail);
  const boost::json::object& object_;
};

} // namespace svc::http
