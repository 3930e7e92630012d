#include "schema/job_view.hpp"

#define BOOST_TEST_MODULE schema_job_view
#include <boost/test/unit_test.hpp>

#include <string>

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "schema/output_url.hpp"

namespace {

namespace json = boost::json;
using namespace svc::schema;
using svc::core::from_unix_ms;

const std::string secret = "0123456789abcdef0123456789abcdef";
const output_signer signer{"http://svc.test:8080", secret};

job_record succeeded_job() {
  job_record j;
  j.id = "img_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.team_id = "team_1";
  j.status = job_status::succeeded;
  j.prompt = "a lighthouse";
  j.negative_prompt = "fog";
  j.width = 512;
  j.height = 256;
  j.num_outputs = 2;
  j.seed = 7;
  j.steps = 30;
  j.loras = {{"lora_01A", "watercolor", 1.0}, {"lora_01B", "ink", 0.5}};
  j.selection = lora_selection::automatic;
  j.metadata = {{"order", "42"}};
  j.api_version = "2026-01-15";
  j.credits = 80;
  j.cost_status = hold_status::charged;
  j.progress = 1;
  j.outputs = {{"image/png", 1000, 512, 256, std::string(64, 'a')}, {"image/png", 2000, 512, 256, std::string(64, 'b')}};
  j.outputs_expire_at = from_unix_ms(1763723730999);
  j.created_at = from_unix_ms(1763720130123);
  j.started_at = from_unix_ms(1763720130456);
  j.completed_at = from_unix_ms(1763720131789);
  return j;
}

const json::object& view_of(const job_record& j, json::value& holder) {
  holder = job_view(j, signer);
  return holder.as_object();
}

} // namespace

BOOST_AUTO_TEST_CASE(a_succeeded_job_shows_signed_output_urls) {
  json::value v;
  auto& o = view_of(succeeded_job(), v);
  auto id = std::string{"img_01KAK3R5N2W9X7Q4V6B8C0D1EF"};
  // Signed with the stored expiry in whole seconds.
  auto& urls = o.at("output_urls").as_array();
  BOOST_REQUIRE(urls.size() == 2u);
  for (uint32_t i = 0; i < 2; ++i)
    BOOST_TEST(urls[i].as_string() == "http://svc.test:8080" + output_url_path(secret, id, i, 1763723730));
  auto& outputs = o.at("outputs").as_array();
  BOOST_REQUIRE(outputs.size() == 2u);
  auto& second = outputs[1].as_object();
  BOOST_TEST(second.at("url") == urls[1]);
  BOOST_TEST(second.at("content_type").as_string() == "image/png");
  BOOST_TEST(second.at("bytes").to_number<int64_t>() == 2000);
  BOOST_TEST(second.at("width").as_int64() == 512);
  BOOST_TEST(second.at("height").as_int64() == 256);
  BOOST_TEST(second.at("sha256").as_string() == std::string(64, 'b'));
  BOOST_TEST(o.at("outputs_expire_at").as_string() == svc::core::format_iso8601(from_unix_ms(1763723730999)));
  // The same record always shows the same URLs.
  json::value again;
  BOOST_TEST(view_of(succeeded_job(), again).at("output_urls") == o.at("output_urls"));
}

BOOST_AUTO_TEST_CASE(other_statuses_show_no_outputs) {
  for (auto s : {job_status::queued, job_status::processing, job_status::failed, job_status::cancelled,
                 job_status::expired, job_status::moderation_rejected}) {
    auto j = succeeded_job(); // outputs left in place: the status alone decides
    j.status = s;
    json::value v;
    auto& o = view_of(j, v);
    BOOST_TEST_CONTEXT(to_string(s)) {
      BOOST_TEST(o.at("status").as_string() == to_string(s));
      BOOST_TEST(o.at("output_urls").as_array().empty());
      BOOST_TEST(o.at("outputs").as_array().empty());
      BOOST_TEST(o.at("outputs_expire_at").is_null());
    }
  }
  // Succeeded without a stored expiry (never written so) shows none either.
  auto j = succeeded_job();
  j.outputs_expire_at.reset();
  json::value v;
  BOOST_TEST(view_of(j, v).at("output_urls").as_array().empty());
}

