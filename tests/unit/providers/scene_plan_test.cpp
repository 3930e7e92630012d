#include "providers/scene_plan.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

BOOST_AUTO_TEST_SUITE(providers_scene_plan)

using namespace svc::providers;

namespace {

render_request request(std::string prompt, std::string negative = {}) {
  render_request r;
  r.prompt = std::move(prompt);
  r.negative_prompt = std::move(negative);
  return r;
}

bool same_colour(rgb a, rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

} // namespace

BOOST_AUTO_TEST_CASE(time_words_set_the_light) {
  for (uint32_t seed = 0; seed < 20; ++seed) {
    BOOST_TEST((plan_scene(request("a harbour at night"), seed).time == time_of_day::night));
    BOOST_TEST((plan_scene(request("golden sunset over hills"), seed).time == time_of_day::sunset));
    BOOST_TEST((plan_scene(request("sunny noon field"), seed).time == time_of_day::day));
  }
}

BOOST_AUTO_TEST_CASE(terrain_words_set_the_land) {
  BOOST_TEST((plan_scene(request("desert dunes"), 1).land == terrain::desert));
  BOOST_TEST((plan_scene(request("snowy pass"), 1).land == terrain::snow));
  BOOST_TEST((plan_scene(request("a city skyline"), 1).land == terrain::city));
  BOOST_TEST((plan_scene(request("city skyline"), 1).front == skyline::city));
  BOOST_TEST((plan_scene(request("deep space nebula"), 1).land == terrain::space));
  const auto lake = plan_scene(request("a calm lake"), 1);
  BOOST_TEST((lake.land == terrain::coast));
  BOOST_TEST(lake.water);
}

BOOST_AUTO_TEST_CASE(negative_prompt_words_are_avoided) {
  for (uint32_t seed = 0; seed < 40; ++seed)
    BOOST_TEST((plan_scene(request("a landscape", "night, dark"), seed).time != time_of_day::night));
  // A word in both prompts counts as not asked for: no forced night.
  int nights = 0;
  for (uint32_t seed = 0; seed < 40; ++seed)
    nights += plan_scene(request("night sky", "night"), seed).time == time_of_day::night;
  BOOST_TEST(nights == 0);
}

BOOST_AUTO_TEST_CASE(same_inputs_give_the_same_plan) {
  const auto a = plan_scene(request("a red fox in the woods"), 7);
  const auto b = plan_scene(request("a red fox in the woods"), 7);
  BOOST_TEST(a.noise_seed == b.noise_seed);
  BOOST_TEST(a.layout_seed == b.layout_seed);
  BOOST_TEST(a.horizon == b.horizon);
  BOOST_TEST(same_colour(a.sky_top, b.sky_top));
}

BOOST_AUTO_TEST_CASE(prompt_and_seed_both_change_the_plan) {
  const auto base = plan_scene(request("a red fox"), 7);
  BOOST_TEST(plan_scene(request("a red fox"), 8).noise_seed != base.noise_seed);
  BOOST_TEST(plan_scene(request("a blue whale"), 7).noise_seed != base.noise_seed);
  BOOST_TEST(plan_scene(request("a red fox", "blur"), 7).noise_seed != base.noise_seed);
}

BOOST_AUTO_TEST_CASE(size_and_loras_do_not_change_the_plan) {
  auto wide = request("a red fox");
  wide.width = 2048;
  wide.height = 512;
  wide.loras = {{"watercolor", 1.0}};
  const auto a = plan_scene(request("a red fox"), 7), b = plan_scene(wide, 7);
  BOOST_TEST(a.noise_seed == b.noise_seed);
  BOOST_TEST(a.style_seed == b.style_seed);
  BOOST_TEST(a.horizon == b.horizon);
}

BOOST_AUTO_TEST_CASE(colour_words_set_the_hue) {
  BOOST_TEST(plan_scene(request("green hills"), 1).hue == 0.33f, boost::test_tools::tolerance(0.01f));
  BOOST_TEST(plan_scene(request("blue hills"), 1).hue == 0.6f, boost::test_tools::tolerance(0.01f));
}

BOOST_AUTO_TEST_CASE(more_steps_add_noise_octaves) {
  auto few = request("hills"), many = request("hills");
  few.steps = 1;
  many.steps = 100;
  BOOST_TEST(plan_scene(few, 1).octaves < plan_scene(many, 1).octaves);
}

BOOST_AUTO_TEST_SUITE_END()
