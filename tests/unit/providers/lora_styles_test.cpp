#include "providers/lora_styles.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "providers/scene.hpp"
#include "providers/scene_plan.hpp"
#include "schema/builtin_loras.hpp"

BOOST_AUTO_TEST_SUITE(providers_lora_styles)

using namespace svc::providers;

namespace {

image scene(int w = 128, int h = 96) {
  render_request req;
  req.prompt = "a meadow with flowers at noon";
  image img(w, h);
  BOOST_REQUIRE(paint_scene(plan_scene(req, 5), img, cancel_token{}, {}));
  return img;
}

double mean_saturation(const image& img) {
  double sum = 0;
  for (const auto& p : img.px) {
    const float hi = std::max({p.r, p.g, p.b}), lo = std::min({p.r, p.g, p.b});
    sum += hi - lo;
  }
  return sum / static_cast<double>(img.px.size());
}

bool same(const image& a, const image& b) {
  for (std::size_t i = 0; i < a.px.size(); ++i)
    if (a.px[i].r != b.px[i].r || a.px[i].g != b.px[i].g || a.px[i].b != b.px[i].b) return false;
  return true;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_builtin_catalogue_slug_has_a_style) {
  const auto& catalogue = svc::schema::builtin_loras();
  BOOST_TEST(catalogue.size() == 8u);
  for (const auto& lora : catalogue) {
    const auto s = style_from_slug(lora.slug);
    BOOST_TEST_INFO("slug " << lora.slug);
    BOOST_REQUIRE(s);
    BOOST_TEST(to_slug(*s) == lora.slug);
  }
}

BOOST_AUTO_TEST_CASE(unknown_slugs_are_ignored) {
  BOOST_TEST(!style_from_slug("vaporwave"));
  BOOST_TEST(!style_from_slug("Watercolor")); // slugs are exact
  BOOST_TEST(resolve_styles({{"vaporwave", 1.0}, {"", 2.0}}).empty());
}

BOOST_AUTO_TEST_CASE(duplicates_add_up_and_zero_sums_drop_out) {
  const auto r = resolve_styles({{"watercolor", 0.4}, {"neon-noir", 0.5}, {"watercolor", 0.3}, {"neon-noir", -0.5}});
  BOOST_REQUIRE(r.size() == 1u);
  BOOST_TEST((r[0].kind == style::watercolor));
  BOOST_TEST(r[0].weight == 0.7f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(resolve_styles({{"pixel-art", 0.0}}).empty());
}

BOOST_AUTO_TEST_CASE(sums_are_clamped_to_plus_minus_two) {
  const auto r = resolve_styles({{"pixel-art", 1.5}, {"pixel-art", 1.5}, {"ukiyo-e", -1.5}, {"ukiyo-e", -1.5}});
  BOOST_REQUIRE(r.size() == 2u);
  BOOST_TEST(r[0].weight == -2.f); // ukiyo-e applies before pixel-art
  BOOST_TEST(r[1].weight == 2.f);
}

BOOST_AUTO_TEST_CASE(application_order_does_not_depend_on_request_order) {
  const auto a = resolve_styles({{"pixel-art", 1.0}, {"low-poly", 0.5}, {"watercolor", 1.0}});
  const auto b = resolve_styles({{"watercolor", 1.0}, {"pixel-art", 1.0}, {"low-poly", 0.5}});
  BOOST_REQUIRE(a.size() == 3u);
  BOOST_REQUIRE(b.size() == 3u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    BOOST_TEST((a[i].kind == b[i].kind));
    BOOST_TEST(a[i].weight == b[i].weight);
  }
  BOOST_TEST((a.front().kind == style::low_poly)); // geometry first
  BOOST_TEST((a.back().kind == style::pixel_art)); // quantisation last
}

BOOST_AUTO_TEST_CASE(no_styles_leave_the_image_unchanged) {
  image img = scene();
  const image before = img;
  BOOST_TEST(apply_styles(img, {}, 1, cancel_token{}, {}));
  BOOST_TEST(same(img, before));
}

BOOST_AUTO_TEST_CASE(every_style_changes_the_image) {
  const image base = scene();
  for (const auto& lora : svc::schema::builtin_loras()) {
    image img = base;
    BOOST_TEST_INFO("slug " << lora.slug);
    BOOST_TEST(apply_styles(img, resolve_styles({{std::string(lora.slug), 1.0}}), 1, cancel_token{}, {}));
    BOOST_TEST(!same(img, base));
  }
}

BOOST_AUTO_TEST_CASE(negative_weight_pushes_away_from_the_style) {
  // Pencil sketch is greyscale: towards it loses colour, away from it gains some.
  const image base = scene();
  image toward = base, away = base;
  BOOST_REQUIRE(apply_styles(toward, resolve_styles({{"pencil-sketch", 1.0}}), 1, cancel_token{}, {}));
  BOOST_REQUIRE(apply_styles(away, resolve_styles({{"pencil-sketch", -1.0}}), 1, cancel_token{}, {}));
  BOOST_TEST(mean_saturation(toward) < 0.3 * mean_saturation(base));
  BOOST_TEST(mean_saturation(away) > mean_saturation(base));
}

BOOST_AUTO_TEST_CASE(partial_weight_blends_part_of_the_way) {
  const image base = scene();
  image half = base, full = base;
  BOOST_REQUIRE(apply_styles(half, resolve_styles({{"pencil-sketch", 0.5}}), 1, cancel_token{}, {}));
  BOOST_REQUIRE(apply_styles(full, resolve_styles({{"pencil-sketch", 1.0}}), 1, cancel_token{}, {}));
  BOOST_TEST(mean_saturation(full) < mean_saturation(half));
  BOOST_TEST(mean_saturation(half) < mean_saturation(base));
}

BOOST_AUTO_TEST_CASE(progress_reaches_one_per_style_list) {
  image img = scene();
  std::vector<float> seen;
  BOOST_REQUIRE(apply_styles(img, resolve_styles({{"watercolor", 1.0}, {"pixel-art", 1.0}}), 1, cancel_token{},
                             [&](float f) { seen.push_back(f); }));
  BOOST_REQUIRE(seen.size() == 2u);
  BOOST_TEST(seen[0] == 0.5f);
  BOOST_TEST(seen[1] == 1.f);
}

BOOST_AUTO_TEST_CASE(a_cancelled_token_stops_before_the_next_style) {
  image img = scene();
  cancel_token t;
  t.cancel();
  BOOST_TEST(!apply_styles(img, resolve_styles({{"watercolor", 1.0}}), 1, t, {}));
}

BOOST_AUTO_TEST_SUITE_END()
