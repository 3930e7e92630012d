#include "persistence/outbox.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "core/mail.hpp"
#include "persistence/data_dir.hpp"
#include "tests/support/temp_dir.hpp"

BOOST_AUTO_TEST_SUITE(persistence_outbox)

namespace {

namespace fs = std::filesystem;
using svc::persistence::outbox_sender;
using svc::test::temp_dir;

constexpr int64_t sunset_ms = 1785801600000; // 2026-08-04T00:00:00Z

struct fixed_clock final : svc::core::clock {
  svc::core::time_point now() const override { return svc::core::from_unix_ms(sunset_ms + 5); }
};

svc::core::mail_message sample() {
  return {"Svc <noreply@svc.test>", "owner@acme.test", "Webhook endpoint disabled", "line 1\nline 2\n"};
}

std::vector<fs::path> files_in(const std::string& folder) {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(folder))
    out.push_back(e.path());
  return out;
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  BOOST_REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

} // namespace

BOOST_AUTO_TEST_CASE(writes_one_rfc5322_file_per_message_into_a_private_folder) {
  temp_dir dir;
  outbox_sender outbox{dir.path, std::make_shared<fixed_clock>()};
  BOOST_TEST(outbox.folder() == dir.path + "/outbox");
  BOOST_TEST(!fs::exists(outbox.folder())); // made at the first message
  BOOST_TEST(outbox.send(sample()) == "");

  auto files = files_in(outbox.folder());
  BOOST_REQUIRE_EQUAL(files.size(), 1u);
  auto name = files[0].filename().string();
  BOOST_TEST(std::regex_match(name, std::regex{"1785801600005-[0-9a-f]{16}\\.eml"}), name);
  BOOST_TEST(mode_of(files[0]) == 0600u);
  BOOST_TEST(mode_of(outbox.folder()) == 0700u);

  auto text = svc::persistence::read_file(files[0].string());
  BOOST_REQUIRE(text);
  auto id_at = text->find("Message-ID: <");
  BOOST_REQUIRE(id_at != std::string::npos);
  auto id = text->substr(id_at + 13, text->find("@svc>", id_at) - id_at - 13);
  BOOST_TEST(id.size() == 26u);
  BOOST_TEST(*text == svc::core::format_rfc5322(sample(), svc::core::from_unix_ms(sunset_ms + 5), id));
  BOOST_TEST(text->find("Date: Tue, 04 Aug 2026 00:00:00 +0000\r\n") != std::string::npos);
  BOOST_TEST(text->substr(text->size() - 18) == "\r\nline 1\r\nline 2\r\n");
}

BOOST_AUTO_TEST_CASE(messages_in_the_same_millisecond_get_their_own_files) {
  temp_dir dir;
  outbox_sender outbox{dir.path, std::make_shared<fixed_clock>()};
  for (int i = 0; i < 5; ++i) {
    auto m = sample();
    m.subject += " " + std::to_string(i);
    BOOST_TEST(outbox.send(m) == "");
  }
  std::set<std::string> subjects;
  auto files = files_in(outbox.folder());
  BOOST_TEST(files.size() == 5u);
  for (auto& f : files) {
    BOOST_TEST(f.extension() == ".eml"); // no temp file left behind
    auto text = svc::persistence::read_file(f.string());
    BOOST_REQUIRE(text);
    auto at = text->find("Subject: ");
    subjects.insert(text->substr(at, text->find("\r\n", at) - at));
  }
  BOOST_TEST(subjects.size() == 5u);
}

BOOST_AUTO_TEST_CASE(an_existing_outbox_folder_is_reused) {
  temp_dir dir;
  fs::create_directory(dir.path + "/outbox");
  outbox_sender outbox{dir.path};
  BOOST_TEST(outbox.send(sample()) == "");
  BOOST_TEST(outbox.send(sample()) == "");
  BOOST_TEST(files_in(outbox.folder()).size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_folder_that_cannot_be_made_is_an_error_naming_it) {
  temp_dir dir;
  std::ofstream{dir.path + "/outbox"} << "not a folder";
  outbox_sender blocked{dir.path};
  auto error = blocked.send(sample());
  BOOST_TEST(error.find(dir.path + "/outbox") != std::string::npos, error);

  outbox_sender missing{dir.path + "/no-such-dir"};
  BOOST_TEST(!missing.send(sample()).empty());
}

BOOST_AUTO_TEST_SUITE_END()
