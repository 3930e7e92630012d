#include "support/list_pages.hpp"

#include <stdexcept>

#include "support/json_util.hpp"

namespace svc::e2e {

std::vector<boost::json::value> all_pages(http_client& c, const std::string& key, const std::string& path,
                                          const std::string& query) {
  std::vector<boost::json::value> items;
  std::string cursor;
  for (int page = 0; page < 10000; ++page) {
    auto target = path + "?limit=100" + (query.empty() ? "" : "&" + query)
                  + (cursor.empty() ? "" : "&starting_after=" + cursor);
    auto r = c.get(target, with_key(key));
    if (r.status != 200)
      throw std::runtime_error("GET " + target + " -> " + r.summary());
    auto list = r.json();
    if (auto* data = json_at(list, "data"); data && data->is_array())
      for (auto& item : data->as_array())
        items.push_back(item);
    cursor = json_str(list, "next_cursor");
    if (json_bool(list, "has_more") != true || cursor.empty())
      return items;
  }
  throw std::runtime_error("GET " + path + " did not end within 10000 pages");
}

} // namespace svc::e2e
