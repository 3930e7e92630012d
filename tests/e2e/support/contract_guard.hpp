#pragma once
// Every answer the e2e client receives is checked against schema/openapi.yaml
// (tests/support/contract_check): a drift between svcd and its contract fails
// the test that made the request, with method, target, status and the first
// mismatch.

#include "support/http_client.hpp"

#include <string_view>

namespace svc::e2e {

/// Checks `answer` to `method target`; a mismatch is a BOOST_ERROR of the running test. Outside a Boost.Test
/// run (the crash campaign drives svcd with this client too) it checks nothing: there is no test to fail.
void check_against_contract(std::string_view method, std::string_view target, const response& answer);

/// The same for the answer a raw connection read (`bytes`, up to the close): it must be one whole HTTP response
/// and conform. `method` and `target` are those of the request line sent, or what svcd can have made of garbage.
void check_raw_answer_against_contract(std::string_view method, std::string_view target, std::string_view bytes);

} // namespace svc::e2e
