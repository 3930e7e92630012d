#include "schema/output_url.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(schema_output_url)

using namespace svc::schema;

namespace {

const std::string secret = "0123456789abcdef0123456789abcdef";
const std::string job = "img_01M7ZWTDDF2MFHA1Q1CMYFPEHW";

} // namespace

BOOST_AUTO_TEST_CASE(path_has_the_documented_shape) {
  auto p = output_url_path(secret, job, 2, 1800000000);
  auto sig = output_signature(secret, job, 2, 1800000000);
  BOOST_TEST(p == "/v1/outputs/" + job + "/2?exp=1800000000&sig=" + sig);
  BOOST_TEST(sig.size() == 64u);
}

BOOST_AUTO_TEST_CASE(a_fresh_url_verifies) {
  auto sig = output_signature(secret, job, 0, 1800000000);
  BOOST_TEST((verify_output_url(secret, job, 0, "1800000000", sig, 1799999999) == output_url_verdict::valid));
}

BOOST_AUTO_TEST_CASE(every_tampered_part_is_an_invalid_signature) {
  auto sig = output_signature(secret, job, 0, 1800000000);
  auto now = 1700000000;
  auto bad = output_url_verdict::invalid_signature;
  BOOST_TEST((verify_output_url(secret, "img_01M7ZWTDDF2MFHA1Q1CMYFPEHX", 0, "1800000000", sig, now) == bad));
  BOOST_TEST((verify_output_url(secret, job, 1, "1800000000", sig, now) == bad));
  BOOST_TEST((verify_output_url(secret, job, 0, "1800000001", sig, now) == bad));
  BOOST_TEST((verify_output_url(secret, job, 0, "01800000000", sig, now) == bad));
  BOOST_TEST((verify_output_url(secret, job, 0, "+1800000000", sig, now) == bad));
  BOOST_TEST((verify_output_url(secret, job, 0, "", sig, now) == bad));
  auto flipped = sig;
  flipped[10] = flipped[10] == 'a' ? 'b' : 'a';
  BOOST_TEST((verify_output_url(secret, job, 0, "1800000000", flipped, now) == bad));
  BOOST_TEST((verify_output_url(secret, job, 0, "1800000000", sig.substr(0, 63), now) == bad));
  BOOST_TEST((verify_output_url("another secret", job, 0, "1800000000", sig, now) == bad));
}

BOOST_AUTO_TEST_CASE(expiry_counts_only_for_a_genuine_signature) {
  auto sig = output_signature(secret, job, 0, 1800000000);
  BOOST_TEST((verify_output_url(secret, job, 0, "1800000000", sig, 1800000000) == output_url_verdict::expired));
  BOOST_TEST((verify_output_url(secret, job, 0, "1800000000", "00", 1900000000)
              == output_url_verdict::invalid_signature));
}

BOOST_AUTO_TEST_SUITE_END()
