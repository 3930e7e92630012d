#include "schema/lora_resolution.hpp"

#include <set>

#include "core/enum_names.hpp"
#include "schema/utf8.hpp"

namespace svc::schema {
namespace {

// Non-ASCII bytes count as word characters so that a keyword never matches
// inside a word of another script; hyphens and apostrophes separate words, so
// `soft` matches "soft-focus" and "neon's".
bool is_word_char(char c) {
  auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
}

std::string ascii_lower(std::string_view s) {
  std::string out{s};
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool contains_phrase(const std::string& text, const std::string& phrase) {
  for (auto at = text.find(phrase); at != std::string::npos; at = text.find(phrase, at + 1)) {
    auto end = at + phrase.size();
    bool starts = at == 0 || !is_word_char(text[at - 1]);
    bool ends = end == text.size() || !is_word_char(text[end]);
    if (starts && ends)
      return true;
  }
  return false;
}

const lora_record* find_lora(const std::vector<lora_record>& catalogue, std::string_view name) {
  for (auto& l : catalogue)
    if (l.id == name || l.slug == name)
      return &l;
  return nullptr;
}

api_error unknown_lora(std::string_view name, std::string param) {
  return make_api_error(error_code::invalid_parameter,
                        {{"detail", "no LoRA with id or slug '" + std::string{utf8_prefix(name, 100)}
                                      + "'; GET /v1/loras lists them"}},
                        std::move(param));
}

api_error unfit_lora(const lora_record& l, std::string param) {
  return make_api_error(error_code::invalid_parameter,
                        {{"detail", "the LoRA '" + l.slug + "' does not fit the model (GET /v1/models lists what fits)"}},
                        std::move(param));
}

lora_resolution pick_by_prompt(std::string_view prompt, const std::vector<lora_record>& catalogue, const lora_fit& fits) {
  const lora_record* best = nullptr;
  std::size_t best_score = 0;
  for (auto& l : catalogue) {
    if (!fits(l.slug))
      continue;
    // Strictly greater: on a tie the earlier catalogue entry stays.
    if (auto score = keyword_matches(prompt, l.keywords); score > best_score) {
      best = &l;
      best_score = score;
    }
  }
  if (!best)
    return {};
  return {{{best->id, best->slug, auto_lora_weight}}, lora_selection::automatic};
}

} // namespace

std::string_view to_string(lora_selection s) {
  switch (s) {
    case lora_selection::requested: return "explicit";
    case lora_selection::automatic: return "auto";
    default: return "none";
  }
}

std::optional<lora_selection> lora_selection_from_name(std::string_view name) {
  return core::enum_from_name<lora_selection>(name);
}

std::size_t keyword_matches(std::string_view prompt, const std::vector<std::string>& keywords) {
  auto text = ascii_lower(prompt);
  std::set<std::string> found;
  for (auto& k : keywords) {
    auto phrase = ascii_lower(k);
    if (!phrase.empty() && contains_phrase(text, phrase))
      found.insert(std::move(phrase));
  }
  return found.size();
}

checked<lora_resolution> resolve_loras(const generation_request& r, const std::vector<lora_record>& catalogue,
                                       const lora_fit& fits) {
  if (r.lora_id) {
    auto* l = find_lora(catalogue, *r.lora_id);
    if (!l)
      return unknown_lora(*r.lora_id, "lora_id");
    if (!fits(l->slug))
      return unfit_lora(*l, "lora_id");
    return lora_resolution{{{l->id, l->slug, 1.0}}, lora_selection::requested};
  }
  if (r.loras.empty())
    return pick_by_prompt(r.prompt, catalogue, fits);
  lora_resolution out{{}, lora_selection::requested};
  for (std::size_t i = 0; i < r.loras.size(); ++i) {
    auto param = "loras[" + std::to_string(i) + "].lora";
    auto* l = find_lora(catalogue, r.loras[i].lora);
    if (!l)
      return unknown_lora(r.loras[i].lora, std::move(param));
    if (!fits(l->slug))
      return unfit_lora(*l, std::move(param));
    for (std::size_t j = 0; j < out.loras.size(); ++j)
      if (out.loras[j].lora_id == l->id)
        return make_api_error(error_code::invalid_parameter,
                              {{"detail", "names the same LoRA as loras[" + std::to_string(j) + "].lora"}},
                              std::move(param));
    out.loras.push_back({l->id, l->slug, r.loras[i].weight});
  }
  return checked<lora_resolution>{std::move(out)};
}

} // namespace svc::schema
