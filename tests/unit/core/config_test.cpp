// The option table of core/config.cpp: well-formed, and the README shows it as it is.
#define BOOST_TEST_MODULE config
#include "core/config.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_CASE(every_option_has_help_a_default_and_a_setter) {
  std::set<std::string> names;
  for (auto& o : svc::core::config_options()) {
    BOOST_TEST(!o.help.empty(), o.name);
    BOOST_TEST(static_cast<bool>(o.apply), o.name);
    BOOST_TEST(names.insert(o.name).second, o.name << " is listed twice");
  }
}

BOOST_AUTO_TEST_CASE(readme_shows_the_current_configuration_table) {
  std::ifstream in{SVC_README_PATH};
  BOOST_REQUIRE(in);
  std::stringstream readme;
  readme << in.rdbuf();
  auto table = svc::core::config_markdown_table();
  BOOST_TEST((readme.str().find(table) != std::string::npos),
             "README.md's configuration table is stale; paste `svcd --print-config-table` into it:\n" << table);
}
