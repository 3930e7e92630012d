#include "persistence/backup_files.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/stat.h>

#include "persistence/value_codec.hpp"
#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(persistence_backup_files)

namespace fs = std::filesystem;
using namespace svc::persistence;
using svc::test::temp_dir;

namespace {

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream{path, std::ios::binary} << text;
}

std::string read(const fs::path& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

unsigned mode_of(const fs::path& path) {
  struct stat st{};
  ::stat(path.c_str(), &st);
  return st.st_mode & 0777;
}

// A data directory as svcd leaves it, with a store holding one row.
void fill_data_dir(const std::string& dir) {
  {
    std::string error;
    auto env = environment::open(dir, error, uint64_t{8} << 20);
    BOOST_REQUIRE_MESSAGE(env, error);
    write_batch b;
    b.put(table::meta, "restored", encode_text("yes"));
    BOOST_REQUIRE(env->commit(b).ok());
  }
  fs::remove(fs::path{dir} / "lock.mdb");
  write(fs::path{dir} / "url.secret", "secret-of-urls");
  write(fs::path{dir} / "admin.token", "token-of-admin");
  write(fs::path{dir} / "blobs/outputs/img_1.0.png", std::string(200000, 'p'));
  write(fs::path{dir} / "blobs/files/file_1", "upload");
  write(fs::path{dir} / "blobs/outputs/img_2.0.png.tmp-01J", "half written");
}

} // namespace

BOOST_AUTO_TEST_CASE(side_files_are_the_secrets_and_every_finished_blob) {
  temp_dir from, to;
  fill_data_dir(from.path);
  std::size_t blobs = 0;
  auto st = copy_side_files(from.path, to.path, blobs);
  BOOST_TEST_REQUIRE(st.ok(), st.message);
  BOOST_TEST(blobs == 2u);
  BOOST_TEST(read(fs::path{to.path} / "url.secret") == "secret-of-urls");
  BOOST_TEST(read(fs::path{to.path} / "admin.token") == "token-of-admin");
  BOOST_TEST(read(fs::path{to.path} / "blobs/outputs/img_1.0.png") == std::string(200000, 'p'));
  BOOST_TEST(read(fs::path{to.path} / "blobs/files/file_1") == "upload");
  BOOST_TEST(!fs::exists(fs::path{to.path} / "blobs/outputs/img_2.0.png.tmp-01J"));
  BOOST_TEST(!fs::exists(fs::path{to.path} / "data.mdb"), "the store is copied by LMDB, not here");
  BOOST_TEST(mode_of(fs::path{to.path} / "url.secret") == 0600u);
  BOOST_TEST(mode_of(fs::path{to.path} / "blobs/outputs") == 0700u);
}

BOOST_AUTO_TEST_CASE(a_missing_secret_fails_the_copy) {
  temp_dir from, to;
  fill_data_dir(from.path);
  fs::remove(fs::path{from.path} / "url.secret");
  std::size_t blobs = 0;
  BOOST_TEST(!copy_side_files(from.path, to.path, blobs).ok());
}

BOOST_AUTO_TEST_CASE(restore_fills_a_new_directory_with_the_backups_secrets_only_when_asked) {
  temp_dir backup, parent;
  fill_data_dir(backup.path);
  for (auto secrets : {restored_secrets::fresh, restored_secrets::adopted}) {
    auto target = parent.path + (secrets == restored_secrets::fresh ? "/fresh" : "/adopted");
    std::size_t blobs = 0;
    auto st = restore_data_dir(backup.path, target, secrets, blobs);
    BOOST_TEST_REQUIRE(st.ok(), st.message);
    {
      std::string error;
      auto env = environment::open(target, error, uint64_t{8} << 20);
      BOOST_REQUIRE_MESSAGE(env, error);
      auto row = env->get(table::meta, "restored");
      BOOST_TEST((row.has_value() && *row == encode_text("yes")), "the backup's store");
    }
    BOOST_TEST(read(fs::path{target} / "blobs/outputs/img_1.0.png") == std::string(200000, 'p'));
    BOOST_TEST(blobs == 2u);
    BOOST_TEST(mode_of(target) == 0700u);
    // A backup from elsewhere must not hand its maker the restored server's
    // admin token or URL signing: svcd makes new ones unless told to adopt.
    if (secrets == restored_secrets::fresh) {
      BOOST_TEST(!fs::exists(fs::path{target} / "url.secret"));
      BOOST_TEST(!fs::exists(fs::path{target} / "admin.token"));
    } else {
      BOOST_TEST(read(fs::path{target} / "url.secret") == "secret-of-urls");
      BOOST_TEST(read(fs::path{target} / "admin.token") == "token-of-admin");
    }
  }
}

