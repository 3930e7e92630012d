// Signed output URLs, GET|HEAD /v1/outputs/{id}/{index}?exp=&sig=: any
// change to the id, index, exp or sig is 403 invalid_signature; with a short
// --output-ttl the URL answers 410 url_expired after exp and the bytes under
// DATA_DIR/blobs/outputs/ are deleted.
#include <boost/test/unit_test.hpp>

#include <cctype>
#include <chrono>
#include <string>
#include <sys/stat.h>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_outputs)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct output_ttl_2s : server_fixture {
  output_ttl_2s() : server_fixture({"--output-ttl", "2s"}) {}
};

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

// The parts of `/v1/outputs/{id}/{index}?exp=E&sig=S`.
struct url_parts {
  std::string id, index, exp, sig;

  std::string target() const { return "/v1/outputs/" + id + "/" + index + "?exp=" + exp + "&sig=" + sig; }
};

url_parts split_output_url(const std::string& url) {
  auto t = target_of(url);
  url_parts p;
  auto rest = t.substr(std::string{"/v1/outputs/"}.size());
  auto slash = rest.find('/');
  auto q = rest.find('?');
  p.id = rest.substr(0, slash);
  p.index = rest.substr(slash + 1, q - slash - 1);
  auto query = rest.substr(q + 1);
  auto amp = query.find('&');
  p.exp = query.substr(4, amp - 4); // after "exp="
  p.sig = query.substr(amp + 5);    // after "&sig="
  return p;
}

// A finished job's record; requires success.
boost::json::value finished_job(const team_keys& t, http_client& c, int outputs = 1) {
  auto body = image_body();
  body["num_outputs"] = outputs;
  auto done = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, body), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  return done;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(tampered_urls_are_403_invalid_signature, server_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  auto job = finished_job(t, c);
  auto other = finished_job(t, c);
  auto url = json_str(job, "output_urls.0");
  auto p = split_output_url(url);
  BOOST_REQUIRE_MESSAGE(p.target() == target_of(url), p.target() << " vs " << url);
  BOOST_REQUIRE(p.sig.size() == 64);
  http_client anonymous{svcd.api_url()};
  auto genuine = anonymous.get(p.target());
  BOOST_REQUIRE(genuine.status == 200);
  // The bytes are what their Content-Type says, never sniffed into a page.
  BOOST_TEST(genuine.header_or_empty("X-Content-Type-Options") == "nosniff");

  auto flip = [](std::string s) {
    s.back() = s.back() == '0' ? '1' : '0';
    return s;
  };
  auto upper = [](std::string s) {
    for (auto& ch : s)
      ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
  };
  auto with = [&](auto change) {
    auto q = p;
    change(q);
    return q.target();
  };
  std::string targets[] = {
    with([&](url_parts& q) { q.sig = flip(q.sig); }),
    with([&](url_parts& q) { q.sig = upper(q.sig); }),
    with([&](url_parts& q) { q.sig = q.sig.substr(0, 63); }),
    with([&](url_parts& q) { q.sig = ""; }),
    with([&](url_parts& q) { q.exp = std::to_string(std::stoll(q.exp) + 1); }),
    with([&](url_parts& q) { q.exp = std::to_string(std::stoll(q.exp) + 86400 * 365); }),
    with([&](url_parts& q) { q.exp = "0" + q.exp; }),
    with([&](url_parts& q) { q.exp = ""; }),
    with([&](url_parts& q) { q.index = "1"; }),
    with([&](url_parts& q) { q.id = json_str(other, "id"); }),
    with([&](url_parts& q) { q.id = "img_00000000000000000000000000"; }),
    "/v1/outputs/" + p.id + "/" + p.index + "?sig=" + p.sig,
    "/v1/outputs/" + p.id + "/" + p.index + "?exp=" + p.exp,
    "/v1/outputs/" + p.id + "/" + p.index,
  };
  for (auto& target : targets) {
    BOOST_TEST_CONTEXT(target) {
      auto r = anonymous.get(target);
      BOOST_TEST(is_error(r, 403, "invalid_signature"), r.summary());
      BOOST_TEST(json_str(r.json(), "error.type") == "permission");
      BOOST_TEST(r.header_or_empty("ETag").empty());
      auto head = anonymous.request("HEAD", target);
      BOOST_TEST(head.status == 403);
      BOOST_TEST(head.body.empty());
      // A key does not stand in for the signature.
      auto keyed = anonymous.get(target, with_key(t.read.key));
      BOOST_TEST(is_error(keyed, 403, "invalid_signature"), keyed.summary());
    }
  }
  BOOST_TEST(anonymous.get(p.target()).status == 200, "the genuine URL still works");
}

BOOST_FIXTURE_TEST_CASE(expired_urls_are_410_and_the_bytes_are_deleted, output_ttl_2s) {
  auto t = create_team_with_keys();
  auto c = api();
  auto job = finished_job(t, c, 2);
  auto id = json_str(job, "id");
  auto p = split_output_url(json_str(job, "output_urls.0"));
  auto exp = std::stoll(p.exp);
  auto expire_at = parse_iso8601_ms(json_str(job, "outputs_expire_at"));
  BOOST_TEST(expire_at - parse_iso8601_ms(json_str(job, "completed_at")) == 2000);
  BOOST_TEST(exp == expire_at / 1000, "exp is outputs_expire_at in whole seconds");
  std::string blobs[] = {svcd.data_dir() + "/blobs/outputs/" + id + ".0.png",
                         svcd.data_dir() + "/blobs/outputs/" + id + ".1.png"};
  for (auto& b : blobs)
    BOOST_TEST(file_exists(b), b);

  http_client anonymous{svcd.api_url()};
  if (now_ms() < exp * 1000 - 300) {
    auto fresh = anonymous.get(p.target());
    BOOST_TEST(fresh.status == 200, fresh.summary());
  } else {
    BOOST_TEST_MESSAGE("too late for the before-expiry download; skipped");
  }

  response last;
  bool gone = wait_until(
    [&] {
      last = anonymous.get(p.target());
      return last.status != 200;
    },
    10s, 50ms);
  BOOST_REQUIRE_MESSAGE(gone, "still served 10 s later");
  BOOST_TEST(is_error(last, 410, "url_expired"), last.summary());
  BOOST_TEST(now_ms() >= exp * 1000, "410 before exp");
  BOOST_TEST(anonymous.request("HEAD", p.target()).status == 410);
  auto second = anonymous.get(target_of(json_str(job, "output_urls.1")));
  BOOST_TEST(is_error(second, 410, "url_expired"), second.summary());
  // The signature is still checked first.
  auto tampered = p;
  tampered.exp = std::to_string(exp + 3600);
  BOOST_TEST(is_error(anonymous.get(tampered.target()), 403, "invalid_signature"));

  for (auto& b : blobs)
    BOOST_TEST(wait_until([&] { return !file_exists(b); }, 10s, 50ms), b << " not deleted");
  // The record stays readable.
  BOOST_TEST(json_str(get_image(c, t.read.key, id), "status") == "succeeded");
}

BOOST_AUTO_TEST_SUITE_END()
