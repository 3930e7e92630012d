#include "support/contract_guard.hpp"

#include "contract_check.hpp"
#include "openapi_document.hpp"

#include <boost/test/framework.hpp>
#include <boost/test/unit_test.hpp>

#include <mutex>

namespace svc::e2e {

namespace {

void report(std::string_view method, std::string_view target, int status, const std::string& mismatch) {
  // Some suites send requests from threads of their own; Boost.Test's log is not thread-safe.
  static std::mutex one_at_a_time;
  std::lock_guard lock{one_at_a_time};
  BOOST_ERROR("contract: " << method << " " << target << " -> " << status << ": " << mismatch);
}

} // namespace

void check_against_contract(std::string_view method, std::string_view target, const response& answer) {
  if (!boost::unit_test::framework::test_in_progress())
    return;
  static const svc::test::contract spec{svc::test::load_yaml_as_json(SVC_OPENAPI_PATH)};
  if (auto mismatch = spec.first_mismatch({method, target, answer.status, answer.headers, answer.body}))
    report(method, target, answer.status, *mismatch);
}

void check_raw_answer_against_contract(std::string_view method, std::string_view target, std::string_view bytes) {
  auto answer = parse_response(bytes);
  if (!answer)
    report(method, target, 0, "the bytes read are not one whole HTTP response: " + std::string{bytes.substr(0, 80)});
  else
    check_against_contract(method, target, *answer);
}

} // namespace svc::e2e
