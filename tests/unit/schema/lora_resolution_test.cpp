#include "schema/lora_resolution.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "core/ids.hpp"
#include "schema/builtin_loras.hpp"

BOOST_AUTO_TEST_SUITE(schema_lora_resolution)

namespace {

using namespace svc::schema;

// The built-in catalogue with fresh ids, in its display order:
// watercolor, neon-noir, oil-painting, pixel-art, ukiyo-e, pencil-sketch, low-poly, pastel-dream.
std::vector<lora_record> catalogue() {
  std::vector<lora_record> all;
  for (auto& b : builtin_loras()) {
    lora_record l;
    l.id = svc::core::make_id("lora");
    l.slug = std::string{b.slug};
    l.name = std::string{b.name};
    for (auto k : b.keywords)
      l.keywords.emplace_back(k);
    l.builtin = true;
    all.push_back(std::move(l));
  }
  return all;
}

const lora_record& by_slug(const std::vector<lora_record>& c, std::string_view slug) {
  for (auto& l : c)
    if (l.slug == slug)
      return l;
  BOOST_FAIL("no slug " << slug);
  return c.front();
}

bool fits_all(const std::string&) { return true; }

generation_request prompt_only(std::string prompt) {
  generation_request r;
  r.prompt = std::move(prompt);
  return r;
}

lora_resolution ok(const generation_request& r, const std::vector<lora_record>& c) {
  auto res = resolve_loras(r, c, fits_all);
  BOOST_REQUIRE_MESSAGE(res, "rejected: " << (res ? "" : res.error().message));
  return res.value();
}

void rejects(const generation_request& r, const std::vector<lora_record>& c, std::string_view param) {
  auto res = resolve_loras(r, c, fits_all);
  BOOST_REQUIRE_MESSAGE(!res, "accepted; expected an error for " << param);
  BOOST_TEST(to_string(res.error().code) == "invalid_parameter");
  BOOST_TEST(res.error().param == param);
}

// The slug chosen automatically for `prompt`, or "" for none.
std::string auto_slug(const std::string& prompt, const std::vector<lora_record>& c) {
  auto res = ok(prompt_only(prompt), c);
  if (res.selection == lora_selection::none) {
    BOOST_TEST(res.loras.empty());
    return "";
  }
  BOOST_TEST((res.selection == lora_selection::automatic));
  BOOST_REQUIRE(res.loras.size() == 1u);
  BOOST_TEST(res.loras[0].weight == 1.0);
  BOOST_TEST(res.loras[0].lora_id == by_slug(c, res.loras[0].slug).id);
  return res.loras[0].slug;
}

} // namespace

BOOST_AUTO_TEST_CASE(selection_wire_names) {
  BOOST_TEST(to_string(lora_selection::requested) == "explicit");
  BOOST_TEST(to_string(lora_selection::automatic) == "auto");
  BOOST_TEST(to_string(lora_selection::none) == "none");
  for (auto s : {lora_selection::requested, lora_selection::automatic, lora_selection::none})
    BOOST_TEST((lora_selection_from_name(to_string(s)) == s));
  BOOST_TEST(!lora_selection_from_name("Explicit").has_value());
  BOOST_TEST(!lora_selection_from_name("").has_value());
}

BOOST_AUTO_TEST_CASE(lora_id_resolves_by_id_or_slug_at_weight_1) {
  auto c = catalogue();
  auto& pixel = by_slug(c, "pixel-art");
  for (auto name : {pixel.id, pixel.slug}) {
    auto r = prompt_only("a watercolor fox"); // keywords are ignored when a LoRA is named
    r.lora_id = name;
    auto res = ok(r, c);
    BOOST_TEST((res.selection == lora_selection::requested));
    BOOST_REQUIRE(res.loras.size() == 1u);
    BOOST_TEST(res.loras[0].lora_id == pixel.id);
    BOOST_TEST(res.loras[0].slug == "pixel-art");
    BOOST_TEST(res.loras[0].weight == 1.0);
  }
}

BOOST_AUTO_TEST_CASE(unknown_lora_id_names_the_param) {
  auto c = catalogue();
  for (auto& bad : std::vector<std::string>{"no-such-style", "Watercolor", "watercolor ", svc::core::make_id("lora"), "lora_"}) {
    auto r = prompt_only("x");
    r.lora_id = bad;
    BOOST_TEST_CONTEXT(bad) { rejects(r, c, "lora_id"); }
  }
  auto r = prompt_only("x");
  r.lora_id = "nope";
  auto res = resolve_loras(r, c, fits_all);
  BOOST_TEST(res.error().message == "Invalid value for 'lora_id': no LoRA with id or slug 'nope'; GET /v1/loras lists them.");
  rejects(r, {}, "lora_id");
}

