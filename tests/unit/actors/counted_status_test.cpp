#include "actors/counted_status.hpp"

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <cstdint>

BOOST_AUTO_TEST_SUITE(actors_counted_status)

namespace {

using svc::actors::count_words;
using svc::actors::counted_status;

// Just what `mailbox_depth` reads of an actor: a queue holding `waiting` messages.
struct fake_self {
  struct queue_type {
    std::size_t waiting = 0;
    std::size_t total_task_size() const { return waiting; }
  };
  struct mailbox_type {
    queue_type q;
    queue_type& queue() { return q; }
  };
  mailbox_type box;
  mailbox_type& mailbox() { return box; }
};

} // namespace

BOOST_AUTO_TEST_CASE(counts_are_words_in_the_order_given) {
  BOOST_TEST(count_words({{"stored", 3}, {"failed", 0}}) == "stored=3 failed=0");
  BOOST_TEST(count_words({{"teams", 12}}) == "teams=12");
  BOOST_TEST(count_words({{"available", -5}, {"held", INT64_MAX}}) == "available=-5 held=9223372036854775807");
  BOOST_TEST(count_words({}) == "");
}

BOOST_AUTO_TEST_CASE(the_status_carries_the_counts_and_the_mailbox_depth) {
  fake_self self;
  self.box.q.waiting = 4;
  uint64_t created = 2, changes = 7;
  auto status = counted_status(&self, {{"created", created}, {"changes", changes}});
  BOOST_TEST(status.state == "created=2 changes=7");
  BOOST_TEST(status.mailbox == 4u);
}

BOOST_AUTO_TEST_SUITE_END()
