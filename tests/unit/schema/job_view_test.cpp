#include "schema/job_view.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/time_format.hpp"
#include "schema/output_url.hpp"
#include "schema/views.hpp"
#include "tests/support/json_identical.hpp"

BOOST_AUTO_TEST_SUITE(schema_job_view)

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

namespace {

// The rendering before the direct writer existed (a json::value tree, then
// serialize), kept as the oracle the text and the tree must equal.
json::value reference_optional_time(const std::optional<svc::core::time_point>& t) {
  return t ? json::value(svc::core::format_iso8601(*t)) : json::value(nullptr);
}

json::value reference_job_view(const job_record& r, const output_signer& signer) {
  json::array loras;
  for (auto& l : r.loras)
    loras.push_back(json::object{{"lora", l.lora_id}, {"slug", l.slug}, {"weight", json_number(l.weight)}});
  json::array urls, outputs;
  if (r.status == job_status::succeeded && r.outputs_expire_at) {
    auto exp = svc::core::to_unix_ms(*r.outputs_expire_at) / 1000;
    for (std::size_t i = 0; i < r.outputs.size(); ++i) {
      auto url = std::string{signer.base_url} + output_url_path(signer.secret, r.id, static_cast<uint32_t>(i), exp);
      auto& o = r.outputs[i];
      outputs.push_back(json::object{{"url", url},
                                     {"content_type", o.content_type},
                                     {"bytes", o.bytes},
                                     {"width", o.width},
                                     {"height", o.height},
                                     {"sha256", o.sha256}});
      urls.emplace_back(std::move(url));
    }
  }
  json::object metadata;
  for (auto& [k, v] : r.metadata)
    metadata[k] = v;
  json::value failure = nullptr;
  if (r.failure)
    failure = json::object{{"code", r.failure->code}, {"message", r.failure->message}};
  json::object o;
  o["id"] = r.id;
  o["object"] = to_string(r.kind);
  o["status"] = to_string(r.status);
  o["prompt"] = r.prompt;
  o["negative_prompt"] = r.negative_prompt;
  o["width"] = r.width;
  o["height"] = r.height;
  if (r.kind == job_kind::video) {
    o["duration_seconds"] = r.duration_seconds;
    o["fps"] = r.fps;
  }
  o["num_outputs"] = r.num_outputs;
  o["seed"] = r.seed;
  o["steps"] = r.steps;
  o["loras"] = std::move(loras);
  o["lora_selection"] = to_string(r.selection);
  o["init_image"] = r.init_image ? json::value(*r.init_image) : json::value(nullptr);
  o["progress"] = json_number(r.progress);
  o["output_urls"] = std::move(urls);
  o["outputs"] = std::move(outputs);
  o["outputs_expire_at"] = r.status == job_status::succeeded ? reference_optional_time(r.outputs_expire_at) : nullptr;
  o["cost"] = json::object{{"credits", r.credits}, {"status", to_string(r.cost_status)}};
  o["failure"] = std::move(failure);
  o["metadata"] = std::move(metadata);
  o["api_version"] = r.api_version;
  o["created_at"] = svc::core::format_iso8601(r.created_at);
  o["started_at"] = reference_optional_time(r.started_at);
  o["completed_at"] = reference_optional_time(r.completed_at);
  return o;
}

// Client text that JSON must escape, and bytes it must pass through as they are.
const std::string awkward = std::string{"quote \" backslash \\ slash / nl \n tab \t cr \r bs \b ff \f nul "} + '\0'
                            + " \x01\x1f del \x7f é 水 🌊 \u2028 </script> end";
const std::string not_utf8 = "bad \xff\xfe \xc3 end"; // stored records are UTF-8; the view must not care

// Jobs in every status and shape a read can meet, written out.
std::vector<job_record> every_kind_of_job() {
  std::vector<job_record> jobs;
  auto queued = succeeded_job();
  queued.status = job_status::queued;
  queued.cost_status = hold_status::held;
  queued.progress = 0;
  queued.outputs.clear();
  queued.outputs_expire_at.reset();
  queued.started_at.reset();
  queued.completed_at.reset();
  jobs.push_back(queued);

  auto processing = queued;
  processing.status = job_status::processing;
  processing.progress = 0.1;
  processing.started_at = from_unix_ms(1763720130456);
  processing.init_image = "file_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  jobs.push_back(processing);
  processing.progress = 1.0 / 3.0;
  jobs.push_back(processing);

  jobs.push_back(succeeded_job());
  auto no_expiry = succeeded_job();
  no_expiry.outputs_expire_at.reset(); // never written so: no URLs
  jobs.push_back(no_expiry);

  auto video = succeeded_job();
  video.id = "vid_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  video.kind = job_kind::video;
  video.num_outputs = 1;
  video.duration_seconds = 4;
  video.fps = 24;
  video.outputs = {{"video/mp4", 171234, 768, 432, std::string(64, 'c')}};
  video.loras = {{"lora_01C", "film-grain", -2.0}, {"lora_01D", "dusk", 1e-7}, {"lora_01E", "odd", 2.2e85}};
  jobs.push_back(video);

  auto failed = video;
  failed.status = job_status::failed;
  failed.cost_status = hold_status::refunded;
  failed.progress = 0.25;
  failed.outputs.clear();
  failed.outputs_expire_at.reset();
  failed.failure = job_failure{"provider_error", "the back end failed: " + awkward};
  jobs.push_back(failed);

  for (auto s : {job_status::cancelled, job_status::expired, job_status::moderation_rejected}) {
    auto ended = queued;
    ended.status = s;
    ended.cost_status = hold_status::refunded;
    ended.completed_at = from_unix_ms(1763720139000);
    if (s == job_status::expired)
      ended.failure = job_failure{"queue_expired", "no worker took it in time"};
    jobs.push_back(ended);
  }

  auto odd = succeeded_job();
  odd.prompt = awkward;
  odd.negative_prompt = "";
  odd.metadata = {{"", ""}, {"k\"ey", awkward}, {awkward, "v"}, {"z", "last"}};
  odd.loras.clear();
  odd.seed = std::numeric_limits<uint32_t>::max();
  odd.credits = std::numeric_limits<int64_t>::min();
  odd.width = std::numeric_limits<int>::max();
  odd.height = std::numeric_limits<int>::min();
  odd.outputs.push_back({"image/png", std::numeric_limits<uint64_t>::max(), 0, 0, ""});
  jobs.push_back(odd);
  return jobs;
}

// Many more, drawn from a fixed seed: every field varied on its own, the
// strings made of pieces JSON escapes (or must not), the numbers from their
// edges and from anywhere between. All of it valid UTF-8, so it parses back.
class job_maker {
public:
  job_record next() {
    job_record j;
    j.kind = pick({job_kind::image, job_kind::video});
    j.id = std::string{id_prefix(j.kind)} + "_" + text();
    j.team_id = text();
    j.status = pick({job_status::queued, job_status::processing, job_status::succeeded, job_status::failed,
                     job_status::cancelled, job_status::expired, job_status::moderation_rejected});
    j.prompt = text();
    j.negative_prompt = text();
    j.width = small_int();
    j.height = small_int();
    j.num_outputs = small_int();
    j.seed = pick<uint32_t>({0, 1, 7, std::numeric_limits<uint32_t>::max(), static_cast<uint32_t>(gen_())});
    j.steps = small_int();
    j.duration_seconds = small_int();
    j.fps = small_int();
    for (auto n = below(4); n > 0; --n)
      j.loras.push_back({text(), text(), number()});
    j.selection = pick({lora_selection::requested, lora_selection::automatic, lora_selection::none});
    if (below(2))
      j.init_image = text();
    for (auto n = below(5); n > 0; --n)
      j.metadata[text()] = text();
    j.api_version = pick<std::string>({"2026-01-15", "2026-09-01", ""});
    j.credits = pick<int64_t>({0, -5, 80, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                               static_cast<int64_t>(gen_())});
    j.cost_status = pick({hold_status::held, hold_status::charged, hold_status::refunded});
    j.progress = number();
    for (auto n = below(5); n > 0; --n)
      j.outputs.push_back({text(), pick<uint64_t>({0, 1000, std::numeric_limits<uint64_t>::max(), gen_()}),
                           small_int(), small_int(), text()});
    if (below(4) != 0)
      j.outputs_expire_at = time();
    if (below(2))
      j.failure = job_failure{text(), text()};
    j.created_at = time();
    if (below(2))
      j.started_at = time();
    if (below(2))
      j.completed_at = time();
    return j;
  }

private:
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(gen_() % n); }

