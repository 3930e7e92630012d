#include "support/contract_guard.hpp"

#include "contract_check.hpp"
#include "openapi_document.hpp"

#include <boost/test/framework.hpp>
#include <boost/test/unit_test.hpp>

#include <mutex>

namespace svc::e2e {

void check_against_contract(std::string_view method, std::string_view target, const response& answer) {
  if (!boost::unit_test::framework::test_in_progress())
    return;
  static const svc::test::contract spec{svc::test::load_yaml_as_json(SVC_OPENAPI_PATH)};
  auto mismatch = spec.first_mismatch({method, target, answer.status, answer.headers, answer.body});
  if (!mismatch)
    return;
  // Some suites send requests from threads of their own; Boost.Test's log is not thread-safe.
  static std::mutex report;
  std::lock_guard lock{report};
  BOOST_ERROR("contract: " << method << " " << target << " -> " << answer.status << ": " << *mismatch);
}

} // namespace svc::e2e
