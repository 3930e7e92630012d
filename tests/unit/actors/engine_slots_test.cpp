// The directory's view of the engines' slots: placement on the least loaded
// engine that serves a model, by share of its slots, and never past them.
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

#include "actors/engine_slots.hpp"

using svc::actors::engine_slots;

BOOST_AUTO_TEST_SUITE(actors_engine_slots)

BOOST_AUTO_TEST_CASE(a_job_goes_to_the_least_loaded_engine_of_its_model) {
  engine_slots slots({{"big", 4, {"sdxl"}}, {"small", 1, {"sdxl", "flux"}}}, 99);
  BOOST_TEST(slots.total() == 5);
  std::map<std::string, int> got;
  for (int i = 0; i < 5; ++i)
    ++got[*slots.take("sdxl")];
  BOOST_TEST(got["big"] == 4, "a 4-slot engine takes four for the other's one");
  BOOST_TEST(got["small"] == 1);
  BOOST_TEST(!slots.take("sdxl"), "every slot is taken");
  BOOST_TEST(!slots.can_place("flux"));
  slots.give_back("small");
  BOOST_TEST(slots.can_place("flux"));
  BOOST_TEST(*slots.take("flux") == "small");
  BOOST_TEST(slots.busy() == 5);
}

BOOST_AUTO_TEST_CASE(a_model_no_engine_serves_is_never_placed) {
  engine_slots slots({{"gpu0", 2, {"sdxl"}}}, 99);
  BOOST_TEST(!slots.serves("flux"));
  BOOST_TEST(!slots.can_place("flux"));
  BOOST_TEST(!slots.take("flux"));
  slots.give_back("gpu0"); // nothing taken: nothing changes
  BOOST_TEST(slots.busy() == 0);
}

BOOST_AUTO_TEST_CASE(without_engines_one_local_engine_serves_every_model) {
  engine_slots slots({}, 3);
  BOOST_TEST(slots.total() == 3);
  BOOST_TEST(slots.serves("anything"));
  for (int i = 0; i < 3; ++i)
    BOOST_TEST(*slots.take(i % 2 ? "a" : "b") == "");
  BOOST_TEST(!slots.can_place("a"));
}

BOOST_AUTO_TEST_CASE(a_drained_engine_takes_no_job_until_it_is_resumed) {
  engine_slots slots({{"gpu0", 1, {"sdxl"}}, {"gpu1", 1, {"sdxl"}}}, 99);
  BOOST_TEST(slots.drain("gpu0", true));
  BOOST_TEST(*slots.take("sdxl") == "gpu1");
  BOOST_TEST(!slots.can_place("sdxl"), "the drained engine's slot is not offered");
  BOOST_TEST(slots.serves("sdxl"), "its jobs wait rather than fail");
  BOOST_TEST(slots.view()[0].state == "draining");
  BOOST_TEST(slots.drain("gpu0", false));
  BOOST_TEST(*slots.take("sdxl") == "gpu0");
  BOOST_TEST(!slots.drain("gpu9", true));
}

BOOST_AUTO_TEST_CASE(two_failed_probes_take_an_engine_down_and_one_passed_brings_it_back) {
  using change = engine_slots::health_change;
  engine_slots slots({{"gpu0", 1, {"sdxl"}}}, 99);
  BOOST_TEST((slots.probed("gpu0", "refused") == change::none), "one lost probe is not enough");
  BOOST_TEST(slots.can_place("sdxl"));
  BOOST_TEST((slots.probed("gpu0", "refused again") == change::went_down));
  BOOST_TEST(!slots.can_place("sdxl"));
  auto seen = slots.view()[0];
  BOOST_TEST(seen.state == "down");
  BOOST_TEST(seen.last_error == "refused again");
  BOOST_TEST((slots.probed("gpu0", "still refused") == change::none), "down once, not again");
  BOOST_TEST((slots.probed("gpu0", "") == change::came_up));
  BOOST_TEST(slots.can_place("sdxl"));
  BOOST_TEST(slots.view()[0].last_error == "still refused", "the last error stays to be read");
  BOOST_TEST((slots.render_failed("gpu0") == change::none));
  slots.count_render("gpu0", true);
  BOOST_TEST((slots.render_failed("gpu0") == change::none), "a success between two failures breaks the run");
  BOOST_TEST((slots.render_failed("gpu0") == change::went_down), "two failed renders in a row take it down");
  BOOST_TEST((slots.render_failed("gpu0") == change::none));
  BOOST_TEST(slots.view()[0].last_error == "its renders failed (provider_unavailable)");
}

BOOST_AUTO_TEST_CASE(an_engine_removed_leaves_with_its_last_render_and_one_added_takes_work) {
  engine_slots slots({{"gpu0", 1, {"sdxl"}}}, 99);
  BOOST_TEST(*slots.take("sdxl") == "gpu0");
  BOOST_TEST(slots.join({"gpu1", 2, {"sdxl"}, "comfyui", "http://127.0.0.1:1"}));
  BOOST_TEST(!slots.join({"gpu1", 1, {"sdxl"}}), "a name is taken once");
  BOOST_TEST(slots.total() == 3);
  BOOST_TEST(slots.leave("gpu0"));
  BOOST_TEST(slots.total() == 2, "a removed engine's slots are not offered");
  BOOST_TEST(slots.view().size() == 1u);
  BOOST_TEST(slots.busy() == 1, "its running render still holds its slot");
  slots.give_back("gpu0");
  BOOST_TEST(slots.busy() == 0);
  BOOST_TEST(!slots.leave("gpu0"), "gone with its last render");
  slots.count_render("gpu1", true);
  slots.count_render("gpu1", false);
  slots.count_render("gpu1", true);
  auto seen = slots.view()[0];
  BOOST_TEST(seen.renders_done == 2);
  BOOST_TEST(seen.renders_failed == 1);
}

BOOST_AUTO_TEST_SUITE_END()
