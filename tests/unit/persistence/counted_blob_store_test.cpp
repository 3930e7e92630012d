#include "persistence/counted_blob_store.hpp"

#define BOOST_TEST_MODULE persistence_counted_blob_store
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <memory>

#include "temp_dir.hpp"

// The tally of stored blobs: what the folder held when counted, then every
// put (new or replacing) and remove through the store, and nothing for a
// put or remove that failed.

namespace {

using svc::persistence::blob_usage;
using svc::persistence::counted_blob_store;
using svc::persistence::file_blob_store;

struct counted_fixture {
  svc::persistence::testing::temp_dir dir;
  std::string root = dir.path + "/blobs";

  void write_file(const std::string& relative, const std::string& bytes) {
    std::filesystem::create_directories(std::filesystem::path{root + "/" + relative}.parent_path());
    std::ofstream{root + "/" + relative} << bytes;
  }
  counted_blob_store open() {
    auto files = std::make_unique<file_blob_store>(root);
    auto found = files->usage();
    return counted_blob_store{std::move(files), found};
  }
};

bool same(blob_usage a, blob_usage b) { return a.bytes == b.bytes && a.count == b.count; }

} // namespace

BOOST_FIXTURE_TEST_CASE(the_folder_is_counted_without_temp_files, counted_fixture) {
  write_file("outputs/img_01A.0.png", "12345");
  write_file("outputs/img_01B.0.png", "123");
  write_file("files/file_01C", "1234567");
  write_file("files/file_01D.tmp-01E", "a put that has not landed");
  file_blob_store files{root}; // makes the folder's leftovers go, as at start
  write_file("files/file_01F.tmp-01G", "a put in progress");
  BOOST_TEST(same(files.usage(), {15, 3}));
}

BOOST_FIXTURE_TEST_CASE(an_empty_or_missing_folder_holds_nothing, counted_fixture) {
  BOOST_TEST(same(file_blob_store{root}.usage(), {0, 0}));
}

BOOST_FIXTURE_TEST_CASE(puts_and_removes_keep_the_tally, counted_fixture) {
  write_file("files/file_01A", "1234567890");
  auto store = open();
  BOOST_TEST(same(store.usage(), {10, 1}));
  BOOST_TEST(store.put("outputs/img_01B.0.png", "abcd").ok());
  BOOST_TEST(same(store.usage(), {14, 2}));
  BOOST_TEST(store.put("outputs/img_01B.0.png", "abcdefgh").ok(), "a replacement counts its new size once");
  BOOST_TEST(same(store.usage(), {18, 2}));
  BOOST_TEST(store.remove("files/file_01A").ok());
  BOOST_TEST(same(store.usage(), {8, 1}));
  BOOST_TEST(store.remove("files/file_01A").ok(), "removing an absent blob is no error");
  BOOST_TEST(same(store.usage(), {8, 1}), "and removes nothing from the tally");
  BOOST_TEST(store.remove("outputs/img_01B.0.png").ok());
  BOOST_TEST(same(store.usage(), {0, 0}));
}

BOOST_FIXTURE_TEST_CASE(failed_puts_and_removes_change_nothing, counted_fixture) {
  auto store = open();
  BOOST_TEST(store.put("outputs/img_01A.0.png", "abc").ok());
  BOOST_TEST(!store.put("../escape", "abc").ok());
  BOOST_TEST(!store.remove("../escape").ok());
  BOOST_TEST(same(store.usage(), {3, 1}));
}

BOOST_FIXTURE_TEST_CASE(reads_pass_through, counted_fixture) {
  auto store = open();
  BOOST_TEST(store.put("files/file_01A", "hello").ok());
  BOOST_TEST((store.get("files/file_01A") == std::optional<std::string>{"hello"}));
  BOOST_TEST((store.size("files/file_01A") == std::optional<uint64_t>{5}));
  BOOST_TEST((store.read_range("files/file_01A", 1, 3) == std::optional<std::string>{"ell"}));
  auto file = store.open("files/file_01A");
  BOOST_REQUIRE(file);
  BOOST_TEST(file->size() == 5u);
}
