// The OpenAI-compatible images routes end to end. OpenAI's own Node SDK
// (examples/openai-sdk, the `openai` package pinned there) generates with the
// PNG inline and as signed URLs, edits an uploaded image and parses a refusal
// as its APIError; against renders slower than --openai-wait it gets the 504
// naming the job that runs on, and its own retries under an Idempotency-Key
// wait for one job. From C++: each request is an ordinary image job (listed,
// charged once), replays under a key, the images_post bucket, the errors in
// OpenAI's field names, and the answers for jobs that end without outputs.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <regex>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/output_bytes.hpp"
#include "support/process.hpp"
#include "support/script_run.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_openai_images)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::string sdk_script = std::string{SVC_EXAMPLES_DIR} + "/openai-sdk/images.mjs";

response post_generation(http_client& c, const std::string& key, const json::object& body, header_map more = {}) {
  more.emplace("Content-Type", "application/json");
  return c.request("POST", "/v1/images/generations", with_key(key, std::move(more)), json::serialize(body));
}

response post_edit(http_client& c, const std::string& key, const std::vector<form_part>& parts) {
  return c.request("POST", "/v1/images/edits", form_headers(key), multipart_body(parts));
}

form_part text_part(std::string name, std::string text) { return {std::move(name), std::move(text), {}, {}}; }

form_part image_part(std::string bytes) { return {"image", std::move(bytes), "in.png", "image/png"}; }

// Checks an answer carrying the PNG of each output inline, each `width`x`height`.
void check_inline_pngs(const response& r, long count, std::uint32_t width, std::uint32_t height) {
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto body = r.json();
  BOOST_TEST(json_int(body, "created") > 0);
  BOOST_REQUIRE_EQUAL(json_size(body, "data"), count);
  for (auto& item : body.at("data").as_array()) {
    auto bytes = base64_decode(json_str(item, "b64_json")).value_or("");
    auto size = png_dimensions(bytes);
    BOOST_REQUIRE_MESSAGE(size, "b64_json is no PNG");
    BOOST_TEST(size->width == width);
    BOOST_TEST(size->height == height);
  }
}

// A PNG fetched from a signed URL without a key.
void check_fetched_png(http_client& c, const std::string& url, std::uint32_t width, std::uint32_t height) {
  auto r = c.get(target_of(url));
  BOOST_REQUIRE_MESSAGE(r.status == 200, url << ": " << r.summary());
  BOOST_TEST(r.header_or_empty("Content-Type") == "image/png");
  auto size = png_dimensions(r.body);
  BOOST_REQUIRE_MESSAGE(size, url << " is no PNG");
  BOOST_TEST(size->width == width);
  BOOST_TEST(size->height == height);
}

// The ids the message of a 504 (or the SDK's print of it) names.
std::vector<std::string> image_ids_in(const std::string& text) {
  static const std::regex id{"img_[0-9A-HJKMNP-TV-Z]{26}"};
  std::vector<std::string> out;
  for (std::sregex_iterator it{text.begin(), text.end(), id}, end; it != end; ++it)
    out.push_back(it->str());
  return out;
}

// Renders outlast a short --openai-wait.
struct slow_renders : server_fixture {
  slow_renders() : server_fixture({"--openai-wait", "500ms", "--render-delay", "2s"}) {}
};

