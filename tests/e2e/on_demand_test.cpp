// What svcd loads only when it needs it: FFmpeg's libraries (and their ~130
// dependencies) wait for the first video or uploaded picture, libcurl (and
// its ~25) for the first mail over SMTP, the system's CA certificates for
// the first webhook delivery; a server that only renders images never
// carries them (bench/run-idle-bench shows the resident set this saves).
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <boost/json.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/smtp_relay.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_on_demand)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// Whether a file whose name contains `library` is mapped into `pid`.
bool maps_library(pid_t pid, const std::string& library) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  BOOST_REQUIRE(maps);
  std::string line;
  while (std::getline(maps, line))
    if (line.find(library) != std::string::npos)
      return true;
  return false;
}

json::value wait_video(http_client& c, const std::string& key, const std::string& id) {
  c.set_timeout(90s);
  auto r = c.get("/v1/videos/" + id, with_key(key, {{"Prefer", "wait=60"}}));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  return r.json();
}

// Started before svcd, which needs its address.
struct with_relay {
  smtp_relay relay{relay_behaviour::takes_mail};
};

// One failed delivery disables an endpoint, which mails the team's owner.
struct mail_fixture : with_relay, webhook_fixture {
  mail_fixture() : webhook_fixture({"--smtp", relay.address(), "--disable-failures", "1"}) {}
};

// OpenSSL reads the system store from SSL_CERT_FILE, set here (for svcd
// only) to a FIFO: opening it blocks until a writer comes, so an svcd that
// read the store at start would never get ready.
struct store_fifo {
  std::string dir = make_temp_dir("svc-e2e-store-");
  std::string path = dir + "/ca.pem";
  store_fifo() {
    if (::mkfifo(path.c_str(), 0600) != 0)
      throw std::runtime_error("mkfifo " + path + " failed");
    ::setenv("SSL_CERT_FILE", path.c_str(), 1);
  }
  ~store_fifo() {
    ::unsetenv("SSL_CERT_FILE");
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }

  // Writes `pem` into the FIFO once svcd opens it to read; false if it does
  // not within `within`.
  bool feed(const std::string& pem, std::chrono::milliseconds within) const {
    auto deadline = std::chrono::steady_clock::now() + within;
    int fd = -1;
    while ((fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK)) < 0) {
      if (errno != ENXIO || std::chrono::steady_clock::now() > deadline)
        return false; // ENXIO: no reader yet
      std::this_thread::sleep_for(10ms);
    }
    ::fcntl(fd, F_SETFL, 0);
    bool whole = ::write(fd, pem.data(), pem.size()) == static_cast<ssize_t>(pem.size());
    ::close(fd);
    return whole;
  }
};

// No --webhook-ca-file: the test CA reaches svcd only through the store.
struct store_fixture : store_fifo, server_fixture {
  store_fixture() : server_fixture({"--webhook-allow-private"}) { ::unsetenv("SSL_CERT_FILE"); }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(ffmpeg_is_loaded_by_the_first_video_not_at_start_nor_by_images, server_fixture) {
  auto t = create_team_with_keys(10000);
  auto c = api();
  BOOST_TEST(!maps_library(svcd.pid(), "libavcodec"), "FFmpeg is loaded at start");

  auto image = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, image_body()), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(image, "status") == "succeeded", json::serialize(image));
  BOOST_TEST(!maps_library(svcd.pid(), "libavcodec"), "an image render loaded FFmpeg");

  json::object body{{"prompt", "a lighthouse on a cliff"}, {"duration_seconds", 1}, {"fps", 8},
                    {"width", 256}, {"height", 256}, {"seed", 7}};
  auto created = c.request("POST", "/v1/videos", with_key(t.write.key, {{"Content-Type", "application/json"}}),
                           json::serialize(body));
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  auto video = wait_video(c, t.read.key, json_str(created.json(), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(video, "status") == "succeeded", json::serialize(video));
  BOOST_TEST(json_str(video, "outputs.0.content_type") == "video/mp4");
  BOOST_TEST(maps_library(svcd.pid(), "libavcodec"), "the video was encoded without FFmpeg mapped");
}

BOOST_FIXTURE_TEST_CASE(libcurl_is_loaded_by_the_first_mail_not_at_start, mail_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  BOOST_TEST(!maps_library(svcd.pid(), "libcurl"), "libcurl is loaded at start");

  auto url = "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/gone";
  auto id = json_str(create_endpoint_ok(c, t.write.key, url), "id");
  test_fire_ok(c, t.write.key, id);
  BOOST_REQUIRE_MESSAGE(relay.wait_for_messages(1, 15s), "no mail reached the relay:\n" << svcd.log_tail());
  BOOST_TEST(relay.messages().front().find(id) != std::string::npos);
  BOOST_TEST(maps_library(svcd.pid(), "libcurl"), "the mail was sent without libcurl mapped");
}

BOOST_FIXTURE_TEST_CASE(the_system_ca_store_is_read_by_the_first_delivery_not_at_start, store_fixture) {
  // svcd got ready (the fixture waited for it) without opening the FIFO.
  auto hooks = make_trusted_receiver();
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_endpoint_ok(c, t.write.key, hooks->url()), "id");
  auto event = test_fire_ok(c, t.write.key, id);
  BOOST_REQUIRE_MESSAGE(feed(read_file(webhook_ca_file()), 20s),
                        "svcd did not read the store for its first delivery:\n" << svcd.log_tail());
  auto got = wait_for_receipt(*hooks, [&](const receipt& r) { return json_str(r.envelope, "id") == event; }, 20s);
  BOOST_TEST(got.has_value(), "the delivery did not verify against the store's CA:\n" << svcd.log_tail());
}

BOOST_AUTO_TEST_SUITE_END()
