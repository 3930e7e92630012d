#include "persistence/blob_store.hpp"

#include <filesystem>
#include <fstream>

#include <boost/test/unit_test.hpp>

#include "tests/support/temp_dir.hpp"
#include "tests/support/file_size_limit.hpp"

BOOST_AUTO_TEST_SUITE(persistence_blob_store)

namespace fs = std::filesystem;
using svc::persistence::file_blob_store;
using svc::persistence::valid_blob_key;

namespace {

// Blobs live in a subfolder the store creates itself.
struct store_fixture {
  svc::test::temp_dir dir;
  std::string root = dir.path + "/blobs";
};

// Regular files under `root`, temp files included.
std::size_t files_under(const std::string& root) {
  std::size_t n = 0;
  for (auto& e : fs::recursive_directory_iterator(root))
    n += e.is_regular_file();
  return n;
}

} // namespace

BOOST_AUTO_TEST_CASE(keys_cannot_escape_the_folder) {
  for (auto good : {"img_01ABC/0.png", "a", "file_01ABC/original.webp", "x/y/z/w"})
    BOOST_TEST(valid_blob_key(good), good);
  for (auto bad : {"", "/abs", "a//b", "../up", "a/../b", "a/.", "a/b/c/d/e", "sp ace", "a\\b", "semi;colon", "a/"})
    BOOST_TEST(!valid_blob_key(bad), bad);
  BOOST_TEST(!valid_blob_key(std::string(129, 'a')));
}

