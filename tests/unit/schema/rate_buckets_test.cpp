#include "schema/rate_buckets.hpp"

#include <boost/test/unit_test.hpp>

#include <iterator>
#include <set>
#include <string>
#include <string_view>

BOOST_AUTO_TEST_SUITE(schema_rate_buckets)

namespace {

using svc::schema::bucket_class;
using svc::schema::bucket_table;

struct contract_row {
  bucket_class cls;
  std::string_view name;
  double capacity;
  double per_minute;
};

// The contract's numbers (spec "Limits", decisions "Limits").
constexpr contract_row contract[] = {
  {bucket_class::images_post, "images_post", 120, 60},
  {bucket_class::reads, "reads", 1200, 600},
  {bucket_class::files_post, "files_post", 60, 30},
  {bucket_class::webhook_endpoints_post, "webhook_endpoints_post", 10, 10},
  {bucket_class::webhooks_test, "webhooks_test", 30, 30},
  {bucket_class::webhook_replay_events, "webhook_replay_events", 1000, 100}, // ours: replayed events
  {bucket_class::anonymous, "anonymous", 600, 300},
};

} // namespace

BOOST_AUTO_TEST_CASE(table_matches_the_contract) {
  auto& table = bucket_table();
  BOOST_REQUIRE_EQUAL(table.size(), std::size(contract));
  for (std::size_t i = 0; i < table.size(); ++i) {
    BOOST_TEST(static_cast<int>(table[i].cls) == static_cast<int>(contract[i].cls), "row " << i);
    BOOST_TEST(static_cast<std::size_t>(table[i].cls) == i);
    BOOST_TEST(table[i].name == contract[i].name);
    BOOST_TEST(table[i].limits.capacity == contract[i].capacity, contract[i].name);
    BOOST_TEST(table[i].limits.per_minute == contract[i].per_minute, contract[i].name);
  }
}

BOOST_AUTO_TEST_CASE(info_and_names_agree_with_the_table) {
  for (auto& row : contract) {
    auto& info = svc::schema::info(row.cls);
    BOOST_TEST(info.name == row.name);
    BOOST_TEST(info.limits.capacity == row.capacity);
    BOOST_TEST(svc::schema::to_string(row.cls) == row.name);
    auto back = svc::schema::bucket_class_from_name(row.name);
    BOOST_REQUIRE(back.has_value());
    BOOST_TEST(static_cast<int>(*back) == static_cast<int>(row.cls));
  }
  BOOST_TEST(!svc::schema::bucket_class_from_name("").has_value());
  BOOST_TEST(!svc::schema::bucket_class_from_name("images").has_value());
  BOOST_TEST(!svc::schema::bucket_class_from_name("Reads").has_value());
}

BOOST_AUTO_TEST_CASE(names_are_unique) {
  std::set<std::string_view> names;
  for (auto& row : bucket_table())
    BOOST_TEST(names.insert(row.name).second, row.name);
}

BOOST_AUTO_TEST_CASE(every_class_but_anonymous_belongs_to_a_team) {
  std::size_t team_classes = 0;
  for (auto& row : bucket_table())
    team_classes += row.cls != bucket_class::anonymous;
  BOOST_TEST(team_classes == svc::schema::team_bucket_count);
  BOOST_TEST(svc::schema::team_bucket_count == 6u);
}

BOOST_AUTO_TEST_CASE(refill_never_exceeds_burst) {
  for (auto& row : bucket_table()) {
    BOOST_TEST(row.limits.capacity > 0, row.name);
    BOOST_TEST(row.limits.per_minute > 0, row.name);
    BOOST_TEST(row.limits.per_minute <= row.limits.capacity, row.name);
  }
}

BOOST_AUTO_TEST_SUITE_END()
