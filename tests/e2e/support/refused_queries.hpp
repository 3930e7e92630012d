#pragma once
// The list routes' refusals of bad query parameters: each case a query that
// answers 400 with its error code and the parameter `error.param` names.

#include "support/http_client.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace svc::e2e {

/// A query string a route refuses, the `error.code` and the `error.param` it answers with.
struct refused_query {
  std::string query, code, param;
};

/// Checks, in the context of each case, that `GET path?query` with `key` answers 400
/// with the case's code and param; `also` checks more of each answer.
void check_refused_queries(http_client& c, const std::string& path, const std::string& key,
                           const std::vector<refused_query>& cases,
                           const std::function<void(const response&)>& also = {});

} // namespace svc::e2e
