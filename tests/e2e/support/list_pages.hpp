#pragma once
// Reading a whole cursor-paged list of the public API (`{object: "list",
// data, has_more, next_cursor}`), page after page.

#include "support/http_client.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <vector>

namespace svc::e2e {

/// Every item of `GET path?limit=100[&query]` in list order (newest first),
/// following `next_cursor` while `has_more`. Throws std::runtime_error when a
/// page does not answer 200 or the list does not end within 10,000 pages.
std::vector<boost::json::value> all_pages(http_client& c, const std::string& key, const std::string& path,
                                          const std::string& query = "");

} // namespace svc::e2e
