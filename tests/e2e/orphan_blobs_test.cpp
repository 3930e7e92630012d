// Orphan blobs (issue 12, durable promises): a crash between a blob's fsync
// and the commit of its record leaves bytes no record names. svcd removes
// them when it starts, and logs how many; every blob a record names stays and
// still downloads.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <string>
#include <sys/stat.h>

#include "support/file_uploads.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/output_bytes.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_orphan_blobs)

using namespace svc::e2e;

namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Writes a blob as a crash would have left it: whole, but named by no record.
void plant(const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  out << "\x89PNG\r\n\x1a\n left by a crash";
  BOOST_REQUIRE(out.good());
}

} // namespace

BOOST_FIXTURE_TEST_CASE(blobs_no_record_names_are_removed_at_start, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto id = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto done = wait_terminal(c, t.read.key, id);
  BOOST_REQUIRE(json_str(done, "status") == "succeeded");
  auto upload = json_str(upload_file_ok(c, t.write.key, test_image("tiny.png")), "id");

  auto blobs = svcd.data_dir() + "/blobs";
  auto output = blobs + "/outputs/" + id + ".0.png";
  auto uploaded = blobs + "/files/" + upload;
  BOOST_REQUIRE(file_exists(output));
  BOOST_REQUIRE(file_exists(uploaded));
  // An output whose job never committed, a second output of the finished
  // job (its record has one) and an upload whose record never committed.
  auto orphan_output = blobs + "/outputs/img_01KAK3R5N2W9X7Q4V6B8C0D1EF.0.png";
  auto extra_output = blobs + "/outputs/" + id + ".1.png";
  auto orphan_upload = blobs + "/files/file_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  for (auto* p : {&orphan_output, &extra_output, &orphan_upload})
    plant(*p);

  svcd.kill9();
  svcd.start();
  BOOST_TEST(!file_exists(orphan_output));
  BOOST_TEST(!file_exists(extra_output));
  BOOST_TEST(!file_exists(orphan_upload));
  BOOST_TEST(read_file(svcd.log_path()).find("removed 3 orphan blobs") != std::string::npos, svcd.log_tail());

  // What records name stays: the output downloads, the upload still starts a job.
  BOOST_TEST(file_exists(output));
  BOOST_TEST(file_exists(uploaded));
  c = api();
  http_client anonymous{svcd.api_url()};
  auto got = anonymous.get(target_of(json_str(done, "output_urls.0")));
  BOOST_TEST_REQUIRE(got.status == 200, got.summary());
  BOOST_TEST(sha256_hex(got.body) == json_str(done, "outputs.0.sha256"));
  auto body = image_body();
  body["init_image"] = upload;
  auto from_upload = json_str(create_image_ok(c, t.write.key, body), "id");
  BOOST_TEST(json_str(wait_terminal(c, t.read.key, from_upload), "status") == "succeeded");
}

BOOST_AUTO_TEST_SUITE_END()
