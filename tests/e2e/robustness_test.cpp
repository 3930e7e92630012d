// The public listener under hostile or unusual clients: garbage bytes,
// oversized headers, slowloris, deep pipelining; and a clean SIGTERM with
// connections still open. After each abuse, other clients are served.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "support/contract_guard.hpp"
#include "support/json_util.hpp"
#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_robustness)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct short_read_timeout : server_fixture {
  short_read_timeout() : server_fixture({"--read-timeout", "1s"}) {}
};

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

} // namespace

BOOST_FIXTURE_TEST_SUITE(robustness, short_read_timeout)

BOOST_AUTO_TEST_CASE(garbage_bytes_get_400_or_close) {
  auto t = create_team_with_keys();
  static const char tls_hello[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n";
  for (std::string garbage : {std::string{tls_hello, sizeof tls_hello - 1},
                              std::string{"NOT HTTP AT ALL\r\n\r\n"}, std::string{"GET / HTTP/9.9\r\n\r\n"},
                              std::string{"GET /v1/team HTTP/1.1\r\nBad Header Line\r\n\r\n"}}) {
    BOOST_TEST_CONTEXT("garbage " << garbage.substr(0, 20)) {
      raw_connection conn{svcd.api_url()};
      conn.send(garbage);
      auto got = conn.read_until_close(5s);
      BOOST_TEST(got.closed, "connection closed after garbage; got " << got.data.substr(0, 200));
      if (!got.data.empty()) {
        BOOST_TEST(starts_with(got.data, "HTTP/1.1 400"), got.data.substr(0, 200));
        BOOST_TEST(got.data.find("\"malformed_request\"") != std::string::npos, got.data);
        check_raw_answer_against_contract("GET", "*", got.data); // no request line svcd could route
      }
      check_still_serving("/v1/team", t.read.key);
    }
  }
}

BOOST_AUTO_TEST_CASE(oversized_headers_get_431_or_close) {
  auto t = create_team_with_keys();
  raw_connection conn{svcd.api_url()};
  conn.send("GET /v1/team HTTP/1.1\r\nHost: x\r\nX-Api-Key: " + t.read.key + "\r\nX-Fill: " + std::string(64 * 1024, 'a')
            + "\r\n\r\n");
  auto got = conn.read_until_close(5s);
  BOOST_TEST(got.closed, "connection closed after 64 KiB of headers");
  if (!got.data.empty()) {
    BOOST_TEST(starts_with(got.data, "HTTP/1.1 431"), got.data.substr(0, 200));
    BOOST_TEST(got.data.find("headers_too_large") != std::string::npos);
    check_raw_answer_against_contract("GET", "/v1/team", got.data);
  }
  check_still_serving("/v1/team", t.read.key);

  // Well under the 16 KiB limit is fine.
  auto c = api();
  auto r = c.get("/v1/team", with_key(t.read.key, {{"X-Fill", std::string(8 * 1024, 'a')}}));
  BOOST_TEST(r.status == 200, r.summary());
}

BOOST_AUTO_TEST_CASE(body_limit_is_exactly_one_mebibyte) {
  auto t = create_team_with_keys();
  auto c = api();
  // 1 MiB exactly is read and parsed (refused for its unknown field, not its size).
  std::string head = R"({"balance_low_threshold": 1, "pad": ")";
  std::string exact = head + std::string(1024 * 1024 - head.size() - 2, 'x') + "\"}";
  BOOST_REQUIRE_EQUAL(exact.size(), 1024u * 1024u);
  auto r = c.request("PATCH", "/v1/team", with_key(t.full.key), exact);
  BOOST_TEST(is_error(r, 400, "unknown_parameter"), r.summary());
  auto over = c.request("PATCH", "/v1/team", with_key(t.full.key), exact + " ");
  BOOST_TEST(is_error(over, 413, "body_too_large"), over.summary());

  // A chunked body is limited the same way.
  raw_connection conn{svcd.api_url()};
  std::string chunked = "PATCH /v1/team HTTP/1.1\r\nHost: x\r\nX-Api-Key: " + t.full.key
                        + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 17; ++i)
    chunked += "10000\r\n" + std::string(0x10000, ' ') + "\r\n";
  chunked += "0\r\n\r\n";
  conn.send(chunked);
  auto got = conn.read_until_close(5s);
  BOOST_TEST(starts_with(got.data, "HTTP/1.1 413"), got.data.substr(0, 200));
  check_raw_answer_against_contract("PATCH", "/v1/team", got.data);
  check_still_serving("/v1/team", t.read.key);
}

BOOST_AUTO_TEST_CASE(a_refused_body_still_on_the_wire_does_not_reset_the_answer) {
  // The server answers 413 on the head and closes while the client is still
  // sending 3 MiB: closing with unread bytes would send a reset, which can
  // destroy the answer before the client reads it. The server must drain.
  auto t = create_team_with_keys();
  std::string body(3 * 1024 * 1024, ' ');
  std::string head = "PATCH /v1/team HTTP/1.1\r\nHost: x\r\nX-Api-Key: " + t.full.key
                     + "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size())
                     + "\r\n\r\n";
  for (int round = 0; round < 10; ++round) {
    BOOST_TEST_CONTEXT("round " << round) {
      raw_connection conn{svcd.api_url()};
      conn.send(head + body);
      auto got = conn.read_until_close(5s);
      BOOST_TEST(starts_with(got.data, "HTTP/1.1 413"), got.data.substr(0, 200));
      BOOST_TEST(got.data.find("\"body_too_large\"") != std::string::npos);
      check_raw_answer_against_contract("PATCH", "/v1/team", got.data);
    }
  }
  check_still_serving("/v1/team", t.read.key);
}