  template <class T>
  T pick(std::initializer_list<T> choices) {
    return *(choices.begin() + below(choices.size()));
  }

  int small_int() {
    return pick<int>({0, 1, 4, 24, 30, 512, 768, 4096, -1, std::numeric_limits<int>::max(),
                      std::numeric_limits<int>::min(), static_cast<int>(gen_())});
  }

  double number() {
    std::uniform_real_distribution<double> unit{0, 1};
    return pick<double>({0.0, -0.0, 1.0, 0.5, 0.1, 1.0 / 3.0, 1e-7, 5e-324, 8.999e15, 9e15, 9.1e15, -1e300, 2.2e85,
                         1e21, std::numeric_limits<double>::max(), unit(gen_), unit(gen_) * 1e6,
                         static_cast<double>(static_cast<int64_t>(gen_() % 2000000) - 1000000)});
  }

  std::string text() {
    static const std::vector<std::string> pieces{"",   "a",   "plain words", "\"", "\\", "/",   "\n", "\t",
                                                 "\r", "\b",  "\f",          "\x01", "\x1f", "\x7f", "é", "水",
                                                 "🌊", "\u2028", "</script>",  "{\"k\":[1]}", std::string(1, '\0'),
                                                 std::string(300, 'x')};
    std::string s;
    for (auto n = below(6); n > 0; --n)
      s += pieces[below(pieces.size())];
    return s;
  }

