#include "actors/endpoint_writes.hpp"

#include <boost/test/unit_test.hpp>

#include "faulty_store.hpp"
#include "schema/webhook_signature.hpp"
#include "webhook_fixture.hpp"

BOOST_AUTO_TEST_SUITE(actors_endpoint_writes)

// The endpoint's writes when commits fail: a client's change (rotate,
// patch) reaches memory only once durable, so a failed commit leaves the
// deliveries as they were; a background write (a delivery row, the failure
// count) is retried until it lands, in order.

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using svc::schema::webhook_endpoint_record;
using svc::test::ok_answer;

struct failing_writes : svc::test::webhook_fixture {
  svc::test::store_switch failing = std::make_shared<std::atomic<bool>>(false);

  /// An endpoint whose commits go through the faulty store.
  svc::actors::endpoint_actor spawn_behind_switch(const webhook_endpoint_record& e) {
    auto c = ctx();
    c.store = track(sys.spawn(svc::test::faulty_store, store, failing));
    auto h = track(sys.spawn(svc::actors::endpoint, c, services(), e));
    run_pending();
    return h;
  }

  /// Hands one new task of a stored event to `ep`; the post it made.
  const svc::test::scripted_transport::call& deliver_one(const svc::actors::endpoint_actor& ep,
                                                          const webhook_endpoint_record& e) {
    auto ev = make_event();
    store_event(ev);
    auto task = make_task(e, ev);
    store_task(task);
    auto before = transport.size();
    deliver(ep, task);
    BOOST_REQUIRE(transport.size() == before + 1);
    return transport.at(before);
  }

  static bool signed_with(const svc::test::scripted_transport::call& c, const std::string& secret, int64_t t) {
    return c.header("Svc-Webhook-Signature") == svc::schema::signature_header(secret, t, c.post.body);
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(endpoint_writes_suite, failing_writes)

BOOST_AUTO_TEST_CASE(a_rotation_whose_commit_fails_keeps_signing_with_the_old_secret) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_behind_switch(e);
  *failing = true;
  auto rotated = ask<webhook_endpoint_record>(ep, rotate_atom::value);
  BOOST_REQUIRE(rotated.answered);
  BOOST_TEST(!rotated.value);
  BOOST_TEST(stored(e.id).secret == e.secret);
  *failing = false;
  auto& c = deliver_one(ep, e);
  auto t = svc::core::to_unix_ms(now()) / 1000;
  BOOST_TEST(signed_with(c, e.secret, t), "the client never received a new secret");
  // A rotation that lands signs with its secret from then on.
  auto again = ask<webhook_endpoint_record>(ep, rotate_atom::value);
  BOOST_REQUIRE(again.value);
  BOOST_TEST(signed_with(deliver_one(ep, e), again.value->secret, t));
}

BOOST_AUTO_TEST_CASE(a_patch_whose_commit_fails_changes_nothing) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_behind_switch(e);
  *failing = true;
  endpoint_patch p;
  p.url = "https://elsewhere.example/hook";
  p.is_active = false;
  auto patched = ask<webhook_endpoint_record>(ep, patch_atom::value, p);
  BOOST_REQUIRE(patched.answered);
  BOOST_TEST(!patched.value);
  *failing = false;
  BOOST_TEST(stored(e.id).url == e.url);
  BOOST_TEST(stored(e.id).is_active);
  BOOST_TEST(deliver_one(ep, e).post.url == e.url, "still active, at its old address");
}

BOOST_AUTO_TEST_CASE(a_background_write_that_fails_is_retried_until_it_lands) {
  auto e = make_endpoint();
  e.consecutive_failures = 2;
  store_endpoint(e);
  auto ep = spawn_behind_switch(e);
  deliver_one(ep, e);
  *failing = true;
  answer(0, ok_answer());
  BOOST_TEST(deliveries_of(e.id).empty());
  BOOST_TEST(tasks_of(e.id).size() == 1u);
  advance(1s); // the first retry fails too; the pause doubles
  BOOST_TEST(deliveries_of(e.id).empty());
  *failing = false;
  advance(2s);
  auto rows = deliveries_of(e.id);
  BOOST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].succeeded);
  BOOST_TEST(tasks_of(e.id).empty());
  BOOST_TEST(stored(e.id).consecutive_failures == 0);
  BOOST_TEST(stored(e.id).last_success_at.has_value());
  BOOST_TEST(transport.size() == 1u, "landed without a second attempt");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_CASE(nothing_is_written_after_the_delete_lands, failing_writes) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_behind_switch(e);
  deliver_one(ep, e);
  // The delete commits first; the attempt's answer, queued behind it, must
  // not put the record back (found by the crash campaign).
  self->send(ep, svc::actors::delete_atom::value);
  transport.answer(0, ok_answer());
  run_pending();
  auto deleted = receive<bool>();
  BOOST_REQUIRE(deleted.value);
  BOOST_TEST(!svc::test::found(tables.webhook_endpoints.get(e.id)).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
