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

// The next code point of `s` from `i` (advancing `i`), or nullopt for an
// invalid or truncated sequence (then `i` advances by one byte).
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int extra = b0 < 0x80 ? 0 : (b0 >> 5) == 0x6 ? 1 : (b0 >> 4) == 0xE ? 2 : (b0 >> 3) == 0x1E ? 3 : -1;
  if (extra < 0 || i + extra >= s.size() + (extra == 0 ? 1 : 0)) {
    ++i;
    return std::nullopt;
  }
  char32_t cp = extra == 0 ? b0 : b0 & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return std::nullopt;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  i += extra + 1;
  return cp;
}

// Unicode format (Cf) and invisible characters that can sit inside a word unseen.
bool is_invisible(char32_t c) {
  return c == 0xAD || c == 0x34F || c == 0x61C || c == 0x180E || (c >= 0x200B && c <= 0x200F)
         || (c >= 0x202A && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF
         || (c >= 0xFE00 && c <= 0xFE0F) || (c >= 0xE0000 && c <= 0xE007F) || (c >= 0xE0100 && c <= 0xE01EF);
}

// The ASCII character a compatibility letter or digit folds to, or 0.
char ascii_fold(char32_t c) {
  if (c >= 0xFF01 && c <= 0xFF5E) // full-width ASCII
    return static_cast<char>(c - 0xFF01 + 0x21);
  if (c >= 0x24B6 && c <= 0x24CF) // circled capitals
    return static_cast<char>('A' + (c - 0x24B6));
  if (c >= 0x24D0 && c <= 0x24E9) // circled small letters
    return static_cast<char>('a' + (c - 0x24D0));
  if (c >= 0x1D400 && c <= 0x1D6A3) { // mathematical alphabets: runs of A-Z then a-z
    auto k = (c - 0x1D400) % 52;
    return static_cast<char>(k < 26 ? 'A' + k : 'a' + (k - 26));
  }
  if (c >= 0x1D7CE && c <= 0x1D7FF) // mathematical digits: runs of 0-9
    return static_cast<char>('0' + (c - 0x1D7CE) % 10);
  return 0;
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\f\v");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\f\v");
  return s.substr(first, last - first + 1);
}

} // namespace

std::string fold_for_moderation(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto start = i;
    const auto cp = next_code_point(text, i);
    if (cp && is_invisible(*cp))
      continue;
    if (char a = cp ? ascii_fold(*cp) : 0)
      out.push_back(a);
    else
      out.append(text.substr(start, i - start));
  }
  return out;
}

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
  const auto words = split_words(fold_for_moderation(prompt));
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
