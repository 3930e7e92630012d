#include "schema/stored_json.hpp"
#include "schema/job_record.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

#include "tests/support/stored_text.hpp"

BOOST_AUTO_TEST_SUITE(schema_stored_json_job)

namespace {

namespace json = boost::json;
using namespace svc::schema;
using namespace svc::core;

job_record full_job() {
  job_record j;
  j.id = "img_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EG";
  j.kind = job_kind::image;
  j.status = job_status::succeeded;
  j.prompt = "a lighthouse \"at dusk\" \xc3\xa9";
  j.negative_prompt = "fog";
  j.width = 1024;
  j.height = 768;
  j.num_outputs = 2;
  j.seed = 4294967295u;
  j.steps = 50;
  j.loras = {{"lora_01A", "watercolor", 0.75}, {"lora_01B", "ink", -1}};
  j.selection = lora_selection::requested;
  j.init_image = "file_01KAK3R5N2W9X7Q4V6B8C0D1EH";
  j.metadata = {{"order", "42"}, {"customer", "acme"}};
  j.api_version = "2026-01-15";
  j.credits = 80;
  j.cost_status = hold_status::charged;
  j.progress = 1;
  j.outputs = {{"image/png", 123456, 1024, 768, std::string(64, 'a')},
               {"image/png", 654321, 1024, 768, std::string(64, 'b')}};
  j.outputs_expire_at = from_unix_ms(1763723730123);
  j.failure = job_failure{"provider_error", "never mind"};
  j.created_at = from_unix_ms(1763720130123);
  j.started_at = from_unix_ms(1763720130456);
  j.completed_at = from_unix_ms(1763720131789);
  j.requeue_deadline = from_unix_ms(1763721030456);
  j.correlation = {"client-abc", trace_parent{"4bf92f3577b34da6a3ce929d0e0e4736", "01"}};
  return j;
}

job_record bare_job() {
  job_record j;
  j.id = "vid_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.team_id = "team_1";
  j.kind = job_kind::video;
  j.status = job_status::queued;
  j.prompt = "waves";
  j.width = 640;
  j.height = 360;
  j.duration_seconds = 4;
  j.fps = 24;
  j.credits = 120;
  j.created_at = from_unix_ms(1763720130123);
  return j;
}

job_record round_trip(const job_record& j) {
  job_record out;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(j)), out));
  return out;
}

} // namespace

BOOST_AUTO_TEST_CASE(a_full_record_round_trips) {
  auto j = full_job();
  auto r = round_trip(j);
  BOOST_TEST(r.id == j.id);
  BOOST_TEST(r.team_id == j.team_id);
  BOOST_TEST((r.kind == job_kind::image));
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_TEST(r.prompt == j.prompt);
  BOOST_TEST(r.negative_prompt == "fog");
  BOOST_TEST(r.width == 1024);
  BOOST_TEST(r.height == 768);
  BOOST_TEST(r.num_outputs == 2);
  BOOST_TEST(r.seed == 4294967295u);
  BOOST_TEST(r.steps == 50);
  BOOST_REQUIRE(r.loras.size() == 2u);
  BOOST_TEST(r.loras[0].lora_id == "lora_01A");
  BOOST_TEST(r.loras[0].slug == "watercolor");
  BOOST_TEST(r.loras[0].weight == 0.75);
  BOOST_TEST(r.loras[1].weight == -1.0);
  BOOST_TEST((r.selection == lora_selection::requested));
  BOOST_TEST((r.init_image == j.init_image));
  BOOST_TEST((r.metadata == j.metadata));
  BOOST_TEST(r.api_version == "2026-01-15");
  BOOST_TEST(r.credits == 80);
  BOOST_TEST((r.cost_status == hold_status::charged));
  BOOST_TEST(r.progress == 1.0);
  BOOST_REQUIRE(r.outputs.size() == 2u);
  BOOST_TEST(r.outputs[1].content_type == "image/png");
  BOOST_TEST(r.outputs[1].bytes == 654321u);
  BOOST_TEST(r.outputs[1].width == 1024);
  BOOST_TEST(r.outputs[1].height == 768);
  BOOST_TEST(r.outputs[1].sha256 == std::string(64, 'b'));
  BOOST_TEST(to_unix_ms(*r.outputs_expire_at) == 1763723730123);
  BOOST_REQUIRE(r.failure);
  BOOST_TEST(r.failure->code == "provider_error");
  BOOST_TEST(r.failure->message == "never mind");
  BOOST_TEST(to_unix_ms(r.created_at) == 1763720130123);
  BOOST_TEST(to_unix_ms(*r.started_at) == 1763720130456);
  BOOST_TEST(to_unix_ms(*r.completed_at) == 1763720131789);
  BOOST_REQUIRE(r.requeue_deadline);
  BOOST_TEST(to_unix_ms(*r.requeue_deadline) == 1763721030456);
  BOOST_TEST(r.correlation.request_id == "client-abc");
  BOOST_REQUIRE(r.correlation.trace);
  BOOST_TEST(r.correlation.trace->trace_id == "4bf92f3577b34da6a3ce929d0e0e4736");
  BOOST_TEST(r.correlation.trace->flags == "01");
  BOOST_TEST(json::serialize(encode_stored(r)) == json::serialize(encode_stored(j)));
}

