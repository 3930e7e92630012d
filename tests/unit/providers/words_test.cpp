#include "providers/words.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

BOOST_AUTO_TEST_SUITE(providers_words)

using svc::providers::split_words;
using words = std::vector<std::string>;

BOOST_AUTO_TEST_CASE(splits_on_punctuation_and_space_and_lowercases) {
  BOOST_TEST(split_words("A Quiet  LAKE, at dusk!") == (words{"a", "quiet", "lake", "at", "dusk"}));
}

BOOST_AUTO_TEST_CASE(hyphens_and_apostrophes_separate_words) {
  BOOST_TEST(split_words("neon-noir fox's") == (words{"neon", "noir", "fox", "s"}));
}

BOOST_AUTO_TEST_CASE(digits_belong_to_words) {
  BOOST_TEST(split_words("8bit 16-bit") == (words{"8bit", "16", "bit"}));
}

BOOST_AUTO_TEST_CASE(utf8_letters_stay_inside_words) {
  BOOST_TEST(split_words("caf\xc3\xa9 na\xc3\xafve") == (words{"caf\xc3\xa9", "na\xc3\xafve"}));
}

BOOST_AUTO_TEST_CASE(empty_and_blank_text_have_no_words) {
  BOOST_TEST(split_words("").empty());
  BOOST_TEST(split_words(" ,;-- ").empty());
}

BOOST_AUTO_TEST_SUITE_END()
