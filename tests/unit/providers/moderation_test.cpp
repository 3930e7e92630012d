#include "providers/moderation.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(providers_moderation)

using svc::providers::moderation_list_error;
using svc::providers::moderation_rules;

namespace {

moderation_rules parsed(std::string_view text) {
  auto r = moderation_rules::parse(text);
  BOOST_REQUIRE(std::holds_alternative<moderation_rules>(r));
  return std::get<moderation_rules>(std::move(r));
}

// A file in a fresh directory under the system temp dir, removed with the fixture.
struct temp_file {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("svc-moderation-" + std::to_string(::getpid()));
  std::filesystem::path path = dir / "words.txt";
  explicit temp_file(const std::string& content) {
    std::filesystem::create_directories(dir);
    std::ofstream(path, std::ios::binary) << content;
  }
  ~temp_file() { std::filesystem::remove_all(dir); }
};

} // namespace

BOOST_AUTO_TEST_CASE(matches_a_whole_word_ignoring_case) {
  const auto rules = parsed("gore\n");
  const auto m = rules.check("Lots of GORE, please");
  BOOST_REQUIRE(m);
  BOOST_TEST(m->rule == "gore");
  BOOST_TEST(m->line == 1u);
  BOOST_TEST(rules.check("gore").has_value()); // the whole prompt
  BOOST_TEST(rules.check("(gore)").has_value());
}

BOOST_AUTO_TEST_CASE(does_not_match_inside_other_words) {
  const auto rules = parsed("gore\n");
  BOOST_TEST(!rules.check("Edward Gorey's drawings"));
  BOOST_TEST(!rules.check("a gored bull"));
  BOOST_TEST(!rules.check("Gregory"));
  BOOST_TEST(!rules.check(""));
}

BOOST_AUTO_TEST_CASE(phrases_match_consecutive_words_only) {
  const auto rules = parsed("snuff film\n");
  BOOST_TEST(rules.check("a SNUFF   film scene").has_value());
  BOOST_TEST(rules.check("snuff-film").has_value());
  BOOST_TEST(!rules.check("a film about snuff"));
  BOOST_TEST(!rules.check("snuff of a film"));
  BOOST_TEST(!rules.check("snuff"));
}

BOOST_AUTO_TEST_CASE(reports_the_first_matching_rule_with_its_line) {
  const auto rules = parsed("# header\n\nalpha\nbeta gamma # trailing comment\n");
  BOOST_TEST(rules.size() == 2u);
  const auto m = rules.check("Beta Gamma and alpha");
  BOOST_REQUIRE(m);
  BOOST_TEST(m->rule == "alpha"); // list order decides, not prompt order
  BOOST_TEST(m->line == 3u);
  const auto m2 = rules.check("beta gamma");
  BOOST_REQUIRE(m2);
  BOOST_TEST(m2->rule == "beta gamma");
  BOOST_TEST(m2->line == 4u);
}

BOOST_AUTO_TEST_CASE(parsing_skips_comments_blank_lines_and_crlf) {
  const auto rules = parsed("  # only a comment\r\n\r\n   \r\n  Spaced Term  \r\n#x\n");
  BOOST_TEST(rules.size() == 1u);
  BOOST_TEST(rules.check("a spaced term here").has_value());
}