// A link in a backup would make the restored server serve, under a URL its
// secret signs, any file the restoring user can read.
BOOST_AUTO_TEST_CASE(restore_refuses_a_backup_holding_a_link_and_leaves_the_directory_empty) {
  temp_dir backup, parent, elsewhere;
  fill_data_dir(backup.path);
  write(fs::path{elsewhere.path} / "private", "not for the backup");
  fs::create_symlink(fs::path{elsewhere.path} / "private", fs::path{backup.path} / "blobs/outputs/img_3.0.png");
  auto target = parent.path + "/restored";
  auto refused_for_a_link = [&](const char* where) {
    std::size_t blobs = 0;
    auto st = restore_data_dir(backup.path, target, restored_secrets::adopted, blobs);
    BOOST_TEST(!st.ok(), where);
    BOOST_TEST(st.message.find("symbolic link") != std::string::npos, where << ": " << st.message);
    BOOST_TEST(fs::is_empty(target), where);
  };
  refused_for_a_link("a blob");

  fs::remove(fs::path{backup.path} / "blobs/outputs/img_3.0.png");
  fs::rename(fs::path{backup.path} / "admin.token", fs::path{elsewhere.path} / "token");
  fs::create_symlink(fs::path{elsewhere.path} / "token", fs::path{backup.path} / "admin.token");
  refused_for_a_link("admin.token");
}

BOOST_AUTO_TEST_CASE(restore_refuses_a_store_that_does_not_read_through) {
  temp_dir backup, parent;
  fill_data_dir(backup.path);
  // LMDB's meta pages intact, every later page garbage.
  auto bytes = read(fs::path{backup.path} / "data.mdb");
  BOOST_REQUIRE(bytes.size() > 2 * 4096);
  for (std::size_t i = 2 * 4096; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(0xA5 ^ (i * 31));
  write(fs::path{backup.path} / "data.mdb", bytes);
  auto target = parent.path + "/restored";
  std::size_t blobs = 0;
  auto st = restore_data_dir(backup.path, target, restored_secrets::fresh, blobs);
  BOOST_TEST(!st.ok());
  BOOST_TEST(st.message.find("data.mdb") != std::string::npos, st.message);
  BOOST_TEST(fs::is_empty(target));
  BOOST_TEST(blobs == 0u);
}

BOOST_AUTO_TEST_CASE(restore_refuses_a_non_empty_directory_and_changes_nothing) {
  temp_dir backup, target;
  fill_data_dir(backup.path);
  write(fs::path{target.path} / "data.mdb", "someone's live store");
  std::size_t blobs = 0;
  auto st = restore_data_dir(backup.path, target.path, restored_secrets::adopted, blobs);
  BOOST_TEST(!st.ok());
  BOOST_TEST(st.message.find("not empty") != std::string::npos, st.message);
  BOOST_TEST(read(fs::path{target.path} / "data.mdb") == "someone's live store");
  BOOST_TEST(!fs::exists(fs::path{target.path} / "url.secret"));
}

BOOST_AUTO_TEST_CASE(restore_refuses_a_directory_that_is_no_backup) {
  temp_dir not_a_backup, parent;
  std::size_t blobs = 0;
  auto st = restore_data_dir(not_a_backup.path, parent.path + "/restored", restored_secrets::fresh, blobs);
  BOOST_TEST(!st.ok());
  BOOST_TEST(!fs::exists(parent.path + "/restored"));
}

BOOST_AUTO_TEST_SUITE_END()