BOOST_AUTO_TEST_CASE(loras_cost_and_request_are_echoed) {
  json::value v;
  auto& o = view_of(succeeded_job(), v);
  BOOST_TEST(o.at("id").as_string() == "img_01KAK3R5N2W9X7Q4V6B8C0D1EF");
  BOOST_TEST(o.at("object").as_string() == "image");
  BOOST_TEST(o.at("prompt").as_string() == "a lighthouse");
  BOOST_TEST(o.at("negative_prompt").as_string() == "fog");
  BOOST_TEST(o.at("num_outputs").as_int64() == 2);
  BOOST_TEST(o.at("seed").to_number<int64_t>() == 7);
  BOOST_TEST(!o.contains("duration_seconds"));
  BOOST_TEST(!o.contains("fps"));
  auto& loras = o.at("loras").as_array();
  BOOST_REQUIRE(loras.size() == 2u);
  BOOST_TEST(loras[0].as_object().at("lora").as_string() == "lora_01A");
  BOOST_TEST(loras[0].as_object().at("slug").as_string() == "watercolor");
  BOOST_TEST(loras[0].as_object().at("weight").is_int64()); // 1, not 1.0
  BOOST_TEST(loras[0].as_object().at("weight").as_int64() == 1);
  BOOST_TEST(loras[1].as_object().at("weight").as_double() == 0.5);
  BOOST_TEST(o.at("lora_selection").as_string() == "auto");
  BOOST_TEST((o.at("cost") == json::value(json::object{{"credits", 80}, {"status", "charged"}})));
  BOOST_TEST((o.at("metadata") == json::value(json::object{{"order", "42"}})));
  BOOST_TEST(o.at("init_image").is_null());
  BOOST_TEST(o.at("failure").is_null());
  BOOST_TEST(o.at("api_version").as_string() == "2026-01-15");
  BOOST_TEST(o.at("created_at").as_string() == svc::core::format_iso8601(from_unix_ms(1763720130123)));
  BOOST_TEST(o.at("completed_at").as_string() == svc::core::format_iso8601(from_unix_ms(1763720131789)));
  BOOST_TEST(!o.contains("team_id")); // internal
}

BOOST_AUTO_TEST_CASE(numbers_beyond_int64_show_as_doubles) {
  // A damaged but decodable record may hold any finite double; whole numbers
  // past int64's range must not go through an integer conversion.
  auto j = succeeded_job();
  j.loras = {{"lora_01A", "watercolor", 2.2e85}, {"lora_01B", "ink", -1e300}};
  json::value v;
  auto& loras = view_of(j, v).at("loras").as_array();
  BOOST_TEST(loras[0].as_object().at("weight").as_double() == 2.2e85);
  BOOST_TEST(loras[1].as_object().at("weight").as_double() == -1e300);
}

BOOST_AUTO_TEST_CASE(a_failed_video_shows_its_failure_and_refund) {
  job_record j;
  j.id = "vid_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.kind = job_kind::video;
  j.status = job_status::failed;
  j.prompt = "waves";
  j.duration_seconds = 4;
  j.fps = 24;
  j.credits = 120;
  j.cost_status = hold_status::refunded;
  j.progress = 0.25;
  j.failure = job_failure{"provider_error", "the back end failed"};
  j.created_at = from_unix_ms(1763720130123);
  json::value v;
  auto& o = view_of(j, v);
  BOOST_TEST(o.at("object").as_string() == "video");
  BOOST_TEST(o.at("duration_seconds").as_int64() == 4);
  BOOST_TEST(o.at("fps").as_int64() == 24);
  BOOST_TEST(o.at("progress").as_double() == 0.25);
  BOOST_TEST((o.at("cost") == json::value(json::object{{"credits", 120}, {"status", "refunded"}})));
  BOOST_TEST((o.at("failure")
              == json::value(json::object{{"code", "provider_error"}, {"message", "the back end failed"}})));
  BOOST_TEST(o.at("started_at").is_null());
  BOOST_TEST(o.at("completed_at").is_null());
  BOOST_TEST(o.at("loras").as_array().empty());
  BOOST_TEST(o.at("lora_selection").as_string() == "none");
}
