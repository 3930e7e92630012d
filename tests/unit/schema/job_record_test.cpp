#include "schema/job_record.hpp"

#include <boost/test/unit_test.hpp>

#include <string_view>
#include <utility>

BOOST_AUTO_TEST_SUITE(schema_job_record)

using namespace svc::schema;

// The wire names are the contract's: openapi.yaml and stored records spell them so.
BOOST_AUTO_TEST_CASE(every_status_has_its_wire_name_and_reads_back) {
  const std::pair<job_status, std::string_view> names[] = {
    {job_status::queued, "queued"},         {job_status::processing, "processing"},
    {job_status::succeeded, "succeeded"},   {job_status::failed, "failed"},
    {job_status::cancelled, "cancelled"},   {job_status::expired, "expired"},
    {job_status::moderation_rejected, "moderation_rejected"},
  };
  for (auto& [status, name] : names) {
    BOOST_TEST(to_string(status) == name);
    BOOST_TEST((job_status_from_name(name) == status));
  }
}

BOOST_AUTO_TEST_CASE(an_unknown_status_name_is_refused) {
  BOOST_TEST(!job_status_from_name("done"));
  BOOST_TEST(!job_status_from_name("Queued"));
  BOOST_TEST(!job_status_from_name(""));
}

BOOST_AUTO_TEST_CASE(kinds_have_wire_names) {
  BOOST_TEST(to_string(job_kind::image) == "image");
  BOOST_TEST(to_string(job_kind::video) == "video");
}

BOOST_AUTO_TEST_SUITE_END()
