// A full disk: svcd runs under a 640 KiB file size limit (RLIMIT_FSIZE, which
// fails writes past it with EFBIG as a full disk fails them with ENOSPC, and
// would kill a process that does not ignore SIGXFSZ). An upload too large for
// the disk answers 507 `insufficient_storage`; a job whose output cannot be
// written fails with its hold refunded; neither leaves a partial file; small
// files, jobs and reads go on, and svcd keeps running.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "tests/support/file_size_limit.hpp"

BOOST_AUTO_TEST_SUITE(e2e_disk_full)

using namespace svc::e2e;

namespace {

constexpr std::uint64_t disk_limit = 640 << 10;

// The limit is set before svcd starts, so svcd inherits it, and lifted for the
// test process once svcd runs. SIGXFSZ keeps its default: svcd must ignore it itself.
struct limited_disk {
  svc::test::file_size_limit limit{disk_limit, false};
};

struct full_disk : limited_disk, server_fixture {
  // A small map keeps the data file (and its preallocated reserve) far below the limit.
  full_disk() : server_fixture({"--map-size", "2MiB"}) { limit.lift(); }

  /// Regular files under DIR/blobs/<folder> (temp files included).
  std::size_t files_in(const std::string& folder) const {
    std::error_code ec;
    std::size_t n = 0;
    for (auto it = std::filesystem::recursive_directory_iterator{svcd.data_dir() + "/blobs/" + folder, ec};
         !ec && it != std::filesystem::recursive_directory_iterator{}; it.increment(ec))
      n += it->is_regular_file();
    return n;
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(an_upload_too_large_for_the_disk_answers_507_and_leaves_nothing, full_disk) {
  auto t = create_team_with_keys();
  auto c = api();
  auto pid = svcd.pid();
  // The header says PNG; the bytes after it make the file larger than the disk takes.
  auto big = upload_file(c, t.write.key, test_image("tiny.png") + std::string(disk_limit + 200000, '\0'));
  BOOST_TEST(is_error(big, 507, "insufficient_storage"), big.summary());
  BOOST_TEST(json_str(big.json(), "error.type") == "internal");
  BOOST_TEST(files_in("files") == 0u, "no partial file");
  BOOST_TEST(svcd.running());
  BOOST_TEST(svcd.pid() == pid);

  auto small = upload_file(c, t.write.key, test_image("tiny.png"));
  BOOST_TEST(small.status == 201, small.summary());
  BOOST_TEST(files_in("files") == 1u);
  auto listed = c.get("/v1/files", with_key(t.read.key));
  BOOST_TEST(listed.status == 200, listed.summary());
  BOOST_TEST(json_size(listed.json(), "data") == 1);
}

BOOST_FIXTURE_TEST_CASE(an_output_too_large_for_the_disk_fails_the_job_and_refunds_it, full_disk) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  // A 2048 x 2048 PNG of the built-in renderer is about 1 MB; a 256 x 256 one is small.
  auto body = image_body("a lighthouse", 2048, 2048);
  body["seed"] = 7;
  auto big = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, body), "id"));
  BOOST_TEST(json_str(big, "status") == "failed", big);
  BOOST_TEST(json_str(big, "cost.status") == "refunded");
  BOOST_TEST(json_str(big, "failure.message") == "storing the output failed");
  BOOST_TEST(files_in("outputs") == 0u, "no partial file");
  auto after_refund = get_balance(c, t.read.key);
  BOOST_TEST(after_refund.available == 1000);
  BOOST_TEST(after_refund.held == 0);

  auto small = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, image_body("a harbour")), "id"));
  BOOST_TEST(json_str(small, "status") == "succeeded", small);
  BOOST_TEST(files_in("outputs") == 1u);
  BOOST_TEST(svcd.running());
}

BOOST_AUTO_TEST_SUITE_END()