BOOST_AUTO_TEST_CASE(loras_resolve_in_order_with_their_weights) {
  auto c = catalogue();
  auto r = prompt_only("x");
  r.loras = {{by_slug(c, "ukiyo-e").id, 0.5}, {"neon-noir", -1.5}, {"low-poly", 2.0}};
  auto res = ok(r, c);
  BOOST_TEST((res.selection == lora_selection::requested));
  BOOST_REQUIRE(res.loras.size() == 3u);
  BOOST_TEST(res.loras[0].slug == "ukiyo-e");
  BOOST_TEST(res.loras[0].lora_id == by_slug(c, "ukiyo-e").id);
  BOOST_TEST(res.loras[0].weight == 0.5);
  BOOST_TEST(res.loras[1].slug == "neon-noir");
  BOOST_TEST(res.loras[1].lora_id == by_slug(c, "neon-noir").id);
  BOOST_TEST(res.loras[1].weight == -1.5);
  BOOST_TEST(res.loras[2].slug == "low-poly");
  BOOST_TEST(res.loras[2].weight == 2.0);
}

BOOST_AUTO_TEST_CASE(unknown_entry_in_loras_names_its_index) {
  auto c = catalogue();
  auto r = prompt_only("x");
  r.loras = {{"watercolor", 1}, {"pixel-art", 1}, {"vaporwave", 1}};
  rejects(r, c, "loras[2].lora");
  r.loras = {{"vaporwave", 1}, {"nope", 1}};
  rejects(r, c, "loras[0].lora");
}

BOOST_AUTO_TEST_CASE(the_same_adapter_twice_is_rejected) {
  auto c = catalogue();
  auto r = prompt_only("x");
  r.loras = {{"watercolor", 1}, {"watercolor", 0.5}};
  rejects(r, c, "loras[1].lora");
  // By id and by slug is still the same adapter.
  r.loras = {{"pixel-art", 1}, {"neon-noir", 1}, {by_slug(c, "pixel-art").id, 0.2}};
  rejects(r, c, "loras[2].lora");
  auto res = resolve_loras(r, c, fits_all);
  BOOST_TEST(res.error().message == "Invalid value for 'loras[2].lora': names the same LoRA as loras[0].lora.");
}

BOOST_AUTO_TEST_CASE(auto_picks_by_prompt_keywords) {
  auto c = catalogue();
  BOOST_TEST(auto_slug("a neon city at night", c) == "neon-noir");
  BOOST_TEST(auto_slug("a 16-bit sprite of a knight", c) == "pixel-art");
  BOOST_TEST(auto_slug("The Great Wave, woodblock print", c) == "ukiyo-e");
  BOOST_TEST(auto_slug("ukiyo-e cat", c) == "ukiyo-e");
  BOOST_TEST(auto_slug("a low-poly fox", c) == "low-poly");
  BOOST_TEST(auto_slug("graphite sketch of a hand", c) == "pencil-sketch");
}

BOOST_AUTO_TEST_CASE(auto_ignores_ascii_case) {
  auto c = catalogue();
  BOOST_TEST(auto_slug("NEON Noir Alley", c) == "neon-noir");
  BOOST_TEST(auto_slug("Pixel ART", c) == "pixel-art");
}

BOOST_AUTO_TEST_CASE(auto_matches_whole_words_only) {
  auto c = catalogue();
  BOOST_TEST(auto_slug("a photo of a cat", c) == "");
  BOOST_TEST(auto_slug("softly lit neonlights", c) == "");        // no whole word
  BOOST_TEST(auto_slug("pixelated oilfield", c) == "");
  BOOST_TEST(auto_slug("watercolor-style fox", c) == "watercolor"); // hyphen separates
  BOOST_TEST(auto_slug("neon's glow", c) == "neon-noir");
  BOOST_TEST(auto_slug("(pastel)", c) == "pastel-dream");
  BOOST_TEST(auto_slug("caf\xc3\xa9neon", c) == "");                // non-ASCII letters join words
}

