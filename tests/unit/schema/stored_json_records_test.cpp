#include "schema/stored_json.hpp"
#include "schema/records.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <string>
#include <utility>

#include <boost/json.hpp>

#include "tests/support/stored_text.hpp"

BOOST_AUTO_TEST_SUITE(schema_stored_json_records)

namespace {

namespace json = boost::json;
using namespace svc::schema;
using svc::core::from_unix_ms;
using svc::core::to_unix_ms;

team_record sample_team() {
  team_record t;
  t.id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  t.name = "Acme \"Studios\" \xc3\xa9";
  t.owner_email = "owner@acme.test";
  t.default_api_version = "2026-01-15";
  t.balance_low_threshold = 500;
  t.created_at = from_unix_ms(1763720130123);
  t.rate_limit_overrides["reads"] = {50, 25.5};
  t.rate_limit_overrides["images_post"] = {1, 1};
  return t;
}

balance_record sample_balance() {
  return {"team_01KAK3R5N2W9X7Q4V6B8C0D1EF", 9'000'000'000, 40, svc::core::from_unix_ms(1785801600123)};
}

api_key_record sample_key() {
  api_key_record k;
  k.id = "key_01KAK3R5N2W9X7Q4V6B8C0D1EG";
  k.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  k.key_scope = scope::write;
  k.secret_sha256 = std::string(64, 'a');
  k.last4 = "beef";
  k.created_at = from_unix_ms(1763720130123);
  k.deactivate_at = from_unix_ms(1763806530123);
  k.deactivated = true;
  k.replaced_by = "key_01KAK3R5N2W9X7Q4V6B8C0D1EH";
  return k;
}

lora_record sample_lora() {
  lora_record l;
  l.id = "lora_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  l.slug = "neon-noir";
  l.name = "Neon Noir";
  l.description = "Rain-slick night scenes.";
  l.keywords = {"neon", "cyberpunk", "night"};
  l.builtin = true;
  l.created_at = from_unix_ms(1763720130123);
  return l;
}

bucket_snapshot sample_snapshot() {
  bucket_snapshot s;
  s.team_id = "team_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  s.levels["reads"] = {1199.5, 1763720130123};
  s.levels["images_post"] = {0, 1763720130000};
  s.levels["webhooks_test"] = {30, 0};
  return s;
}

void check_equal(const team_record& a, const team_record& b) {
  BOOST_TEST(a.id == b.id);
  BOOST_TEST(a.name == b.name);
  BOOST_TEST(a.owner_email == b.owner_email);
  BOOST_TEST(a.default_api_version == b.default_api_version);
  BOOST_TEST(a.balance_low_threshold == b.balance_low_threshold);
  BOOST_TEST(to_unix_ms(a.created_at) == to_unix_ms(b.created_at));
  BOOST_REQUIRE_EQUAL(a.disabled_at.has_value(), b.disabled_at.has_value());
  if (a.disabled_at)
    BOOST_TEST(to_unix_ms(*a.disabled_at) == to_unix_ms(*b.disabled_at));
  BOOST_TEST(a.disabled_reason == b.disabled_reason);
  BOOST_REQUIRE_EQUAL(a.rate_limit_overrides.size(), b.rate_limit_overrides.size());
  for (auto& [name, l] : a.rate_limit_overrides) {
    BOOST_REQUIRE(b.rate_limit_overrides.count(name) == 1u);
    BOOST_TEST(l.capacity == b.rate_limit_overrides.at(name).capacity, name);
    BOOST_TEST(l.per_minute == b.rate_limit_overrides.at(name).per_minute, name);
  }
}

void check_equal(const balance_record& a, const balance_record& b) {
  BOOST_TEST(a.team_id == b.team_id);
  BOOST_TEST(a.available == b.available);
  BOOST_TEST(a.held == b.held);
  BOOST_TEST((a.low_event_at == b.low_event_at));
}

void check_equal(const api_key_record& a, const api_key_record& b) {
  BOOST_TEST(a.id == b.id);
  BOOST_TEST(a.team_id == b.team_id);
  BOOST_TEST(static_cast<int>(a.key_scope) == static_cast<int>(b.key_scope));
  BOOST_TEST(a.secret_sha256 == b.secret_sha256);
  BOOST_TEST(a.last4 == b.last4);
  BOOST_TEST(to_unix_ms(a.created_at) == to_unix_ms(b.created_at));
  BOOST_REQUIRE_EQUAL(a.deactivate_at.has_value(), b.deactivate_at.has_value());
  if (a.deactivate_at)
    BOOST_TEST(to_unix_ms(*a.deactivate_at) == to_unix_ms(*b.deactivate_at));
  BOOST_TEST(a.deactivated == b.deactivated);
  BOOST_TEST(a.replaced_by == b.replaced_by);
}

void check_equal(const lora_record& a, const lora_record& b) {
  BOOST_TEST(a.id == b.id);
  BOOST_TEST(a.slug == b.slug);
  BOOST_TEST(a.name == b.name);
  BOOST_TEST(a.description == b.description);
  BOOST_TEST(a.keywords == b.keywords, boost::test_tools::per_element());
  BOOST_TEST(a.builtin == b.builtin);
  BOOST_TEST(to_unix_ms(a.created_at) == to_unix_ms(b.created_at));
}

void check_equal(const bucket_snapshot& a, const bucket_snapshot& b) {
  BOOST_TEST(a.team_id == b.team_id);
  BOOST_REQUIRE_EQUAL(a.levels.size(), b.levels.size());
  for (auto& [name, l] : a.levels) {
    BOOST_REQUIRE(b.levels.count(name) == 1u);
    BOOST_TEST(l.tokens == b.levels.at(name).tokens, name);
    BOOST_TEST(l.at_ms == b.levels.at(name).at_ms, name);
  }
}

template <class Record>
void check_round_trip(const Record& r) {
  Record back;
  BOOST_REQUIRE(decode_stored(encode_stored(r), back));
  check_equal(r, back);
  Record stored;
  BOOST_REQUIRE(decode_stored(svc::test::through_text(encode_stored(r)), stored));
  check_equal(r, stored);
}

// A value of another JSON kind than `v`.
json::value mistyped(const json::value& v) {
  if (v.is_string())
    return 42;
  if (v.is_null() || v.is_bool() || v.is_number() || v.is_object() || v.is_array())
    return "wrong";
  return nullptr;
}

// Decoding fails when any one top-level field is missing or has another type.
template <class Record>
void check_rejections(const Record& r, const std::set<std::string>& optional_fields = {}) {
  auto good = encode_stored(r).as_object();
  for (auto& [key, value] : good) {
    std::string name{key};
    auto without = good;
    without.erase(key);
    Record out;
    bool decoded = true;
    BOOST_CHECK_NO_THROW(decoded = decode_stored(without, out));
    if (!optional_fields.count(name))
      BOOST_TEST(!decoded, "decode accepts a record without '" << name << "'");

    auto wrong = good;
    wrong[key] = mistyped(value);
    BOOST_CHECK_NO_THROW(decoded = decode_stored(wrong, out));
    BOOST_TEST(!decoded, "decode accepts '" << name << "' = " << json::serialize(wrong[key]));
  }
}

// Decoding anything but an object fails without throwing.
template <class Record>
void check_non_objects() {
  for (auto text : {"null", "0", "-1", "1.5", "true", "\"team\"", "[]", "[{}]", "{}"}) {
    Record out;
    bool decoded = true;
    BOOST_CHECK_NO_THROW(decoded = decode_stored(json::parse(text), out));
    BOOST_TEST(!decoded, "decode accepts " << text);
  }
}

} // namespace

BOOST_AUTO_TEST_CASE(team_round_trips) {
  check_round_trip(sample_team());
  auto plain = sample_team();
  plain.rate_limit_overrides.clear();
  check_round_trip(plain);
}

BOOST_AUTO_TEST_CASE(a_disabled_team_round_trips_and_teams_stored_before_disabling_existed_decode) {
  auto disabled = sample_team();
  disabled.disabled_at = from_unix_ms(1785801600123);
  disabled.disabled_reason = "unpaid invoice \xc3\xa9";
  check_round_trip(disabled);
  disabled.disabled_reason.clear();
  check_round_trip(disabled);
  BOOST_TEST(encode_stored(disabled).as_object().at("disabled_at").as_int64() == 1785801600123);

  // A record written before `disabled_at` existed is an enabled team.
  auto old = encode_stored(sample_team()).as_object();
  old.erase("disabled_at");
  old.erase("disabled_reason");
  team_record out;
  BOOST_REQUIRE(decode_stored(old, out));
  BOOST_TEST(!out.disabled_at.has_value());
  BOOST_TEST(out.disabled_reason.empty());
}

BOOST_AUTO_TEST_CASE(a_stored_disable_outside_what_an_operator_can_set_is_damaged) {
  auto disabled = sample_team();
  disabled.disabled_at = from_unix_ms(1785801600123);
  team_record out;
  auto long_reason = encode_stored(disabled);
  long_reason.as_object()["disabled_reason"] = std::string(max_disabled_reason + 1, 'x');
  BOOST_TEST(!decode_stored(long_reason, out));
  // A reason belongs to a disable: an enabled team has none.
  auto orphan_reason = encode_stored(sample_team());
  orphan_reason.as_object()["disabled_reason"] = "left over";
  BOOST_TEST(!decode_stored(orphan_reason, out));
  auto fractional = encode_stored(disabled);
  fractional.as_object()["disabled_at"] = 1.5;
  BOOST_TEST(!decode_stored(fractional, out));
}

BOOST_AUTO_TEST_CASE(balance_round_trips) {
  check_round_trip(sample_balance());
  check_round_trip(balance_record{"team_x", 0, 0, {}});
}

BOOST_AUTO_TEST_CASE(api_key_round_trips_with_and_without_deactivation) {
  check_round_trip(sample_key());
  auto active = sample_key();
  active.deactivate_at.reset();
  active.deactivated = false;
  active.replaced_by.clear();
  for (auto s : {scope::read, scope::write, scope::full}) {
    active.key_scope = s;
    check_round_trip(active);
  }
  BOOST_TEST(encode_stored(active).as_object().at("deactivate_at").is_null());
}

BOOST_AUTO_TEST_CASE(lora_round_trips) {
  check_round_trip(sample_lora());
  auto custom = sample_lora();
  custom.keywords.clear();
  custom.builtin = false;
  custom.description.clear();
  check_round_trip(custom);
}

BOOST_AUTO_TEST_CASE(bucket_snapshot_round_trips) {
  check_round_trip(sample_snapshot());
  check_round_trip(bucket_snapshot{"team_x", {}});
}

BOOST_AUTO_TEST_CASE(stored_times_are_unix_milliseconds) {
  BOOST_TEST(encode_stored(sample_team()).as_object().at("created_at").as_int64() == 1763720130123);
  BOOST_TEST(encode_stored(sample_key()).as_object().at("deactivate_at").as_int64() == 1763806530123);
  BOOST_TEST(encode_stored(sample_key()).as_object().at("scope").as_string() == "write");
}

BOOST_AUTO_TEST_CASE(missing_or_mistyped_fields_are_rejected) {
  check_rejections(sample_team(), {"disabled_at", "disabled_reason"}); // absent: never disabled
  auto disabled = sample_team();
  disabled.disabled_at = from_unix_ms(1785801600123);
  disabled.disabled_reason = "abuse";
  check_rejections(disabled, {"disabled_at", "disabled_reason"});
  // Balances stored before `low_event_at` existed must still decode.
  check_rejections(sample_balance(), {"low_event_at"});
  check_rejections(sample_key(), {"deactivate_at", "revoked_at"}); // absent reads as "not rotated", "not revoked"
  check_rejections(sample_lora());
  check_rejections(sample_snapshot());
}

BOOST_AUTO_TEST_CASE(mistyped_nested_fields_are_rejected) {
  team_record team;
  auto t = encode_stored(sample_team());
  t.as_object()["rate_limit_overrides"].as_object()["reads"].as_object()["capacity"] = "many";
  BOOST_TEST(!decode_stored(t, team));
  t = encode_stored(sample_team());
  t.as_object()["rate_limit_overrides"].as_object()["reads"] = 5;
  BOOST_TEST(!decode_stored(t, team));
  // Limits no operator could set: a bucket must neither overflow a wait nor never refill.
  for (auto [field, value] : {std::pair{"capacity", 1e300}, {"capacity", 0.5}, {"per_minute", 0.0}, {"per_minute", 1e13}}) {
    t = encode_stored(sample_team());
    t.as_object()["rate_limit_overrides"].as_object()["reads"].as_object()[field] = value;
    BOOST_TEST(!decode_stored(t, team), field << " " << value);
  }

  api_key_record key;
  auto k = encode_stored(sample_key());
  k.as_object()["scope"] = "admin";
  BOOST_TEST(!decode_stored(k, key));
  k = encode_stored(sample_key());
  k.as_object()["created_at"] = 1.5;
  BOOST_TEST(!decode_stored(k, key));

  lora_record lora;
  auto l = encode_stored(sample_lora());
  l.as_object()["keywords"].as_array().emplace_back(7);
  BOOST_TEST(!decode_stored(l, lora));

  bucket_snapshot snap;
  auto s = encode_stored(sample_snapshot());
  s.as_object()["levels"].as_object()["reads"].as_object()["tokens"] = "full";
  BOOST_TEST(!decode_stored(s, snap));
  s = encode_stored(sample_snapshot());
  s.as_object()["levels"].as_object()["reads"].as_object().erase("at_ms");
  BOOST_TEST(!decode_stored(s, snap));
}

BOOST_AUTO_TEST_CASE(non_objects_are_rejected_without_throwing) {
  check_non_objects<team_record>();
  check_non_objects<balance_record>();
  check_non_objects<api_key_record>();
  check_non_objects<lora_record>();
  check_non_objects<bucket_snapshot>();
}

BOOST_AUTO_TEST_CASE(every_hold_status_has_its_wire_name_and_reads_back) {
  const std::pair<hold_status, std::string> names[] = {
    {hold_status::held, "held"}, {hold_status::charged, "charged"}, {hold_status::refunded, "refunded"}};
  for (auto& [status, name] : names) {
    BOOST_TEST(to_string(status) == name);
    BOOST_TEST((hold_status_from_name(name) == status));
  }
  BOOST_TEST(!hold_status_from_name("released"));
  BOOST_TEST(!hold_status_from_name(""));
}

BOOST_AUTO_TEST_SUITE_END()
