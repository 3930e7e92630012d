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

BOOST_AUTO_TEST_SUITE_END()