  svc::core::time_point time() {
    // From the epoch to 2100, in milliseconds.
    return from_unix_ms(static_cast<int64_t>(gen_() % 4'102'444'800'000ull));
  }

  std::mt19937_64 gen_{20261127};
};

// The three renderings of one job agree: the written text is byte for byte
// the old tree's serialization, and the tree is the old tree kind for kind.
void check_renderings(const job_record& job) {
  auto reference = reference_job_view(job, signer);
  auto expected = json::serialize(reference);
  std::string text = "[";  // appended, not assigned
  write_job_view(text, job, signer);
  BOOST_TEST(text.front() == '[');
  BOOST_TEST(text.substr(1) == expected);
  BOOST_TEST(svc::test::json_identical(job_view(job, signer), reference));
}

} // namespace

BOOST_AUTO_TEST_CASE(the_direct_text_equals_the_tree_rendering_byte_for_byte) {
  for (auto& job : every_kind_of_job())
    BOOST_TEST_CONTEXT(to_string(job.status) << " " << job.id) { check_renderings(job); }
}

BOOST_AUTO_TEST_CASE(bytes_that_are_not_utf8_pass_through_as_before) {
  auto j = succeeded_job();
  j.prompt = not_utf8;
  j.metadata = {{not_utf8, not_utf8}};
  j.failure = job_failure{not_utf8, not_utf8};
  check_renderings(j);
}

BOOST_AUTO_TEST_CASE(a_thousand_varied_jobs_render_alike_and_parse_back) {
  job_maker maker;
  for (int i = 0; i < 1000; ++i) {
    auto job = maker.next();
    BOOST_TEST_CONTEXT("job " << i << " " << to_string(job.status) << " " << to_string(job.kind)) {
      check_renderings(job);
      // And the text is JSON that reads back as the view, every escape undone.
      std::string text;
      write_job_view(text, job, signer);
      json::error_code ec;
      auto back = json::parse(text, ec);
      BOOST_REQUIRE_MESSAGE(!ec, ec.message());
      BOOST_TEST(svc::test::json_reads_back(back, reference_job_view(job, signer)));
      BOOST_TEST(back.as_object().at("prompt").as_string() == job.prompt);
      for (auto& [k, v] : job.metadata)
        BOOST_TEST(back.as_object().at("metadata").as_object().at(k).as_string() == v);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
