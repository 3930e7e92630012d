#include "persistence/data_dir.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

#include <sys/stat.h>

#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(persistence_data_dir)

namespace fs = std::filesystem;
using namespace svc::persistence;
using svc::test::temp_dir;

BOOST_AUTO_TEST_CASE(data_dir_lock_refuses_a_second_lock) {
  temp_dir dir;
  auto data = dir.path + "/data"; // created by the lock
  {
    std::string e1;
    data_dir_lock first{data, e1};
    BOOST_TEST(e1.empty());
    BOOST_TEST(fs::is_directory(data));
    std::string e2;
    data_dir_lock second{data, e2};
    BOOST_TEST(!e2.empty());
    BOOST_TEST(e2.find("in use") != std::string::npos);
  }
  // Released with the first holder.
  std::string e3;
  data_dir_lock third{data, e3};
  BOOST_TEST(e3.empty());
}

BOOST_AUTO_TEST_CASE(ensure_admin_token_creates_once) {
  temp_dir dir;
  std::string error;
  auto token = ensure_admin_token(dir.path, error);
  BOOST_REQUIRE_MESSAGE(token, error);
  BOOST_TEST(token->size() == 64u);
  BOOST_TEST(token->find_first_not_of("0123456789abcdef") == std::string::npos);

  struct stat st {};
  BOOST_REQUIRE(::stat((dir.path + "/admin.token").c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 0777) == 0600u);
  BOOST_TEST(!fs::exists(dir.path + "/admin.token.tmp"));

  auto again = ensure_admin_token(dir.path, error);
  BOOST_REQUIRE(again);
  BOOST_TEST(*again == *token);
  BOOST_TEST((read_admin_token(dir.path) == token));
}

BOOST_AUTO_TEST_CASE(ensure_admin_token_replaces_a_malformed_one) {
  temp_dir dir;
  std::string error;
  BOOST_REQUIRE(write_file_atomically(dir.path + "/admin.token", "short\n", 0600, error));
  auto token = ensure_admin_token(dir.path, error);
  BOOST_REQUIRE(token);
  BOOST_TEST(token->size() == 64u);
  BOOST_TEST((read_admin_token(dir.path) == token));
}

// A token or URL key others can read would let any local user administer
// svcd or forge output URLs: svcd refuses to start on it.
BOOST_AUTO_TEST_CASE(secrets_readable_by_others_refuse_the_start) {
  temp_dir dir;
  std::string error;
  BOOST_REQUIRE(ensure_admin_token(dir.path, error));
  BOOST_REQUIRE(ensure_url_secret(dir.path, error));
  for (auto [name, mode] : {std::pair{"admin.token", 0644}, std::pair{"url.secret", 0640}, std::pair{"admin.token", 0602}}) {
    const auto path = dir.path + "/" + name;
    BOOST_REQUIRE(::chmod(path.c_str(), static_cast<mode_t>(mode)) == 0);
    error.clear();
    auto secret = std::string{name} == "admin.token" ? ensure_admin_token(dir.path, error) : ensure_url_secret(dir.path, error);
    BOOST_TEST(!secret.has_value(), name);
    BOOST_TEST(error.find(path) != std::string::npos, error);
    BOOST_TEST(error.find("chmod 600 " + path) != std::string::npos, error);
    BOOST_REQUIRE(::chmod(path.c_str(), 0600) == 0);
  }
  BOOST_TEST(ensure_admin_token(dir.path, error).has_value());
  BOOST_TEST(ensure_url_secret(dir.path, error).has_value());
}

BOOST_AUTO_TEST_CASE(ensure_admin_token_fails_in_a_missing_dir) {
  temp_dir dir;
  std::string error;
  auto token = ensure_admin_token(dir.path + "/missing", error);
  BOOST_TEST(!token);
  BOOST_TEST(!error.empty());
}

BOOST_AUTO_TEST_SUITE_END()
