#include "support/refused_queries.hpp"

#include <boost/test/unit_test.hpp>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

namespace svc::e2e {

void check_refused_queries(http_client& c, const std::string& path, const std::string& key,
                           const std::vector<refused_query>& cases, const std::function<void(const response&)>& also) {
  for (auto& k : cases) {
    BOOST_TEST_CONTEXT(path << "?" << k.query) {
      auto r = c.get(path + "?" + k.query, with_key(key));
      BOOST_TEST(is_error(r, 400, k.code), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == k.param);
      if (also)
        also(r);
    }
  }
}

} // namespace svc::e2e