BOOST_AUTO_TEST_CASE(auto_prefers_more_keywords_then_catalogue_order) {
  auto c = catalogue();
  // watercolor: soft (1); pastel-dream: pastel, dreamy, soft (3).
  BOOST_TEST(auto_slug("soft pastel dreamy clouds", c) == "pastel-dream");
  // watercolor: painted (1); oil-painting: painting (1): a tie, the earlier entry wins.
  BOOST_TEST(auto_slug("a painted wall and a painting", c) == "watercolor");
  // oil-painting: oil, painting, portrait (3) beats watercolor: painted, soft (2).
  BOOST_TEST(auto_slug("soft painted oil painting portrait", c) == "oil-painting");
  // "soft" is a keyword of watercolor and pastel-dream: watercolor is earlier.
  BOOST_TEST(auto_slug("soft", c) == "watercolor");
  // Reordering the catalogue changes the tie-break and nothing else.
  std::vector<lora_record> reversed{c.rbegin(), c.rend()};
  BOOST_TEST(auto_slug("soft", reversed) == "pastel-dream");
  BOOST_TEST(auto_slug("soft pastel dreamy clouds", reversed) == "pastel-dream");
}

BOOST_AUTO_TEST_CASE(auto_reads_the_prompt_not_the_negative_prompt) {
  auto c = catalogue();
  auto r = prompt_only("a cat");
  r.negative_prompt = "neon night city";
  auto res = ok(r, c);
  BOOST_TEST((res.selection == lora_selection::none));
  BOOST_TEST(res.loras.empty());
}

BOOST_AUTO_TEST_CASE(empty_catalogue_selects_none) {
  auto res = ok(prompt_only("neon city at night"), {});
  BOOST_TEST((res.selection == lora_selection::none));
  BOOST_TEST(res.loras.empty());
}

BOOST_AUTO_TEST_CASE(keyword_matching_rules) {
  BOOST_TEST(keyword_matches("a 16-bit hero", {"8-bit"}) == 0u);
  BOOST_TEST(keyword_matches("an 8-bit hero", {"8-bit"}) == 1u);
  BOOST_TEST(keyword_matches("an oil painting", {"oil painting"}) == 1u);
  BOOST_TEST(keyword_matches("an oil  painting", {"oil painting"}) == 0u);
  BOOST_TEST(keyword_matches("soft soft soft", {"soft"}) == 1u);
  BOOST_TEST(keyword_matches("soft neon", {"soft", "SOFT", "neon"}) == 2u);
  BOOST_TEST(keyword_matches("Soft", {"sOFT"}) == 1u);
  BOOST_TEST(keyword_matches("anything", {""}) == 0u);
  BOOST_TEST(keyword_matches("", {"soft"}) == 0u);
  BOOST_TEST(keyword_matches("neon3d", {"3d"}) == 0u);
  BOOST_TEST(keyword_matches("neon 3d", {"3d"}) == 1u);
  BOOST_TEST(keyword_matches("softer soft", {"soft"}) == 1u); // a later whole-word occurrence counts
}

BOOST_AUTO_TEST_CASE(an_adapter_that_does_not_fit_the_model_is_rejected) {
  auto c = catalogue();
  auto only_watercolor = [](const std::string& slug) { return slug == "watercolor"; };
  auto r = prompt_only("x");
  r.lora_id = "pixel-art";
  auto res = resolve_loras(r, c, only_watercolor);
  BOOST_REQUIRE(!res);
  BOOST_TEST(res.error().param == "lora_id");
  BOOST_TEST(res.error().message.find("does not fit the model") != std::string::npos);
  r.lora_id.reset();
  r.loras = {{"watercolor", 1}, {"neon-noir", 1}};
  res = resolve_loras(r, c, only_watercolor);
  BOOST_REQUIRE(!res);
  BOOST_TEST(res.error().param == "loras[1].lora");
  // Chosen by keywords, an adapter that does not fit is passed over.
  auto picked = resolve_loras(prompt_only("a neon city in watercolor"), c, only_watercolor);
  BOOST_REQUIRE(picked);
  BOOST_REQUIRE(picked.value().loras.size() == 1u);
  BOOST_TEST(picked.value().loras[0].slug == "watercolor");
  auto none = resolve_loras(prompt_only("a neon city at night"), c, only_watercolor);
  BOOST_TEST((none.value().selection == lora_selection::none));
}

BOOST_AUTO_TEST_SUITE_END()