BOOST_FIXTURE_TEST_CASE(put_get_size_range_remove, store_fixture) {
  file_blob_store store{root};
  std::string bytes(100000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(i * 31 % 251);
  BOOST_TEST(store.put("img_01ABC/0.png", bytes).ok());
  BOOST_TEST((store.get("img_01ABC/0.png") == std::optional<std::string>{bytes}));
  BOOST_TEST((store.size("img_01ABC/0.png") == std::optional<uint64_t>{bytes.size()}));
  BOOST_TEST((store.read_range("img_01ABC/0.png", 99990, 100) == std::optional<std::string>{bytes.substr(99990)}));
  BOOST_TEST((store.read_range("img_01ABC/0.png", 10, 5) == std::optional<std::string>{bytes.substr(10, 5)}));
  BOOST_TEST((store.read_range("img_01ABC/0.png", 200000, 5) == std::optional<std::string>{""}));
  BOOST_TEST(store.remove("img_01ABC/0.png").ok());
  BOOST_TEST(!store.get("img_01ABC/0.png"));
  BOOST_TEST(store.remove("img_01ABC/0.png").ok(), "removing twice is fine");
}

BOOST_FIXTURE_TEST_CASE(put_replaces_and_leaves_no_temp_files, store_fixture) {
  file_blob_store store{root};
  BOOST_TEST(store.put("k/v", "first").ok());
  BOOST_TEST(store.put("k/v", "second").ok());
  BOOST_TEST((store.get("k/v") == std::optional<std::string>{"second"}));
  BOOST_TEST(files_under(root) == 1u);
}

BOOST_FIXTURE_TEST_CASE(invalid_keys_are_refused_and_absent_blobs_read_as_absent, store_fixture) {
  file_blob_store store{root};
  BOOST_TEST(!store.put("../escape", "x").ok());
  BOOST_TEST(!fs::exists(fs::path{root}.parent_path() / "escape"));
  BOOST_TEST(!store.get("missing/0.png"));
  BOOST_TEST(!store.size("../etc/passwd"));
  BOOST_TEST(!store.read_range("missing", 0, 1));
}

BOOST_FIXTURE_TEST_CASE(temp_files_a_crash_left_are_removed_at_open, store_fixture) {
  {
    file_blob_store store{root};
    BOOST_TEST(store.put("outputs/img_01ABC.0.png", "kept").ok());
  }
  // What a kill between write and rename leaves behind.
  std::ofstream{root + "/outputs/img_01ABC.1.png.tmp-01ABCDEF"} << "partial";
  file_blob_store reopened{root};
  BOOST_TEST(!fs::exists(root + "/outputs/img_01ABC.1.png.tmp-01ABCDEF"));
  BOOST_TEST((reopened.get("outputs/img_01ABC.0.png") == std::optional<std::string>{"kept"}));
}

BOOST_FIXTURE_TEST_CASE(an_open_blob_reads_its_ranges_even_after_removal, store_fixture) {
  file_blob_store store{root};
  std::string bytes(70000, 'v');
  bytes[65536] = 'x';
  BOOST_REQUIRE(store.put("outputs/img_01ABC.0.mp4", bytes).ok());
  auto file = store.open("outputs/img_01ABC.0.mp4");
  BOOST_REQUIRE(file);
  BOOST_TEST(file->size() == bytes.size());
  // The expiry sweep may delete a blob while a download streams it.
  BOOST_REQUIRE(store.remove("outputs/img_01ABC.0.mp4").ok());
  BOOST_TEST(!store.open("outputs/img_01ABC.0.mp4"));
  BOOST_TEST((file->read(65536, 3) == std::optional<std::string>{"xvv"}));
  BOOST_TEST((file->read(69998, 100) == std::optional<std::string>{"vv"}));
  BOOST_TEST((file->read(70000, 1) == std::optional<std::string>{""}));
  BOOST_TEST(!store.open("../escape"));
  BOOST_TEST(!store.open("outputs")); // a folder is no blob
}

// RLIMIT_FSIZE stands in for a full disk: the write stops part way (EFBIG as
// ENOSPC would). The put says it is out of room and leaves nothing behind,
// neither the blob nor a partial temp file; a blob that fits still works.
BOOST_FIXTURE_TEST_CASE(a_full_disk_fails_the_put_out_of_room_and_leaves_no_partial_file, store_fixture) {
  file_blob_store store{root};
  BOOST_REQUIRE(store.put("outputs/img_01ABC.0.png", "before").ok());
  svc::persistence::status st;
  {
    svc::test::file_size_limit disk_full{64 * 1024};
    st = store.put("outputs/img_01ABC.1.png", std::string(256 * 1024, 'p'));
    BOOST_TEST(store.put("outputs/img_01ABC.2.png", std::string(1024, 's')).ok());
  }
  BOOST_TEST(!st.ok());
  BOOST_TEST(st.out_of_room, st.message);
  BOOST_TEST(!store.get("outputs/img_01ABC.1.png"));
  BOOST_TEST(files_under(root) == 2u); // outputs 0 and 2, no temp file
  BOOST_TEST(!store.put("../escape", "x").out_of_room);
}

namespace {

bool write(svc::persistence::blob_writer& w, uint64_t offset, const std::string& bytes) {
  std::string error;
  return w.write_at(offset, bytes.data(), bytes.size(), error);
}

} // namespace

// A muxer's pattern: write on, go back to patch a header, read back what it
// wrote. Nothing is a blob until the commit, which replaces the old one.
BOOST_FIXTURE_TEST_CASE(a_writer_streams_a_blob_in_at_any_offset_and_commits_it, store_fixture) {
  file_blob_store store{root};
  BOOST_REQUIRE(store.put("outputs/vid_01ABC.0.mp4", "old").ok());
  std::unique_ptr<svc::persistence::blob_writer> w;
  BOOST_REQUIRE(store.create("outputs/vid_01ABC.0.mp4", w).ok());
  BOOST_REQUIRE(w);
  BOOST_TEST(write(*w, 0, "....body"));
  BOOST_TEST(write(*w, 8, std::string(100000, 'm')));
  BOOST_TEST(write(*w, 0, "head"));
  BOOST_TEST(w->size() == 100008u);
  char back[8] = {};
  BOOST_TEST(w->read_at(0, back, sizeof back) == 8);
  BOOST_TEST(std::string(back, 8) == "headbody");
  BOOST_TEST(w->read_at(100006, back, sizeof back) == 2, "fewer at the end");
  BOOST_TEST(w->read_at(200000, back, sizeof back) == 0);
  BOOST_TEST((store.get("outputs/vid_01ABC.0.mp4") == std::optional<std::string>{"old"}), "not a blob before the commit");
  BOOST_TEST(files_under(root) == 2u); // the old blob and the temp file
  BOOST_TEST(w->commit().ok());
  BOOST_TEST((store.get("outputs/vid_01ABC.0.mp4") == std::optional<std::string>{"headbody" + std::string(100000, 'm')}));
  BOOST_TEST(!w->commit().ok(), "a writer commits once");
  BOOST_TEST(!write(*w, 0, "late"));
  w.reset();
  BOOST_TEST(files_under(root) == 1u);
  BOOST_TEST(!store.create("../escape", w).ok());
}

// A render that fails or is cancelled drops its writer: nothing stays, and a
// blob of the same name from before is untouched. A full disk (RLIMIT_FSIZE
// again) refuses a write part way: the writer says so, out of room, refuses
// the commit, and leaves no partial file either.
BOOST_FIXTURE_TEST_CASE(a_writer_dropped_or_refused_mid_write_leaves_nothing, store_fixture) {
  file_blob_store store{root};
  BOOST_REQUIRE(store.put("outputs/vid_01ABC.0.mp4", "before").ok());
  {
    std::unique_ptr<svc::persistence::blob_writer> dropped;
    BOOST_REQUIRE(store.create("outputs/vid_01ABC.0.mp4", dropped).ok());
    BOOST_TEST(write(*dropped, 0, std::string(5000, 'd')));
  }
  BOOST_TEST(files_under(root) == 1u);
  std::unique_ptr<svc::persistence::blob_writer> w;
  BOOST_REQUIRE(store.create("outputs/vid_01ABC.1.mp4", w).ok());
  {
    svc::test::file_size_limit disk_full{64 * 1024};
    bool written = true;
    for (uint64_t at = 0; written && at < 256 * 1024; at += 16 * 1024)
      written = write(*w, at, std::string(16 * 1024, 'w'));
    BOOST_TEST(!written);
  }
  BOOST_TEST(!w->failure().ok());
  BOOST_TEST(w->failure().out_of_room, w->failure().message);
  BOOST_TEST(!write(*w, 0, "x"), "a failed writer stays failed");
  auto st = w->commit();
  BOOST_TEST(!st.ok());
  BOOST_TEST(st.out_of_room);
  w.reset();
  BOOST_TEST(!store.get("outputs/vid_01ABC.1.mp4"));
  BOOST_TEST((store.get("outputs/vid_01ABC.0.mp4") == std::optional<std::string>{"before"}));
  BOOST_TEST(files_under(root) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