// One worker busy 10 s per job and a 1 s queue TTL: a second job expires.
struct one_busy_worker : server_fixture {
  one_busy_worker() : server_fixture({"--workers", "1", "--render-delay", "10s", "--queue-ttl", "1s"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(the_openai_sdk_generates_edits_and_parses_svc_errors, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto out_dir = make_temp_dir("svc-openai-sdk-");
  script_run run({}, "node", sdk_script, {svcd.api_url(), t.write.key, out_dir});
  BOOST_REQUIRE_MESSAGE(run.wait(120s) == 0, run.output());
  auto output = run.output();
  BOOST_TEST_MESSAGE(output);
  BOOST_TEST(output.find("generate b64_json: 1 image, PNG 320x256") != std::string::npos, output);
  BOOST_TEST(output.find("generate url: 2 images") != std::string::npos, output);
  BOOST_TEST(output.find("edit b64_json: 1 image, PNG 256x256") != std::string::npos, output);
  // The SDK's APIError carries the envelope's status, code, param and message.
  BOOST_TEST(output.find("unknown model: BadRequestError 400 invalid_parameter param=model: Invalid value for "
                         "'model': no model has this id (GET /v1/models lists them).")
               != std::string::npos,
             output);
  auto generated = png_dimensions(read_file(out_dir + "/generation.png"));
  BOOST_TEST_REQUIRE(generated.has_value());
  BOOST_TEST(generated->width == 320u);
  BOOST_TEST(generated->height == 256u);
  std::filesystem::remove_all(out_dir);

  // The URLs are the jobs' signed output URLs, fetched without a key.
  auto c = api();
  std::vector<std::string> urls;
  std::regex url_line{"\nurl: (\\S+)"};
  for (std::sregex_iterator it{output.begin(), output.end(), url_line}, end; it != end; ++it)
    urls.push_back((*it)[1].str());
  BOOST_REQUIRE_EQUAL(urls.size(), 2u);
  for (auto& url : urls)
    check_fetched_png(c, url, 256, 256);

  // Three ordinary image jobs (the refused model made none), charged; the
  // edit's image is the team's file and the job's init image.
  auto ids = list_image_ids(c, t.read.key);
  BOOST_REQUIRE_EQUAL(ids.size(), 3u);
  std::int64_t charged = 0;
  for (auto& id : ids) {
    auto job = get_image(c, t.read.key, id);
    BOOST_TEST(json_str(job, "status") == "succeeded", job);
    BOOST_TEST(json_str(job, "cost.status") == "charged", job);
    charged += json_int(job, "cost.credits").value_or(0);
  }
  auto edit = get_image(c, t.read.key, ids[0]);
  BOOST_TEST(json_str(edit, "prompt") == "the same lighthouse in snow");
  auto files = c.get("/v1/files", with_key(t.read.key)).json();
  BOOST_REQUIRE_EQUAL(json_size(files, "data"), 1);
  BOOST_TEST(json_str(edit, "init_image") == json_str(files, "data.0.id"));
  BOOST_TEST(json_str(files, "data.0.purpose") == "init_image");
  BOOST_TEST(json_int(get_image(c, t.read.key, ids[1]), "num_outputs") == 2);
  BOOST_TEST(json_str(get_image(c, t.read.key, ids[2]), "prompt") == "a lighthouse on a cliff at dusk");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000 - charged);
}

BOOST_FIXTURE_TEST_CASE(a_render_longer_than_the_wait_is_504_and_runs_on, slow_renders) {
  auto t = create_team_with_keys(1000);
  auto out_dir = make_temp_dir("svc-openai-sdk-");
  script_run run({}, "node", sdk_script, {svcd.api_url(), t.write.key, out_dir, "--slow-server"});
  BOOST_REQUIRE_MESSAGE(run.wait(120s) == 0, run.output());
  auto output = run.output();
  BOOST_TEST_MESSAGE(output);
  BOOST_TEST(output.find("timeout: InternalServerError 504 generation_timeout param=: The image img_")
               != std::string::npos,
             output);
  BOOST_TEST(output.find("retried with Idempotency-Key: 1 image, PNG 256x256") != std::string::npos, output);
  std::filesystem::remove_all(out_dir);

  // The job the 504 named was not cancelled: it succeeds and is charged. The
  // SDK's retries under one key made one more job, not one per attempt.
  auto c = api();
  auto named = image_ids_in(output.substr(output.find("timeout: ")));
  BOOST_REQUIRE(!named.empty());
  auto ended = wait_terminal(c, t.read.key, named[0]);
  BOOST_TEST(json_str(ended, "status") == "succeeded", ended);
  BOOST_TEST(json_str(ended, "cost.status") == "charged", ended);
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(a_504_says_whether_a_retry_is_safe_and_a_keyed_repeat_gets_the_outputs, slow_renders) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  json::object body{{"prompt", "a harbour at noon"}, {"size", "256x256"}, {"response_format", "b64_json"}};
  // Without a key a retry would pay for a second job: the SDKs are told not to.
  auto bare = post_generation(c, t.write.key, body);
  BOOST_REQUIRE(is_error(bare, 504, "generation_timeout"));
  BOOST_TEST(bare.header_or_empty("x-should-retry") == "false");
  BOOST_TEST(json_str(bare.json(), "error.type") == "internal");
  auto bare_ids = image_ids_in(json_str(bare.json(), "error.message"));
  BOOST_REQUIRE_EQUAL(bare_ids.size(), 2u); // the job, and the GET to poll it
  BOOST_TEST(bare_ids[0] == bare_ids[1]);

  auto keyed = post_generation(c, t.write.key, body, {{"Idempotency-Key", "harbour-1"}});
  BOOST_REQUIRE(is_error(keyed, 504, "generation_timeout"));
  BOOST_TEST(!keyed.header("x-should-retry").has_value());
  auto id = image_ids_in(json_str(keyed.json(), "error.message")).at(0);
  BOOST_TEST(id != bare_ids[0]);
  BOOST_TEST(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  auto repeat = post_generation(c, t.write.key, body, {{"Idempotency-Key", "harbour-1"}});
  check_inline_pngs(repeat, 1, 256, 256);
  BOOST_TEST(repeat.header_or_empty("Idempotent-Replayed") == "true");
  auto created_ms = parse_iso8601_ms(json_str(get_image(c, t.read.key, id), "created_at"));
  BOOST_TEST(json_int(repeat.json(), "created") == created_ms / 1000);
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u, "the repeat made no job");
}

BOOST_FIXTURE_TEST_CASE(a_repeat_under_its_key_is_the_same_job_charged_once, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  json::object body{{"prompt", "a red kite"}, {"size", "256x256"}, {"n", 2}};
  auto first = post_generation(c, t.write.key, body, {{"Idempotency-Key", "kite-1"}});
  BOOST_REQUIRE_MESSAGE(first.status == 200, first.summary());
  BOOST_TEST(!first.header("Idempotent-Replayed").has_value());
  BOOST_REQUIRE_EQUAL(json_size(first.json(), "data"), 2);
  auto balance = get_balance(c, t.read.key);

  auto second = post_generation(c, t.write.key, body, {{"Idempotency-Key", "kite-1"}});
  BOOST_REQUIRE_MESSAGE(second.status == 200, second.summary());
  BOOST_TEST(second.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(second.json() == first.json(), "the same job's same signed URLs");
  auto after = get_balance(c, t.read.key);
  BOOST_TEST(after.available == balance.available, "charged once");
  auto ids = list_image_ids(c, t.read.key);
  BOOST_REQUIRE_EQUAL(ids.size(), 1u);
  auto job = get_image(c, t.read.key, ids[0]);
  BOOST_TEST(json_str(first.json(), "data.0.url") == json_str(job, "output_urls.0"));
  BOOST_TEST(json_str(job, "cost.status") == "charged");
  BOOST_TEST(after.available == 1000 - json_int(job, "cost.credits").value_or(-1));

  // Another body under the key is 422; the key of POST /v1/images is its own.
  body["n"] = 1;
  BOOST_TEST(is_error(post_generation(c, t.write.key, body, {{"Idempotency-Key", "kite-1"}}), 422,
                      "idempotency_key_reused"));
  auto plain = create_image(c, t.write.key, image_body("a red kite"), {{"Idempotency-Key", "kite-1"}});
  BOOST_TEST(plain.status == 201, plain.summary());
  BOOST_TEST(!plain.header("Idempotent-Replayed").has_value());

  // An edit repeats only with the same image too.
  std::vector<form_part> parts{image_part(test_image("tiny.png")), text_part("prompt", "a kite in rain"),
                               text_part("size", "256x256")};
  auto keyed_form = [&](const std::vector<form_part>& p) {
    auto headers = form_headers(t.write.key);
    headers.emplace("Idempotency-Key", "kite-edit");
    return c.request("POST", "/v1/images/edits", headers, multipart_body(p));
  };
  auto edited = keyed_form(parts);
  BOOST_REQUIRE_MESSAGE(edited.status == 200, edited.summary());
  auto again = keyed_form(parts);
  BOOST_TEST(again.status == 200, again.summary());
  BOOST_TEST(again.header_or_empty("Idempotent-Replayed") == "true");
  parts[0] = image_part(test_image("tiny.webp"));
  BOOST_TEST(is_error(keyed_form(parts), 422, "idempotency_key_reused"));
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 3u);
}

BOOST_FIXTURE_TEST_CASE(both_routes_draw_from_the_images_post_bucket, server_fixture) {
  auto t = create_team_with_keys(1000);
  // A slow refill (1 per minute) makes the counts exact.
  ctl_ok({"team", "limits", "--team", t.id, "--bucket", "images_post", "--capacity", "2", "--per-minute", "1"});
  auto c = api();
  BOOST_TEST(create_image(c, t.write.key, image_body()).status == 201);
  auto generated = post_generation(c, t.write.key, {{"prompt", "a grey box"}, {"size", "256x256"}});
  BOOST_TEST(generated.status == 200, generated.summary());
  BOOST_TEST(header_int(generated, "X-RateLimit-Limit") == 2);
  BOOST_TEST(header_int(generated, "X-RateLimit-Remaining") == 0);
  auto refused = post_generation(c, t.write.key, {{"prompt", "a grey box"}, {"size", "256x256"}});
  BOOST_TEST(is_error(refused, 429, "too_many_requests"), refused.summary());
  BOOST_TEST(json_str(refused.json(), "error.message").find("'images_post'") != std::string::npos);
  auto edit = post_edit(c, t.write.key, {image_part(test_image("tiny.png")), text_part("prompt", "a grey box")});
  BOOST_TEST(is_error(edit, 429, "too_many_requests"), edit.summary());
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(refusals_name_the_openai_fields_and_create_nothing, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  struct refusal {
    json::object body;
    std::string param;
    std::string message; // a part of it
  };
  std::vector<refusal> refusals{
    {{{"prompt", "x"}, {"size", "100x100"}}, "size", "Invalid value for 'size' (width): must be a multiple of 64"},
    {{{"prompt", "x"}, {"size", "256x4096"}}, "size", "Invalid value for 'size' (height):"},
    {{{"prompt", "x"}, {"size", "large"}}, "size", "must be WIDTHxHEIGHT in pixels"},
    {{{"prompt", "x"}, {"size", 256}}, "size", "must be WIDTHxHEIGHT in pixels"},
    {{{"prompt", "x"}, {"n", 9}}, "n", "Invalid value for 'n':"},
    {{{"prompt", "x"}, {"response_format", "png"}}, "response_format", "must be url or b64_json"},
    {{{"prompt", "x"}, {"stream", true}}, "stream", "is not supported"},
    {{{"size", "256x256"}}, "prompt", "Invalid value for 'prompt':"},
    {{{"prompt", "x"}, {"model", "gpt-image-1"}}, "model", "no model has this id"},
  };
  for (auto& r : refusals) {
    BOOST_TEST_CONTEXT(json::serialize(r.body)) {
      auto answer = post_generation(c, t.write.key, r.body);
      BOOST_TEST(is_error(answer, 400, "invalid_parameter"), answer.summary());
      BOOST_TEST(json_str(answer.json(), "error.param") == r.param);
      BOOST_TEST(json_str(answer.json(), "error.message").find(r.message) != std::string::npos, answer.summary());
    }
  }
  BOOST_TEST(is_error(c.request("POST", "/v1/images/generations", with_key(t.write.key), "[1]"), 400, "invalid_body"));
  // Write scope, as POST /v1/images.
  BOOST_TEST(is_error(post_generation(c, t.read.key, {{"prompt", "x"}}), 403, "missing_scope"));
  BOOST_TEST(is_error(post_edit(c, t.read.key, {image_part(test_image("tiny.png"))}), 403, "missing_scope"));

  auto png = test_image("tiny.png");
  auto edit_refused = [&](const std::vector<form_part>& parts, int status, const std::string& code,
                          const std::string& param) {
    auto answer = post_edit(c, t.write.key, parts);
    BOOST_TEST(is_error(answer, status, code), answer.summary());
    BOOST_TEST(json_str(answer.json(), "error.param") == param, answer.summary());
  };
  edit_refused({text_part("prompt", "x")}, 400, "invalid_parameter", "image");
  edit_refused({image_part(png), image_part(png), text_part("prompt", "x")}, 400, "invalid_parameter", "image");
  edit_refused({image_part(png), {"mask", png, "m.png", "image/png"}, text_part("prompt", "x")}, 400,
               "invalid_parameter", "mask");
  edit_refused({image_part("just text"), text_part("prompt", "x")}, 415, "unsupported_media_type", "");
  edit_refused({image_part(png), text_part("prompt", "x"), text_part("n", "five")}, 400, "invalid_parameter", "n");
  edit_refused({image_part(png), text_part("prompt", "x"), text_part("prompt", "y")}, 400, "invalid_parameter",
               "prompt");
  auto json_edit = c.request("POST", "/v1/images/edits", with_key(t.write.key, {{"Content-Type", "application/json"}}),
                             R"({"prompt":"x"})");
  BOOST_TEST(is_error(json_edit, 415, "unsupported_media_type"), json_edit.summary());

  BOOST_TEST(list_image_ids(c, t.read.key).empty());
  BOOST_TEST(json_size(c.get("/v1/files", with_key(t.read.key)).json(), "data") == 0);
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_FIXTURE_TEST_CASE(a_prompt_refused_by_moderation_is_400_and_refunded, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto answer = post_generation(c, t.write.key, {{"prompt", "a GORE scene"}, {"size", "256x256"}});
  BOOST_TEST(is_error(answer, 400, "generation_rejected"), answer.summary());
  auto ids = list_image_ids(c, t.read.key);
  BOOST_REQUIRE_EQUAL(ids.size(), 1u);
  BOOST_TEST(json_str(answer.json(), "error.message").find(ids[0]) != std::string::npos);
  BOOST_TEST(json_str(get_image(c, t.read.key, ids[0]), "status") == "moderation_rejected");
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_FIXTURE_TEST_CASE(an_expired_job_is_502_and_a_cancelled_one_409, one_busy_worker) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  // The first request's job takes the only worker for 10 s.
  auto first = std::async(std::launch::async, [&] {
    auto other = api();
    other.set_timeout(60s);
    return post_generation(other, t.write.key, {{"prompt", "a long render"}, {"size", "256x256"}});
  });
  std::vector<std::string> ids;
  BOOST_REQUIRE(wait_until([&] { return !(ids = list_image_ids(c, t.read.key)).empty(); }, 10s, 50ms));
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, ids[0], "processing"), "status") == "processing");

  // Queued behind it past the queue TTL: expired, refunded.
  auto expired = post_generation(c, t.write.key, {{"prompt", "second in line"}, {"size", "256x256"}});
  BOOST_TEST(is_error(expired, 502, "generation_failed"), expired.summary());
  BOOST_TEST(json_str(expired.json(), "error.message").find("queue_expired") != std::string::npos, expired.summary());

  // Cancelled by the team while its request waits: no retry may render it anew.
  BOOST_TEST(c.request("POST", "/v1/images/" + ids[0] + "/cancel", with_key(t.write.key)).status == 200);
  auto cancelled = first.get();
  BOOST_TEST(is_error(cancelled, 409, "invalid_state"), cancelled.summary());
  BOOST_TEST(cancelled.header_or_empty("x-should-retry") == "false");
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u);
  BOOST_TEST(get_balance(c, t.read.key).available == 1000);
}

BOOST_AUTO_TEST_SUITE_END()