BOOST_AUTO_TEST_CASE(a_line_without_letters_is_an_error_naming_it) {
  auto r = moderation_rules::parse("fine\n!!!\n");
  BOOST_REQUIRE(std::holds_alternative<moderation_list_error>(r));
  const auto& e = std::get<moderation_list_error>(r);
  BOOST_TEST(e.line == 2u);
  BOOST_TEST(e.message.find("line 2") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_empty_list_matches_nothing) {
  const auto rules = parsed("# moderation disabled on purpose\n");
  BOOST_TEST(rules.size() == 0u);
  BOOST_TEST(!rules.check("gore"));
}

BOOST_AUTO_TEST_CASE(defaults_catch_disallowed_terms_but_not_ordinary_prompts) {
  const auto rules = moderation_rules::defaults();
  BOOST_TEST(rules.size() > 5u);
  const auto m = rules.check("a scene full of Gore");
  BOOST_REQUIRE(m);
  BOOST_TEST(m->rule == "gore");
  BOOST_TEST(m->line == 0u); // built in, not from a file
  BOOST_TEST(rules.check("beheading in the town square").has_value());
  BOOST_TEST(!rules.check("a quiet mountain lake at sunset, pine trees"));
  BOOST_TEST(rules.check("Al Gore gives a speech").has_value()); // words cannot tell a name apart
  BOOST_TEST(!rules.check("a gorgeous neon city"));
}

BOOST_AUTO_TEST_CASE(loads_a_word_list_file) {
  temp_file f("# team list\nDragon\nred  panda\n");
  auto r = moderation_rules::load(f.path.string());
  BOOST_REQUIRE(std::holds_alternative<moderation_rules>(r));
  const auto& rules = std::get<moderation_rules>(r);
  BOOST_TEST(rules.size() == 2u);
  const auto m = rules.check("a Red Panda eating");
  BOOST_REQUIRE(m);
  BOOST_TEST(m->rule == "red panda");
  BOOST_TEST(m->line == 3u);
  BOOST_TEST(!rules.check("gore")); // a file replaces the defaults
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_an_error_value) {
  auto r = moderation_rules::load("/nonexistent/svc/words.txt");
  BOOST_REQUIRE(std::holds_alternative<moderation_list_error>(r));
  BOOST_TEST(std::get<moderation_list_error>(r).message.find("/nonexistent/svc/words.txt") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_bad_line_in_a_file_names_the_file_and_line) {
  temp_file f("ok\n\n---\n");
  auto r = moderation_rules::load(f.path.string());
  BOOST_REQUIRE(std::holds_alternative<moderation_list_error>(r));
  const auto& e = std::get<moderation_list_error>(r);
  BOOST_TEST(e.line == 3u);
  BOOST_TEST(e.message.find(f.path.string()) != std::string::npos);
}

// Look-alike spellings must not slip past a rule: zero-width and format
// characters inside a word, full-width, circled and mathematical letters.
BOOST_AUTO_TEST_CASE(look_alike_spellings_are_folded_before_matching) {
  const auto rules = parsed("kill\nsnuff film\n");
  for (std::string prompt : {"k\u200Bill", "ki\u00ADll", "k\u200Di\u2060ll", "\uFEFFkill", "k\u202Eill",
                             "\uFF4B\uFF49\uFF4C\uFF4C", "\uFF2B\uFF29\uFF2C\uFF2C", "\u24DA\u24D8\u24DB\u24DB",
                             "\U0001D424\U0001D422\U0001D425\U0001D425", "sn\u200Buff \uFF46ilm", "ki\uFE0Fll"}) {
    BOOST_TEST_CONTEXT(prompt) {
      auto m = rules.check(prompt);
      BOOST_TEST(m.has_value());
    }
  }
  BOOST_TEST(!rules.check("skill\u200B set").has_value(), "still whole words");
  BOOST_TEST(!rules.check("kil\xC3").has_value(), "invalid UTF-8 is kept, not a match");
}

BOOST_AUTO_TEST_CASE(folding_keeps_other_text) {
  using svc::providers::fold_for_moderation;
  BOOST_TEST(fold_for_moderation("caf\u00E9 \u65E5\u672C") == "caf\u00E9 \u65E5\u672C");
  BOOST_TEST(fold_for_moderation("\uFF21\uFF42\uFF43\uFF11\u24B6\U0001D400") == "Abc1AA", "case is kept here");
  BOOST_TEST(fold_for_moderation("a\u200Bb\xFF") == "ab\xFF");
  BOOST_TEST(fold_for_moderation("\xE2\x80") == "\xE2\x80", "a truncated sequence is kept");
}

BOOST_AUTO_TEST_SUITE_END()