BOOST_AUTO_TEST_CASE(slowloris_is_closed_after_the_read_timeout) {
  auto t = create_team_with_keys();
  auto other = api();
  raw_connection idle{svcd.api_url()};
  raw_connection slow{svcd.api_url()};
  auto start = std::chrono::steady_clock::now();
  BOOST_REQUIRE(slow.send("GET /v1/team HTTP/1.1\r\nHost: x\r\n"));
  int served = 0;
  // Dribble one header byte per read window; serve another client meanwhile.
  while (!slow.closed() && std::chrono::steady_clock::now() - start < 8s) {
    slow.send("X");
    slow.read_some(200ms);
    auto r = other.get("/v1/team", with_key(t.read.key));
    BOOST_TEST(r.status == 200, r.summary());
    ++served;
  }
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  BOOST_TEST(slow.closed(), "slow connection still open after " << took.count() << " ms");
  BOOST_TEST(took >= 800ms, "closed after " << took.count() << " ms, before the read timeout");
  BOOST_TEST(served >= 2);

  // A connection that never sends anything is closed as well.
  auto idle_got = idle.read_until_close(4s);
  BOOST_TEST(idle_got.closed, "idle connection still open");
  check_still_serving("/v1/team", t.read.key);
}

BOOST_AUTO_TEST_CASE(two_hundred_pipelined_requests_answer_in_order) {
  auto t = create_team_with_keys();
  std::vector<request_spec> requests;
  for (int i = 0; i < 200; ++i) {
    if (i % 2 == 0)
      requests.push_back({"GET", "/nope/" + std::to_string(i), {}, ""});
    else
      requests.push_back(
        {"GET", "/v1/pricing", with_key(t.read.key, {{"Svc-Version", i % 4 == 1 ? "2026-01-15" : "2026-09-01"}}), ""});
  }
  auto c = api();
  auto responses = c.pipeline(requests);
  BOOST_REQUIRE_EQUAL(responses.size(), 200u);
  std::set<std::string> ids;
  for (int i = 0; i < 200; ++i) {
    auto& r = responses[static_cast<std::size_t>(i)];
    ids.insert(r.header_or_empty("Svc-Request-Id"));
    BOOST_TEST_CONTEXT("request " << i) {
      if (i % 2 == 0) {
        BOOST_TEST(is_error(r, 404, "route_not_found"), r.summary());
        BOOST_TEST(json_str(r.json(), "error.message").find("/nope/" + std::to_string(i)) != std::string::npos,
                   r.summary());
      } else {
        std::string version = i % 4 == 1 ? "2026-01-15" : "2026-09-01";
        BOOST_TEST(r.status == 200, r.summary());
        BOOST_TEST(r.header_or_empty("Svc-Version") == version);
        BOOST_TEST(json_str(r.json(), "api_version") == version);
      }
    }
  }
  BOOST_TEST(ids.size() == 200u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_CASE(sigterm_exits_0_with_open_connections, server_fixture) {
  // Default read timeout (30 s): idle connections must not hold up shutdown.
  auto t = create_team_with_keys();
  auto keep_alive = api();
  BOOST_TEST(keep_alive.get("/v1/team", with_key(t.read.key)).status == 200);
  raw_connection partial{svcd.api_url()};
  partial.send("GET /v1/team HTTP/1.1\r\nHost: x\r\n");
  raw_connection silent{svcd.api_url()};
  auto url = svcd.api_url();
  auto start = std::chrono::steady_clock::now();
  BOOST_TEST(svcd.stop() == 0);
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  BOOST_TEST(took <= 10000ms, "exit took " << took.count() << " ms");
  BOOST_CHECK_THROW(raw_connection{url}, std::exception);
}

BOOST_FIXTURE_TEST_CASE(acknowledged_writes_survive_sigkill, server_fixture) {
  auto t = create_team_with_keys(100);
  auto c = api();
  auto patched = c.request("PATCH", "/v1/team", with_key(t.full.key), R"({"balance_low_threshold": 77})");
  BOOST_REQUIRE_MESSAGE(patched.status == 200, patched.summary());
  ctl_ok({"credits", "add", "--team", t.id, "--amount", "23"});
  ctl_ok({"team", "limits", "--team", t.id, "--bucket", "reads", "--capacity", "999", "--per-minute", "99"});
  auto lora = ctl_ok({"lora", "add", "--slug", "e2e-durable", "--name", "Durable"});
  auto rotated = c.request("POST", "/v1/api_keys/" + t.read.id + "/rotate", with_key(t.full.key));
  BOOST_REQUIRE_MESSAGE(rotated.status == 200, rotated.summary());
  auto new_key = json_str(rotated.json(), "key");

  svcd.kill9();
  svcd.start();
  auto c2 = api();
  auto team = c2.get("/v1/team", with_key(new_key));
  BOOST_TEST(team.status == 200, team.summary());
  BOOST_TEST(json_int(team.json(), "balance_low_threshold") == 77);
  BOOST_TEST(json_int(team.json(), "rate_limit_overrides.reads.capacity") == 999);
  BOOST_TEST(json_int(c2.get("/v1/balance", with_key(new_key)).json(), "available") == 123);
  BOOST_TEST(c2.get("/v1/team", with_key(t.read.key)).status == 200, "old key within its 24 h grace");
  auto loras = c2.get("/v1/loras?limit=100", with_key(new_key));
  BOOST_TEST(loras.body.find(json_str(lora, "id")) != std::string::npos);
  auto keys = c2.get("/v1/api_keys?limit=100", with_key(t.full.key));
  BOOST_TEST(keys.body.find(json_str(rotated.json(), "previous_key.deactivate_at")) != std::string::npos,
             keys.summary());
}

BOOST_AUTO_TEST_SUITE_END()
