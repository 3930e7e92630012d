#include "core/comma_list.hpp"

#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

BOOST_AUTO_TEST_SUITE(core_comma_list)

namespace {

using svc::core::parse_comma_list;

// A digit as an item; anything else is not one.
std::optional<int> digit(std::string_view s) {
  if (s.size() == 1 && s[0] >= '0' && s[0] <= '9')
    return s[0] - '0';
  return std::nullopt;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_item_is_read_in_order) {
  BOOST_TEST((parse_comma_list("3,1,2", digit).value() == std::vector<int>{3, 1, 2}));
  BOOST_TEST((parse_comma_list("7", digit).value() == std::vector<int>{7}));
}

BOOST_AUTO_TEST_CASE(one_bad_item_refuses_the_list) {
  BOOST_TEST(!parse_comma_list("3,x,2", digit));
  BOOST_TEST(!parse_comma_list("3,1,", digit));
  BOOST_TEST(!parse_comma_list(",1", digit));
}

BOOST_AUTO_TEST_CASE(an_empty_text_is_one_empty_item) {
  BOOST_TEST(!parse_comma_list("", digit));
  auto texts = parse_comma_list("", [](std::string_view s) { return std::optional<std::string>{s}; });
  BOOST_TEST((texts.value() == std::vector<std::string>{""}));
}

BOOST_AUTO_TEST_SUITE_END()
