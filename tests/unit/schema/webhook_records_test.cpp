#include "schema/webhook_records.hpp"

#include <boost/test/unit_test.hpp>

#include <string_view>
#include <utility>

BOOST_AUTO_TEST_SUITE(schema_webhook_records)

using namespace svc::schema;

BOOST_AUTO_TEST_CASE(every_delivery_error_has_its_wire_name_and_reads_back) {
  const std::pair<delivery_error, std::string_view> names[] = {
    {delivery_error::none, ""},
    {delivery_error::http_4xx, "http_4xx"},
    {delivery_error::http_5xx, "http_5xx"},
    {delivery_error::timeout, "timeout"},
    {delivery_error::connect_refused, "connect_refused"},
    {delivery_error::tls_error, "tls_error"},
    {delivery_error::connect_error, "connect_error"},
  };
  for (auto& [error, name] : names) {
    BOOST_TEST(to_string(error) == name);
    BOOST_TEST((delivery_error_from_name(name) == error));
  }
}

BOOST_AUTO_TEST_CASE(an_unknown_delivery_error_name_is_refused) {
  BOOST_TEST(!delivery_error_from_name("none")); // no error shows as no text
  BOOST_TEST(!delivery_error_from_name("http_3xx"));
  BOOST_TEST(!delivery_error_from_name("Timeout"));
}

BOOST_AUTO_TEST_SUITE_END()
