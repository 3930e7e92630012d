// Output downloads stream from the blob file: a HEAD reads none of it, a
// Range reads only its bytes, and a client that pipelines downloads of a big
// output and stops reading does not make svcd hold them in memory. The
// output's file is grown (sparse) so that reading it whole would show in
// svcd's peak RSS.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <fstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/raw_connection.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_output_streaming)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t mib = 1024 * 1024;

// A `VmHWM`/`VmRSS` line of /proc/PID/status, in bytes.
std::int64_t memory_of(pid_t pid, const std::string& field) {
  std::ifstream status{"/proc/" + std::to_string(pid) + "/status"};
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field + ":", 0) == 0)
      return std::stoll(line.substr(field.size() + 1)) * 1024; // "VmHWM:   12345 kB"
  BOOST_FAIL("no " << field << " for pid " << pid);
  return 0;
}

// A succeeded job's output URL target, its PNG file grown with zeros to `bytes`.
std::string grown_output(server_fixture& f, std::int64_t bytes) {
  auto t = f.create_team_with_keys();
  auto c = f.api();
  auto done = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, image_body()), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto path = f.svcd.data_dir() + "/blobs/outputs/" + json_str(done, "id") + ".0.png";
  BOOST_REQUIRE_MESSAGE(::truncate(path.c_str(), bytes) == 0, path);
  return target_of(json_str(done, "output_urls.0"));
}

struct small_response_budgets : server_fixture {
  small_response_budgets()
    : server_fixture({"--queued-response-bytes", "65536", "--queued-response-total", "1048576"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(head_and_small_ranges_read_only_what_they_answer, server_fixture) {
  constexpr std::int64_t size = 512 * mib;
  auto target = grown_output(*this, size);
  auto before = memory_of(svcd.pid(), "VmHWM");
  http_client anonymous{svcd.api_url()};

  auto head = anonymous.request("HEAD", target);
  BOOST_TEST(head.status == 200, head.summary());
  BOOST_TEST(header_int(head, "Content-Length").value_or(-1) == size);
  BOOST_TEST(head.body.empty());

  auto first = anonymous.get(target, {{"Range", "bytes=0-0"}});
  BOOST_TEST(first.status == 206, first.summary());
  BOOST_TEST(first.body == "\x89", "the first byte of the PNG signature");
  BOOST_TEST(first.header_or_empty("Content-Range") == "bytes 0-0/" + std::to_string(size));

  auto tail = anonymous.get(target, {{"Range", "bytes=-3"}});
  BOOST_TEST(tail.status == 206, tail.summary());
  BOOST_TEST(tail.body.size() == 3u);
  BOOST_TEST(tail.header_or_empty("Content-Range")
             == "bytes " + std::to_string(size - 3) + "-" + std::to_string(size - 1) + "/" + std::to_string(size));

  auto past = anonymous.get(target, {{"Range", "bytes=" + std::to_string(size) + "-"}});
  BOOST_TEST(is_error(past, 416, "range_not_satisfiable"), past.summary());

  auto grew = memory_of(svcd.pid(), "VmHWM") - before;
  BOOST_TEST(grew < 32 * mib, "svcd's peak RSS grew by " << grew / mib << " MiB for a HEAD and 4 bytes");
}

BOOST_FIXTURE_TEST_CASE(a_client_that_stops_reading_pins_no_output_bytes, server_fixture) {
  constexpr std::int64_t size = 64 * mib;
  auto target = grown_output(*this, size);
  auto before = memory_of(svcd.pid(), "VmHWM");

  // Sixteen pipelined downloads (the pipeline limit) of the whole output, never read.
  raw_connection stuck{svcd.api_url()};
  std::string requests;
  for (int i = 0; i < 16; ++i)
    requests += "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n";
  BOOST_REQUIRE(stuck.send(requests));
  auto swelled = wait_until([&] { return memory_of(svcd.pid(), "VmHWM") - before > 128 * mib; }, 3s, 50ms);
  BOOST_TEST(!swelled, "svcd's peak RSS grew by " << (memory_of(svcd.pid(), "VmHWM") - before) / mib
                                                  << " MiB for a client that reads nothing");

  // Others are served meanwhile, and a reader gets every byte.
  http_client reader{svcd.api_url()};
  auto whole = reader.get(target);
  BOOST_TEST(whole.status == 200, whole.summary());
  BOOST_TEST(whole.body.size() == static_cast<std::size_t>(size));
  BOOST_TEST(whole.body.rfind("\x89PNG\r\n\x1a\n", 0) == 0u);
  BOOST_TEST(whole.body.find_first_not_of('\0', size - 1 * mib) == std::string::npos, "the zeros the file grew by");
}

// Every answer written gives its bytes back to the budgets: far more than
// they hold passes through one connection, and it still reads requests.
BOOST_FIXTURE_TEST_CASE(answers_many_times_the_budgets_flow_through, small_response_budgets) {
  constexpr std::int64_t size = 16 * mib;
  auto target = grown_output(*this, size);
  http_client reader{svcd.api_url()};
  for (int i = 0; i < 3; ++i) {
    auto whole = reader.get(target);
    BOOST_TEST(whole.status == 200, whole.summary());
    BOOST_TEST(whole.body.size() == static_cast<std::size_t>(size));
  }
  std::vector<request_spec> pages(300, request_spec{"GET", "/docs/errors", {}, {}});
  std::size_t bytes = 0;
  auto answers = reader.pipeline(pages);
  BOOST_TEST(answers.size() == pages.size());
  for (auto& r : answers)
    bytes += r.body.size();
  BOOST_TEST(bytes > 1u * mib, "the pipelined answers carried " << bytes << " bytes");
  BOOST_TEST(reader.get(target, {{"Range", "bytes=0-0"}}).status == 206, "the connection still reads requests");
}

BOOST_AUTO_TEST_SUITE_END()
