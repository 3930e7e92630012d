// Uploads cannot hold the upload slots for long: a body slower than
// --upload-min-bytes per --upload-rate-window (after the first window), or
// not complete within --upload-deadline, is answered 408 upload_too_slow and
// its connection closed; and one team may hold at most half of --max-uploads
// (429 too_many_uploads past it), so others can still upload.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <string>

#include "support/contract_guard.hpp"
#include "support/file_uploads.hpp"
#include "support/json_util.hpp"
#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_upload_limits)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct short_rate_window : server_fixture {
  short_rate_window()
    : server_fixture({"--upload-rate-window", "300ms", "--upload-min-bytes", "65536", "--max-uploads", "1"}) {}
};

struct one_second_uploads : server_fixture {
  one_second_uploads() : server_fixture({"--upload-deadline", "1s"}) {}
};

struct four_upload_slots : server_fixture {
  four_upload_slots() : server_fixture({"--max-uploads", "4"}) {}
};

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The head of an upload of `length` body bytes.
std::string upload_head(const std::string& key, std::size_t length, const std::string& more = {}) {
  return "POST /v1/files HTTP/1.1\r\nHost: x\r\nX-Api-Key: " + key + "\r\nContent-Type: multipart/form-data; boundary="
         + test_boundary + "\r\nContent-Length: " + std::to_string(length) + "\r\n" + more + "\r\n";
}

// A form whose file part is `size` bytes (a PNG, then padding).
std::string big_form(std::size_t size) {
  auto png = test_image("tiny.png");
  return multipart_body({{"file", png + std::string(size - png.size(), '\0'), {}, {}}, {"purpose", "init_image", {}, {}}});
}

// Sends `body` piece by piece every `gap` until the server answers or
// closes; returns what it sent back (and whether it closed) within `timeout`.
read_result send_slowly(raw_connection& conn, const std::string& body, std::size_t piece,
                        std::chrono::milliseconds gap, std::chrono::milliseconds timeout) {
  read_result got;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (std::size_t at = 0; at < body.size() && std::chrono::steady_clock::now() < deadline; at += piece) {
    if (!conn.send(body.substr(at, piece)))
      return {got.data, true};
    got = conn.read_some(gap);
    if (!got.data.empty() || got.closed)
      break;
  }
  auto rest = conn.read_until_close(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
  return {got.data + rest.data, rest.closed};
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_stalled_upload_is_answered_408_and_frees_its_slot, short_rate_window) {
  auto t = create_team_with_keys();
  auto body = big_form(200000);
  auto started = std::chrono::steady_clock::now();
  raw_connection stalled{svcd.api_url()};
  BOOST_REQUIRE(stalled.send(upload_head(t.write.key, body.size()) + body.substr(0, 1024)));
  auto got = stalled.read_until_close(5s);
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST(got.closed);
  BOOST_TEST(starts_with(got.data, "HTTP/1.1 408"), got.data.substr(0, 300));
  BOOST_TEST(got.data.find("\"upload_too_slow\"") != std::string::npos, got.data);
  BOOST_TEST(got.data.find("every 300ms must bring 65536 bytes") != std::string::npos, got.data);
  check_raw_answer_against_contract("POST", "/v1/files", got.data);
  BOOST_TEST(took >= 500ms, "the first window is free, the second must bring the bytes");
  auto c = api();
  BOOST_TEST(wait_until([&] { return upload_file(c, t.write.key, test_image("tiny.png")).status == 201; }, 3s, 50ms),
             "the only upload slot is free again");
}

BOOST_FIXTURE_TEST_CASE(a_trickle_under_the_minimum_rate_is_cut_off, short_rate_window) {
  auto t = create_team_with_keys();
  auto body = big_form(1000000);
  raw_connection trickle{svcd.api_url()};
  BOOST_REQUIRE(trickle.send(upload_head(t.write.key, body.size())));
  // 1 KiB per 50 ms is 20 KiB/s, under 64 KiB per 300 ms.
  auto got = send_slowly(trickle, body, 1024, 50ms, 4s);
  BOOST_TEST(got.closed, "the connection is closed while the client still sends");
  if (!got.data.empty())
    BOOST_TEST(starts_with(got.data, "HTTP/1.1 408"), got.data.substr(0, 300));
}

BOOST_FIXTURE_TEST_CASE(an_upload_longer_than_the_deadline_is_cut_off, one_second_uploads) {
  auto t = create_team_with_keys();
  auto body = big_form(19 * 1024 * 1024);
  auto started = std::chrono::steady_clock::now();
  raw_connection endless{svcd.api_url()};
  BOOST_REQUIRE(endless.send(upload_head(t.write.key, body.size())));
  // 64 KiB per 20 ms keeps well above the rate, but needs six seconds.
  auto got = send_slowly(endless, body, 64 * 1024, 20ms, 5s);
  auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST(got.closed);
  BOOST_TEST(took >= 1s);
  if (!got.data.empty())
    BOOST_TEST(starts_with(got.data, "HTTP/1.1 408"), got.data.substr(0, 300));
}

BOOST_FIXTURE_TEST_CASE(one_team_holds_at_most_half_of_the_upload_slots, four_upload_slots) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  auto body = big_form(200000);
  raw_connection first{svcd.api_url()}, second{svcd.api_url()};
  for (auto* conn : {&first, &second}) {
    BOOST_REQUIRE(conn->send(upload_head(a.write.key, body.size(), "Expect: 100-continue\r\n")));
    // 100 Continue comes once the handler holds a slot and reads the body.
    BOOST_REQUIRE(starts_with(conn->read_some(5s).data, "HTTP/1.1 100 Continue"));
  }
  auto c = api();
  auto third = upload_file(c, a.write.key, test_image("tiny.png"));
  BOOST_TEST(is_error(third, 429, "too_many_uploads"), third.summary());
  BOOST_TEST(json_str(third.json(), "error.type") == "rate_limit");
  BOOST_TEST(third.header_or_empty("Retry-After") == "1");
  auto other_team = upload_file(c, b.write.key, test_image("tiny.png"));
  BOOST_TEST(other_team.status == 201, other_team.summary());
}

BOOST_AUTO_TEST_SUITE_END()
