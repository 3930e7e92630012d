#pragma once
// Checks one HTTP answer of svcd against schema/openapi.yaml: the operation
// is found by method and path template (server base paths stripped, `{param}`
// one segment; the last `{param}` of a legacy path, marked `x-legacy-of`,
// the rest of the path when nothing else matches), then the status must be documented for it (exactly, as `2XX`, or
// `default`), the documented required headers present and of their schema,
// the Content-Type one of the documented media types, and a JSON body valid
// against the response schema. The e2e client runs it on every response.

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace svc::test {

/// How much of an answer to check.
enum class contract_depth {
  full,           ///< status, headers, content type and body
  status_and_type ///< status and content type only: raw bytes whose body is no API document
};

/// One answer as the client saw it.
struct observed_answer {
  std::string_view method; ///< as sent, e.g. "GET", "HEAD"
  std::string_view target; ///< path and query as sent
  int status = 0;
  const std::vector<std::pair<std::string, std::string>>& headers; ///< in wire order
  std::string_view body;
};

/// The contract, parsed once.
class contract {
public:
  /// The OpenAPI document, as svc::test::load_yaml_as_json returns it.
  explicit contract(boost::json::value document);

  /// The first way `answer` departs from the contract, or nullopt when it conforms.
  std::optional<std::string> first_mismatch(const observed_answer& answer,
                                            contract_depth depth = contract_depth::full) const;

  /// The path template of the spec that `path` (no query) matches, or nullopt.
  std::optional<std::string> path_template(std::string_view path) const;

  /// The parsed document.
  const boost::json::value& document() const;

private:
  boost::json::value document_;
  std::vector<std::string> base_paths_; ///< path parts of the servers' URLs ("" for none)
};

} // namespace svc::test
