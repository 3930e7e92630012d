// The option table of core/config.cpp: well-formed, and docs/configuration.md shows it as it is.
#include "core/config.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(core_config)

BOOST_AUTO_TEST_CASE(every_option_has_help_a_default_and_a_setter) {
  std::set<std::string> names;
  for (auto& o : svc::core::config_options()) {
    BOOST_TEST(!o.help.empty(), o.name);
    BOOST_TEST(static_cast<bool>(o.apply), o.name);
    BOOST_TEST(names.insert(o.name).second, o.name << " is listed twice");
  }
}

BOOST_AUTO_TEST_CASE(configuration_doc_shows_the_current_configuration_table) {
  std::ifstream in{SVC_CONFIGURATION_DOC};
  BOOST_REQUIRE(in);
  std::stringstream doc;
  doc << in.rdbuf();
  auto table = svc::core::config_markdown_table();
  BOOST_TEST((doc.str().find(table) != std::string::npos),
             "docs/configuration.md's table is stale; paste `svcd --print-config-table` into it:\n" << table);
}

BOOST_AUTO_TEST_SUITE_END()
