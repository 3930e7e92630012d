#include "actors/job.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

#include "job_fixture.hpp"
#include "persistence/value_codec.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_job_on_full_store)

// Jobs admitted before the store filled up: their progress and settlement
// still commit, where new work is refused, so each ends once and the team's
// books add up (issue 30: such a job retried its settlement for ever).

namespace {

using namespace svc::actors;
using namespace svc::schema;
namespace persistence = svc::persistence;

constexpr uint64_t small_map = uint64_t{2} << 20;

// A prompt whose job row and event are longer than half a page: each takes
// overflow pages of its own, so writing them grows the store.
std::string long_prompt(const std::string& tag) { return std::string(3000, 'p') + " " + tag; }

struct full_store_jobs : svc::test::job_fixture {
  // With URLs, a job's end commits its event too: a new row of overflow pages.
  full_store_jobs() : job_fixture(small_map) {
    urls = std::make_shared<svc::actors::public_urls>(svc::actors::public_urls{"https://svc.test", "secret"});
  }

  /// Fills the store with new work (rows of `bytes`) until it refuses one.
  int fill_with(std::size_t bytes, int first) {
    int i = first;
    for (; i < first + 10000; ++i) {
      persistence::write_batch b;
      b.put(persistence::table::meta, "filler/" + std::to_string(i), persistence::encode_text(std::string(bytes, 'f')));
      auto st = env->commit(b);
      if (!st.ok()) {
        BOOST_REQUIRE_MESSAGE(st.out_of_room, st.message);
        return i;
      }
    }
    BOOST_FAIL("a 2 MiB map took " << 10000 * bytes << " bytes");
    return i;
  }

  /// Fills the store until not one more page of new work fits.
  void fill() { fill_with(3000, fill_with(20000, 0)); }

  /// The code a create of `prompt` is answered with (none: admitted).
  std::optional<error_code> create_refusal(const std::string& prompt) {
    auto r = ask<admission_result>(jobs, create_atom::value, job_admission{make_job(prompt), std::nullopt});
    BOOST_REQUIRE(r.answered);
    if (r.value)
      return std::nullopt;
    return code_of(r.error);
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_job_admitted_before_the_store_filled_renders_and_is_charged_once, full_store_jobs) {
  start(scripted);
  auto j = create(make_job(long_prompt("[hold]"), 40));
  BOOST_REQUIRE(reaches(j.id, job_status::processing));
  fill();
  BOOST_TEST((create_refusal(long_prompt("after the fill")) == error_code::insufficient_storage));

  scripted.release();
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::succeeded));
  BOOST_TEST((r.cost_status == hold_status::charged));
  BOOST_TEST(balance_is(opening - 40, 0));
  BOOST_TEST(!holds(j.id));
  BOOST_TEST(usage_of(*r.completed_at)->credits_charged == 40);
  // New work is still refused: accepted work used only its share of the reserve.
  BOOST_TEST((create_refusal(long_prompt("once it ended")) == error_code::insufficient_storage));
}

BOOST_FIXTURE_TEST_CASE(a_job_cancelled_on_a_full_store_is_refunded_once, full_store_jobs) {
  start(scripted);
  auto j = create(make_job(long_prompt("[hold]"), 40));
  BOOST_REQUIRE(reaches(j.id, job_status::processing));
  fill();

  auto cancelled = ask<job_record>(jobs, cancel_atom::value, team, j.id);
  BOOST_REQUIRE(cancelled.value);
  auto r = finish(j.id);
  BOOST_TEST((r.status == job_status::cancelled));
  check_refunded(r);
  BOOST_TEST(balance_is(opening, 0));
}

BOOST_AUTO_TEST_SUITE_END()