BOOST_AUTO_TEST_CASE(a_bare_record_round_trips_with_its_optionals_empty) {
  auto j = bare_job();
  auto r = round_trip(j);
  BOOST_TEST((r.kind == job_kind::video));
  BOOST_TEST((r.status == job_status::queued));
  BOOST_TEST(r.duration_seconds == 4);
  BOOST_TEST(r.fps == 24);
  BOOST_TEST(r.loras.empty());
  BOOST_TEST((r.selection == lora_selection::none));
  BOOST_TEST(!r.init_image);
  BOOST_TEST(r.metadata.empty());
  BOOST_TEST((r.cost_status == hold_status::held));
  BOOST_TEST(r.outputs.empty());
  BOOST_TEST(!r.outputs_expire_at);
  BOOST_TEST(!r.failure);
  BOOST_TEST(!r.started_at);
  BOOST_TEST(!r.completed_at);
  BOOST_TEST(!r.requeue_deadline);
  BOOST_TEST(r.correlation.request_id.empty());
  BOOST_TEST(!r.correlation.trace);
  BOOST_TEST(json::serialize(encode_stored(r)) == json::serialize(encode_stored(j)));
}

// Jobs stored before the re-queue deadline existed have no such field.
BOOST_AUTO_TEST_CASE(a_record_without_a_requeue_deadline_still_decodes) {
  auto stored = encode_stored(full_job());
  stored.as_object().erase("requeue_deadline");
  job_record r;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(stored), r));
  BOOST_TEST(!r.requeue_deadline);
  BOOST_TEST(r.id == full_job().id);
}

// Jobs stored before they carried their request's correlation have no such field.
BOOST_AUTO_TEST_CASE(a_record_without_a_correlation_still_decodes) {
  auto stored = encode_stored(full_job());
  stored.as_object().erase("correlation");
  job_record r;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(stored), r));
  BOOST_TEST(r.correlation.request_id.empty());
  BOOST_TEST(!r.correlation.trace);
  BOOST_TEST(r.id == full_job().id);
}

BOOST_AUTO_TEST_CASE(every_status_round_trips) {
  for (auto s : {job_status::queued, job_status::processing, job_status::succeeded, job_status::failed,
                 job_status::cancelled, job_status::expired, job_status::moderation_rejected}) {
    auto j = bare_job();
    j.status = s;
    BOOST_TEST((round_trip(j).status == s), to_string(s));
  }
}

BOOST_AUTO_TEST_CASE(damaged_records_do_not_decode) {
  auto j = full_job();
  job_record out;
  BOOST_TEST(decode_stored(encode_stored(j), out));
  BOOST_TEST(!decode_stored(json::value("not an object"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "status", "done"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "kind", "audio"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "cost_status", "owed"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "lora_selection", "random"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "seed", -1), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "seed", int64_t{4294967296}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "width", "1024"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "init_image", 7), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "failure", "provider_error"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "failure", json::object{{"code", "x"}}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "metadata", json::object{{"order", 42}}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "correlation", "client-abc"), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "correlation", json::object{{"request_id", "a\r\nX-Forged: 1"}}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "loras", json::array{json::object{{"lora_id", "l"}, {"slug", "s"}}}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "outputs", json::array{json::object{{"content_type", "image/png"}}}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "outputs", json::object{}), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "created_at", nullptr), out));
  // Stored text such as 1e400 parses to infinity, which no answer could show as JSON.
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "progress", json::parse("1e400")), out));
  BOOST_TEST(!decode_stored(svc::test::stored_with(j, "loras", json::parse(R"([{"lora_id":"l","slug":"s","weight":-1e400}])")), out));
  auto missing = encode_stored(j);
  missing.as_object().erase("prompt");
  BOOST_TEST(!decode_stored(missing, out));
}

BOOST_AUTO_TEST_SUITE_END()
