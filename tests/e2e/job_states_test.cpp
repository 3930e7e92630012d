// Terminal states other than success and cancel: `expired` (still queued
// after --queue-ttl) and `moderation_rejected` (prompt on the built-in list
// or on a --moderation-words file); both refund the hold and render nothing.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_job_states)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// One worker busy 10 s per job and a 1 s queue TTL: a second job expires.
struct short_queue_ttl : server_fixture {
  short_queue_ttl() : server_fixture({"--workers", "1", "--render-delay", "10s", "--queue-ttl", "1s"}) {}
};

// One worker busy 10 s per job: its two slots (one rendering, one next) fill at once.
struct slow_worker : server_fixture {
  slow_worker() : server_fixture({"--workers", "1", "--render-delay", "10s"}) {}
};

// Writes a moderation list into a fresh temp dir; removed with the fixture.
std::string write_words_file() {
  auto dir = make_temp_dir("svc-e2e-words-");
  auto path = dir + "/words.txt";
  std::ofstream out(path);
  out << "# custom list for the e2e tests\npurple elephant\nforbidden\n";
  return path;
}

struct custom_words : server_fixture {
  custom_words() : server_fixture({"--moderation-words", words_file = write_words_file()}) {}
  ~custom_words() {
    std::remove(words_file.c_str());
    std::remove(words_file.substr(0, words_file.rfind('/')).c_str());
  }
  // Static: it is set while the base class is being constructed.
  static inline std::string words_file;
};

// Checks a job that ended without rendering and refunded its hold.
void check_refunded_end(const boost::json::value& job, const std::string& status, const std::string& failure_code) {
  BOOST_TEST(json_str(job, "status") == status, job);
  BOOST_TEST(json_str(job, "cost.status") == "refunded");
  BOOST_TEST(json_str(job, "failure.code") == failure_code);
  BOOST_TEST(!json_str(job, "failure.message").empty());
  BOOST_TEST(json_size(job, "output_urls") == 0);
  BOOST_TEST(json_size(job, "outputs") == 0);
  BOOST_TEST(json_is_null(job, "outputs_expire_at"));
  BOOST_TEST(json_is_null(job, "started_at"), "it never started");
  BOOST_TEST(parse_iso8601_ms(json_str(job, "completed_at")) > 0, json_str(job, "completed_at"));
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_job_queued_past_the_ttl_expires_and_is_refunded, short_queue_ttl) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto first = create_image_ok(c, t.write.key, image_body("first in line"));
  auto first_id = json_str(first, "id");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, first_id, "processing"), "status") == "processing");
  auto second = create_image_ok(c, t.write.key, image_body("second in line"));
  auto second_id = json_str(second, "id");

  auto ended = wait_terminal(c, t.read.key, second_id, 8s);
  check_refunded_end(ended, "expired", "queue_expired");
  auto waited = parse_iso8601_ms(json_str(ended, "completed_at")) - parse_iso8601_ms(json_str(ended, "created_at"));
  BOOST_TEST(waited >= 1000, "expired after " << waited << " ms");
  BOOST_TEST(waited < 5000, "expired after " << waited << " ms");

  BOOST_TEST(json_str(get_image(c, t.read.key, first_id), "status") == "processing", "a running job never expires");
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.held == *json_int(first, "cost.credits"), "only the running job holds credits");
  BOOST_TEST(b.available == 1000 - *json_int(first, "cost.credits"));
  BOOST_TEST(list_image_ids(c, t.read.key, "status=expired") == std::vector<std::string>{second_id});
  auto cancel = c.request("POST", "/v1/images/" + second_id + "/cancel", with_key(t.write.key));
  BOOST_TEST(is_error(cancel, 409, "invalid_state"), cancel.summary());

  BOOST_TEST(c.request("POST", "/v1/images/" + first_id + "/cancel", with_key(t.write.key)).status == 200);
  b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000);
  BOOST_TEST(b.held == 0);
}

