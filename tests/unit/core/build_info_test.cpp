#include "core/build_info.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cctype>
#include <string>

BOOST_AUTO_TEST_SUITE(core_build_info)

using svc::core::build_commit;
using svc::core::build_version;
using svc::core::version_line;

BOOST_AUTO_TEST_CASE(version_is_the_cmake_project_version) {
  BOOST_TEST(build_version() == SVC_EXPECTED_VERSION);
}

BOOST_AUTO_TEST_CASE(commit_is_a_short_hash_or_unknown) {
  auto& c = build_commit();
  auto hex = c.size() >= 7 && std::all_of(c.begin(), c.end(), [](unsigned char ch) { return std::isxdigit(ch); });
  BOOST_TEST((hex || c == "unknown"), "commit: " << c);
}

BOOST_AUTO_TEST_CASE(version_line_names_program_version_and_commit) {
  BOOST_TEST(version_line("svcd") == "svcd " + build_version() + " (commit " + build_commit() + ")");
}

BOOST_AUTO_TEST_SUITE_END()
