#include "http/rate_allowance.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

#include "actors/bucket.hpp"

BOOST_AUTO_TEST_SUITE(http_rate_allowance)

namespace {

using namespace svc;
using http::rate_allowances;
using schema::bucket_class;

constexpr auto reads = bucket_class::reads;
constexpr int64_t t0 = 1'800'000'000'000;
constexpr uint64_t writes = 7; // the store's writes of team records, as the request saw them

schema::team_record team(std::string id = "team_1") {
  schema::team_record t;
  t.id = std::move(id);
  t.rate_limit_overrides["reads"] = {100, 60}; // a token a second
  return t;
}

// The bucket actor's verdict after a take that left `remaining` tokens.
actors::rate_decision verdict(int64_t remaining, bool allowed = true) {
  actors::rate_decision d;
  d.allowed = allowed;
  d.limit = 100;
  d.remaining = remaining;
  d.bucket = "reads";
  return d;
}

// Asks the bucket for a take and seeds the copy with its answer.
void seed(rate_allowances& a, const schema::team_record& t, int64_t remaining, int64_t at = t0) {
  a.ask(t.id, reads, at);
  a.answered(t, reads, writes, verdict(remaining), at);
}

} // namespace

BOOST_AUTO_TEST_CASE(nothing_is_decided_before_the_bucket_has_answered) {
  rate_allowances a;
  BOOST_TEST(!a.take(team(), reads, writes, t0));
  a.ask("team_1", reads, t0);
  BOOST_TEST(!a.take(team(), reads, writes, t0), "its answer is still awaited");
}

BOOST_AUTO_TEST_CASE(takes_the_copy_allows_count_down_as_the_bucket_would) {
  rate_allowances a;
  auto t = team();
  seed(a, t, 50);
  // The actor's own arithmetic, fed the same takes at the same times.
  actors::token_bucket bucket{{100, 60}, 50.0, t0};
  for (int64_t i = 0; i < 20; ++i) {
    auto at = t0 + i * 100;
    auto d = a.take(t, reads, writes, at);
    BOOST_REQUIRE(d);
    auto r = bucket.take(at);
    BOOST_TEST(d->allowed);
    BOOST_TEST(d->remaining == r.remaining);
    BOOST_TEST(d->reset_epoch == r.reset_epoch);
    BOOST_TEST(d->limit == 100);
    BOOST_TEST(d->bucket == "reads");
  }
  auto charges = a.uncharged();
  BOOST_REQUIRE(charges.size() == 1u);
  BOOST_TEST(charges[0].team_id == "team_1");
  BOOST_TEST(charges[0].n == 20);
  BOOST_TEST(a.uncharged().empty(), "counted as charged once handed out");
}

BOOST_AUTO_TEST_CASE(a_take_the_copy_would_refuse_goes_to_the_bucket) {
  rate_allowances a;
  auto t = team();
  seed(a, t, 1);
  auto last = a.take(t, reads, writes, t0);
  BOOST_REQUIRE(last);
  BOOST_TEST(last->remaining == 0);
  BOOST_TEST(!a.take(t, reads, writes, t0 + 10), "the 429 and its Retry-After are the bucket's");
  // Refused nothing here: a second later the copy has refilled a token.
  BOOST_TEST(a.take(t, reads, writes, t0 + 1010).has_value());
}

BOOST_AUTO_TEST_CASE(while_the_bucket_decides_it_decides_every_take) {
  rate_allowances a;
  auto t = team();
  seed(a, t, 50);
  BOOST_TEST(a.take(t, reads, writes, t0).has_value());
  BOOST_TEST(a.take(t, reads, writes, t0).has_value());
  // Two takes go to the bucket, the two decided here charged ahead of the first.
  BOOST_TEST(a.ask(t.id, reads, t0) == 2);
  BOOST_TEST(a.ask(t.id, reads, t0) == 0);
  BOOST_TEST(!a.take(t, reads, writes, t0));
  a.answered(t, reads, writes, verdict(46), t0);
  BOOST_TEST(!a.take(t, reads, writes, t0), "the second answer, which counts the first, is awaited");
  a.answered(t, reads, writes, verdict(45), t0);
  auto d = a.take(t, reads, writes, t0);
  BOOST_REQUIRE(d);
  BOOST_TEST(d->remaining == 44);
}

BOOST_AUTO_TEST_CASE(a_changed_team_record_or_an_old_copy_goes_to_the_bucket) {
  rate_allowances a;
  auto t = team();
  seed(a, t, 50);
  BOOST_TEST(!a.take(t, reads, writes + 1, t0), "a team record was written since the copy was made: new limits?");
  BOOST_TEST(a.take(t, reads, writes, t0 + rate_allowances::resync_after.count() - 1).has_value());
  BOOST_TEST(!a.take(t, reads, writes, t0 + rate_allowances::resync_after.count()));
}

BOOST_AUTO_TEST_CASE(the_copy_has_the_limits_of_the_team_record) {
  rate_allowances a;
  auto t = team();
  t.rate_limit_overrides.clear(); // the defaults of the class: 1200, 600 a minute
  a.ask(t.id, reads, t0);
  actors::rate_decision d = verdict(1199);
  d.limit = 1200;
  a.answered(t, reads, writes, d, t0);
  auto next = a.take(t, reads, writes, t0);
  BOOST_REQUIRE(next);
  BOOST_TEST(next->limit == 1200);
  BOOST_TEST(next->remaining == 1198);
}

BOOST_AUTO_TEST_CASE(an_unanswered_take_is_given_up_after_a_while) {
  rate_allowances a;
  auto t = team();
  seed(a, t, 50);
  a.ask(t.id, reads, t0); // sent as the bucket exited: never answered
  auto later = t0 + rate_allowances::lost_after.count();
  BOOST_TEST(!a.take(t, reads, writes, later - 1));
  BOOST_TEST(!a.take(t, reads, writes, later), "given up, and nothing known: ask again");
  seed(a, t, 30, later);
  BOOST_TEST(a.take(t, reads, writes, later).has_value());
}

BOOST_AUTO_TEST_CASE(teams_and_classes_are_separate) {
  rate_allowances a;
  auto one = team("team_1"), two = team("team_2");
  seed(a, one, 50);
  BOOST_TEST(!a.take(two, reads, writes, t0));
  BOOST_TEST(!a.take(one, bucket_class::images_post, writes, t0));
  BOOST_TEST(a.take(one, reads, writes, t0).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
