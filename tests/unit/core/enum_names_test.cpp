#include "core/enum_names.hpp"

#include <boost/test/unit_test.hpp>

#include <string_view>

BOOST_AUTO_TEST_SUITE(core_enum_names)

namespace probe {

enum class colour { red, light_blue, green };
BOOST_DESCRIBE_ENUM(colour, red, light_blue, green)

std::string_view to_string(colour c) { return svc::core::enumerator_name(c); }

// Wire names other than the enumerators' names, as `lora_selection` has.
enum class mode { requested, automatic };
BOOST_DESCRIBE_ENUM(mode, requested, automatic)

std::string_view to_string(mode m) { return m == mode::requested ? "explicit" : "auto"; }

} // namespace probe

using probe::colour;
using probe::mode;
using svc::core::enum_from_name;
using svc::core::enumerator_name;

BOOST_AUTO_TEST_CASE(every_enumerator_is_named_as_described) {
  BOOST_TEST(enumerator_name(colour::red) == "red");
  BOOST_TEST(enumerator_name(colour::light_blue) == "light_blue");
  BOOST_TEST(enumerator_name(colour::green) == "green");
}

BOOST_AUTO_TEST_CASE(a_value_outside_the_description_has_no_name) {
  BOOST_TEST(enumerator_name(static_cast<colour>(7)).empty());
}

BOOST_AUTO_TEST_CASE(every_enumerator_round_trips_through_its_name) {
  for (auto c : {colour::red, colour::light_blue, colour::green})
    BOOST_TEST((enum_from_name<colour>(to_string(c)) == c));
  for (auto m : {mode::requested, mode::automatic})
    BOOST_TEST((enum_from_name<mode>(to_string(m)) == m));
}

BOOST_AUTO_TEST_CASE(names_are_read_through_to_string_not_the_enumerators) {
  BOOST_TEST((enum_from_name<mode>("explicit") == mode::requested));
  BOOST_TEST((enum_from_name<mode>("auto") == mode::automatic));
  BOOST_TEST(!enum_from_name<mode>("requested"));
  BOOST_TEST(!enum_from_name<mode>("automatic"));
}

BOOST_AUTO_TEST_CASE(an_unknown_name_is_rejected) {
  BOOST_TEST(!enum_from_name<colour>("blue"));
  BOOST_TEST(!enum_from_name<colour>("RED"));
  BOOST_TEST(!enum_from_name<colour>("red "));
  BOOST_TEST(!enum_from_name<colour>(""));
}

BOOST_AUTO_TEST_SUITE_END()
