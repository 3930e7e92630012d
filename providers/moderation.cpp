#include "providers/moderation.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "providers/words.hpp"

namespace svc::providers {

namespace {

// Terms nobody may generate on this service: sexual content involving
// minors and graphic gore. Operators extend or replace it with a file.
constexpr std::string_view default_list = R"(# built-in moderation list
child pornography
child porn
csam
underage nudity
underage sex
sexualized minor
sexualized minors
sexualised minor
sexualised minors
gore
gory
beheading
dismemberment
disembowelment
snuff film
)";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\f\v");
  return s.substr(first, last - first + 1);
}

} // namespace

moderation_rules moderation_rules::defaults() {
  auto parsed = parse(default_list);
  auto rules = std::get<moderation_rules>(std::move(parsed));
  for (auto& r : rules.rules_) r.line = 0;
  return rules;
}

std::variant<moderation_rules, moderation_list_error> moderation_rules::parse(std::string_view text) {
  moderation_rules out;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    auto words = split_words(line);
    if (words.empty())
      return moderation_list_error{"line " + std::to_string(number) + " has no letters or digits", number};
    std::string joined;
    for (const auto& w : words) joined += (joined.empty() ? "" : " ") + w;
    out.rules_.push_back({std::move(words), std::move(joined), number});
  }
  return out;
}

std::variant<moderation_rules, moderation_list_error> moderation_rules::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return moderation_list_error{"cannot open " + path + ": " + std::strerror(errno), 0};
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return moderation_list_error{"cannot read " + path, 0};
  auto parsed = parse(text.str());
  if (auto* e = std::get_if<moderation_list_error>(&parsed)) e->message = path + ": " + e->message;
  return parsed;
}

std::optional<moderation_match> moderation_rules::check(std::string_view prompt) const {
  const auto words = split_words(prompt);
  for (const auto& r : rules_) {
    if (r.words.size() > words.size()) continue;
    for (std::size_t i = 0; i + r.words.size() <= words.size(); ++i) {
      std::size_t k = 0;
      while (k < r.words.size() && words[i + k] == r.words[k]) ++k;
      if (k == r.words.size()) return moderation_match{r.text, r.line};
    }
  }
  return std::nullopt;
}

} // namespace svc::providers
