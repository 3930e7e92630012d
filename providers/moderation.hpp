#pragma once
// Moderation rules checked before a generation starts: a list of words and
// phrases a prompt (and a negative prompt: a back end may weigh it either
// way) may not contain, matched as whole words ignoring case, after folding
// the look-alike spellings that would slip past a byte comparison.

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>
#include <optional>

namespace svc::providers {

/// `text` with what could hide a word from a byte comparison undone, an
/// NFKC-like folding for the characters that matter here: full-width ASCII,
/// mathematical alphanumerics and circled letters become ASCII, and
/// zero-width and other Unicode format characters (soft hyphen, joiners,
/// bidi controls, BOM, variation selectors, tags) are removed. Invalid UTF-8
/// bytes are kept as they are.
std::string fold_for_moderation(std::string_view text);

/// The rule a prompt broke.
struct moderation_match {
  std::string rule;      ///< the term as listed, lowercased (`snuff film`)
  std::size_t line = 0;  ///< its line in the list file; 0 for the built-in list
};

/// Why a rules file could not be used.
struct moderation_list_error {
  std::string message;   ///< e.g. `cannot open /etc/svc/words.txt: No such file or directory`
  std::size_t line = 0;  ///< offending line, 0 when the file as a whole failed
};

/// An immutable rule set; thread-safe to share.
class moderation_rules {
public:
  /// The built-in list: a short set of clearly disallowed terms.
  static moderation_rules defaults();

  /// Parses list text: one word or phrase per line, `#` starts a comment,
  /// blank lines are skipped. A line with no letters or digits is an error.
  static std::variant<moderation_rules, moderation_list_error> parse(std::string_view text);

  /// Reads and parses a list file.
  static std::variant<moderation_rules, moderation_list_error> load(const std::string& path);

  /// The first rule whose words occur in `prompt` as consecutive whole words
  /// (case ignored; `gore` matches "Gore!" but not "gorey") once the prompt is
  /// folded by `fold_for_moderation`.
  std::optional<moderation_match> check(std::string_view prompt) const;

  /// Number of rules.
  std::size_t size() const { return rules_.size(); }

private:
  struct rule {
    std::vector<std::string> words;
    std::string text;
    std::size_t line;
  };
  std::vector<rule> rules_;
};

} // namespace svc::providers
