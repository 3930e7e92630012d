#include "persistence/counted_blob_store.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <memory>

#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(persistence_counted_blob_store)

// The tally of stored blobs: what the folder held when counted, then every
// put (new or replacing) and remove through the store, and nothing for a
// put or remove that failed.

namespace {

using svc::persistence::blob_usage;
using svc::persistence::counted_blob_store;
using svc::persistence::file_blob_store;

struct counted_fixture {
  svc::test::temp_dir dir;
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

// A disk that loses the old blob while failing to replace it (the rename
// landed, the folder's fsync did not, and the store removed the new name).
class replacement_loses_old_blob final : public svc::persistence::blob_store {
public:
  explicit replacement_loses_old_blob(std::string root) : disk_{std::move(root)} {}
  svc::persistence::status put(std::string_view key, std::string_view bytes) override {
    if (!disk_.size(key))
      return disk_.put(key, bytes);
    (void)disk_.remove(key);
    return {"fsync folder: input/output error"};
  }
  svc::persistence::status remove(std::string_view key) override { return disk_.remove(key); }
  svc::persistence::status create(std::string_view key, std::unique_ptr<svc::persistence::blob_writer>& out) override {
    return disk_.create(key, out);
  }
  std::optional<uint64_t> size(std::string_view key) const override { return disk_.size(key); }
  // Reads are not this test's business.
  std::optional<std::string> get(std::string_view) const override { return std::nullopt; }
  std::optional<std::string> read_range(std::string_view, uint64_t, uint64_t) const override { return std::nullopt; }
  std::unique_ptr<svc::persistence::blob_file> open(std::string_view) const override { return nullptr; }

private:
  file_blob_store disk_;
};

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

BOOST_FIXTURE_TEST_CASE(a_streamed_blob_counts_at_its_commit_and_a_dropped_one_never, counted_fixture) {
  auto store = open();
  BOOST_TEST(store.put("outputs/vid_01A.0.mp4", "old").ok());
  std::unique_ptr<svc::persistence::blob_writer> w;
  BOOST_REQUIRE(store.create("outputs/vid_01A.0.mp4", w).ok());
  std::string error;
  BOOST_TEST(w->write_at(0, "streamed", 8, error));
  BOOST_TEST(same(store.usage(), {3, 1}), "a temp file is no blob");
  BOOST_TEST(w->commit().ok());
  BOOST_TEST(same(store.usage(), {8, 1}), "the replacement counts its new size once");
  BOOST_REQUIRE(store.create("outputs/vid_01B.0.mp4", w).ok());
  BOOST_TEST(w->write_at(0, "dropped", 7, error));
  w.reset();
  BOOST_TEST(same(store.usage(), {8, 1}));
  BOOST_TEST(!store.create("../escape", w).ok());
}

BOOST_FIXTURE_TEST_CASE(failed_puts_and_removes_change_nothing, counted_fixture) {
  auto store = open();
  BOOST_TEST(store.put("outputs/img_01A.0.png", "abc").ok());
  BOOST_TEST(!store.put("../escape", "abc").ok());
  BOOST_TEST(!store.remove("../escape").ok());
  BOOST_TEST(same(store.usage(), {3, 1}));
}

BOOST_FIXTURE_TEST_CASE(a_failed_replacement_counts_what_it_left, counted_fixture) {
  counted_blob_store store{std::make_unique<replacement_loses_old_blob>(root), {}};
  BOOST_TEST(store.put("files/file_01A", "hello").ok());
  BOOST_TEST(same(store.usage(), {5, 1}));
  BOOST_TEST(!store.put("files/file_01A", "hello again").ok());
  BOOST_TEST(same(store.usage(), {0, 0}));
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

BOOST_AUTO_TEST_SUITE_END()