BOOST_FIXTURE_TEST_CASE(a_queued_job_shows_its_place_and_when_it_should_start, slow_worker) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i)
    ids.push_back(json_str(create_image_ok(c, t.write.key, image_body("a box " + std::to_string(i))), "id"));
  auto before = unix_now() * 1000 - 1000;
  auto third = c.get("/v1/images/" + ids[2], with_key(t.read.key)).json();
  auto fourth = c.get("/v1/images/" + ids[3], with_key(t.read.key)).json();
  BOOST_TEST(json_str(third, "status") == "queued", third);
  BOOST_TEST(json_int(third, "queue_position") == 1, "the first two hold the worker's two slots: " << third);
  BOOST_TEST(json_int(fourth, "queue_position") == 2, fourth);
  auto third_start = parse_iso8601_ms(json_str(third, "estimated_start_at"));
  auto fourth_start = parse_iso8601_ms(json_str(fourth, "estimated_start_at"));
  BOOST_TEST(third_start >= before, third);
  BOOST_TEST(fourth_start >= third_start, "a job further back starts no earlier");
  auto first = c.get("/v1/images/" + ids[0], with_key(t.read.key)).json();
  BOOST_TEST(!first.as_object().contains("queue_position"), "a job that left the queue has no place: " << first);
  BOOST_TEST(!first.as_object().contains("estimated_start_at"));
  BOOST_REQUIRE(c.request("POST", "/v1/images/" + ids[2] + "/cancel", with_key(t.write.key)).status == 200);
  BOOST_TEST(wait_until([&] { return json_int(c.get("/v1/images/" + ids[3], with_key(t.read.key)).json(), "queue_position") == 1; }, 5s),
             "it moves up when a job ahead leaves");
  for (auto& id : ids)
    c.request("POST", "/v1/images/" + id + "/cancel", with_key(t.write.key));
}

BOOST_FIXTURE_TEST_CASE(prompts_on_the_builtin_list_are_rejected_and_refunded, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  for (std::string prompt : {"a GORE scene", "the snuff   film poster", "gory, gruesome details"}) {
    BOOST_TEST_CONTEXT(prompt) {
      auto created = create_image(c, t.write.key, image_body(prompt));
      BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
      auto ended = wait_terminal(c, t.read.key, json_str(created.json(), "id"), 10s);
      check_refunded_end(ended, "moderation_rejected", "moderation_rejected");
    }
  }
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000);
  BOOST_TEST(b.held == 0);

  // Hidden spellings and the negative prompt are checked too.
  auto negative = image_body("a quiet harbour");
  negative["negative_prompt"] = "gore";
  auto zero_width = image_body("a g\u200Bore scene");
  auto full_width = image_body("\uFF47\uFF4F\uFF52\uFF45");
  for (auto& body : {negative, zero_width, full_width}) {
    auto created = create_image(c, t.write.key, body);
    BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
    auto ended = wait_terminal(c, t.read.key, json_str(created.json(), "id"), 10s);
    check_refunded_end(ended, "moderation_rejected", "moderation_rejected");
  }
  BOOST_TEST(list_image_ids(c, t.read.key, "status=moderation_rejected").size() == 6u);

  // Whole words only: a longer word containing one passes.
  auto fine = create_image_ok(c, t.write.key, image_body("a gorilla in the mist"));
  BOOST_TEST(json_str(wait_terminal(c, t.read.key, json_str(fine, "id")), "status") == "succeeded");
  auto usage = c.get("/v1/usage", with_key(t.read.key)).json();
  BOOST_TEST(json_int(usage, "total.images") == 1, "rejected jobs are not usage");
}

BOOST_FIXTURE_TEST_CASE(a_moderation_words_file_replaces_the_builtin_list, custom_words) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto rejected = create_image_ok(c, t.write.key, image_body("A Purple   Elephant dancing"));
  check_refunded_end(wait_terminal(c, t.read.key, json_str(rejected, "id"), 10s), "moderation_rejected",
                     "moderation_rejected");
  auto word = create_image_ok(c, t.write.key, image_body("this is Forbidden!"));
  BOOST_TEST(json_str(wait_terminal(c, t.read.key, json_str(word, "id"), 10s), "status") == "moderation_rejected");
  // Not on the custom list: neither other phrases of its words nor the built-in terms.
  for (std::string prompt : {"a purple hat on an elephant", "gore"}) {
    BOOST_TEST_CONTEXT(prompt) {
      auto ok = create_image_ok(c, t.write.key, image_body(prompt));
      BOOST_TEST(json_str(wait_terminal(c, t.read.key, json_str(ok, "id")), "status") == "succeeded");
    }
  }
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000 - 2 * 3, "only the two rendered jobs are charged");
  BOOST_TEST(b.held == 0);
}

BOOST_AUTO_TEST_CASE(an_unreadable_moderation_file_stops_startup) {
  std::vector<std::string> args{"--moderation-words", "/nonexistent/words.txt"};
  BOOST_CHECK_THROW(svcd_process{args}, std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
