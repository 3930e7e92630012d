#include "persistence/orphan_blobs.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <memory>
#include <string>

#include "persistence/file_rows.hpp"
#include "persistence/job_rows.hpp"
#include "tests/support/file_records.hpp"
#include "tests/support/lmdb_fixture.hpp"

BOOST_AUTO_TEST_SUITE(persistence_orphan_blobs)

// Blobs a crash left without a record are removed at start; every blob a
// record names, or a live job may write again, stays.

namespace {

using namespace svc::persistence;
using namespace std::chrono_literals;
using svc::schema::job_record;
using svc::schema::job_status;

struct orphan_fixture : svc::test::lmdb_fixture {
  file_blob_store blobs{dir.path + "/blobs"};

  void store_job(const job_record& j) {
    write_batch b;
    put_job(t, b, j);
    commit(b);
  }

  void plant(const std::string& key) { BOOST_REQUIRE(blobs.put(key, "bytes").ok()); }
  bool present(const std::string& key) const { return blobs.size(key).has_value(); }

  // Everything planted so far is older than a start taken now.
  orphan_sweep sweep_after_a_restart() {
    return remove_orphan_blobs(t, blobs, std::chrono::system_clock::now() + 1s);
  }
};

job_record job(const std::string& id, job_status status, int outputs = 0) {
  job_record j;
  j.id = id;
  j.team_id = "team_1";
  j.kind = id.rfind("vid_", 0) == 0 ? svc::schema::job_kind::video : svc::schema::job_kind::image;
  j.status = status;
  j.prompt = "a lighthouse";
  j.width = j.height = 256;
  j.num_outputs = outputs > 0 ? outputs : 1;
  j.created_at = svc::core::from_unix_ms(1763720130123);
  for (int i = 0; i < outputs; ++i)
    j.outputs.push_back({"image/png", 5, 256, 256, std::string(64, 'a')});
  return j;
}

svc::schema::file_record file(const std::string& id) {
  auto created = svc::core::from_unix_ms(1763720130123);
  return svc::test::png_upload(id, created, created + 24h, 5);
}

} // namespace

BOOST_FIXTURE_TEST_CASE(outputs_no_record_names_are_removed, orphan_fixture) {
  store_job(job("img_done", job_status::succeeded, 1));
  store_job(job("img_failed", job_status::failed));
  store_job(job("img_queued", job_status::queued));
  store_job(job("img_rendering", job_status::processing));
  plant("outputs/img_done.0.png");  // named by its record
  plant("outputs/img_done.1.png");  // beyond the record's outputs
  plant("outputs/img_done.0.mp4");  // not the kind of the job
  plant("outputs/img_failed.0.png"); // stored before the job failed
  plant("outputs/img_gone.0.png");   // the record never committed (or was retired)
  plant("outputs/img_queued.0.png"); // a live job may write these names again
  plant("outputs/img_rendering.1.png");
  plant("outputs/README");           // not a name Svc writes

  auto swept = sweep_after_a_restart();
  BOOST_TEST(swept.removed == 4u);
  BOOST_TEST(swept.kept == 4u);
  BOOST_TEST(swept.unreadable == 0u);
  BOOST_TEST(swept.failed == 0u);
  BOOST_TEST(present("outputs/img_done.0.png"));
  BOOST_TEST(!present("outputs/img_done.1.png"));
  BOOST_TEST(!present("outputs/img_done.0.mp4"));
  BOOST_TEST(!present("outputs/img_failed.0.png"));
  BOOST_TEST(!present("outputs/img_gone.0.png"));
  BOOST_TEST(present("outputs/img_queued.0.png"));
  BOOST_TEST(present("outputs/img_rendering.1.png"));
  BOOST_TEST(present("outputs/README"));
}

BOOST_FIXTURE_TEST_CASE(uploads_without_a_files_row_are_removed, orphan_fixture) {
  write_batch b;
  put_file(t, b, file("file_kept"));
  commit(b);
  plant("files/file_kept");
  plant("files/file_orphan");
  auto swept = sweep_after_a_restart();
  BOOST_TEST(swept.removed == 1u);
  BOOST_TEST(present("files/file_kept"));
  BOOST_TEST(!present("files/file_orphan"));
}

BOOST_FIXTURE_TEST_CASE(blobs_written_since_the_start_are_kept, orphan_fixture) {
  auto started = std::chrono::system_clock::now() - 1s;
  plant("outputs/img_new.0.png");
  plant("files/file_new");
  auto swept = remove_orphan_blobs(t, blobs, started);
  BOOST_TEST(swept.removed == 0u);
  BOOST_TEST(swept.kept == 2u);
  BOOST_TEST(present("outputs/img_new.0.png"));
  BOOST_TEST(present("files/file_new"));
}

BOOST_FIXTURE_TEST_CASE(a_store_that_fails_reads_removes_nothing, orphan_fixture) {
  plant("outputs/img_gone.0.png");
  plant("files/file_orphan");
  env->fail_reads(true);
  auto swept = sweep_after_a_restart();
  env->fail_reads(false);
  BOOST_TEST(swept.removed == 0u);
  BOOST_TEST(swept.unreadable == 2u);
  BOOST_TEST(present("outputs/img_gone.0.png"));
  BOOST_TEST(present("files/file_orphan"));
  BOOST_TEST(sweep_after_a_restart().removed == 2u);
}

BOOST_FIXTURE_TEST_CASE(an_empty_or_missing_blob_folder_is_nothing_to_do, orphan_fixture) {
  auto swept = sweep_after_a_restart();
  BOOST_TEST(swept.removed == 0u);
  BOOST_TEST(swept.kept == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
