#include "persistence/value_codec.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include "stored_samples.hpp"

BOOST_AUTO_TEST_SUITE(persistence_value_codec)

namespace {

using namespace svc::persistence;
namespace samples = svc::test::samples;

// The stored form of each sample, as the hand-written encoders of release
// 0.1.0 (before stored_json.hpp) wrote it, without the version byte.
const std::map<std::string_view, std::string_view> release_0_1_0 = {
    {"full_team", R"~({"id":"team_01KAK3R5N2W9X7Q4V6B8C0D1EF","name":"Acme \"Studios\" é","owner_email":"owner@acme.test","default_api_version":"2026-01-15","balance_low_threshold":500,"created_at":1763720130123,"rate_limit_overrides":{"images_post":{"capacity":1E0,"per_minute":1E-6},"reads":{"capacity":5E1,"per_minute":2.55E1}},"disabled_at":1763720230999,"disabled_reason":"chargeback"})~"},
    {"minimal_team", R"~({"id":"team_1","name":"","owner_email":"","default_api_version":"","balance_low_threshold":0,"created_at":0,"rate_limit_overrides":{},"disabled_at":null,"disabled_reason":""})~"},
    {"full_balance", R"~({"team_id":"team_1","available":9000000000,"held":40,"low_event_at":1785801600123})~"},
    {"minimal_balance", R"~({"team_id":"team_1","available":-3,"held":0,"low_event_at":null})~"},
    {"full_hold", R"~({"team_id":"team_1","job_id":"img_1","credits":1200,"status":"refunded","updated_at":1763720130123})~"},
    {"minimal_hold", R"~({"team_id":"","job_id":"","credits":0,"status":"held","updated_at":-1})~"},
    {"full_api_key", R"~({"id":"key_1","team_id":"team_1","scope":"write","secret_sha256":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","last4":"beef","created_at":1763720130123,"deactivate_at":1763806530123,"deactivated":true,"replaced_by":"key_2","revoked_at":1763806530999})~"},
    {"minimal_api_key", R"~({"id":"key_1","team_id":"team_1","scope":"read","secret_sha256":"","last4":"","created_at":0,"deactivate_at":null,"deactivated":false,"replaced_by":"","revoked_at":null})~"},
    {"full_lora", R"~({"id":"lora_1","slug":"neon-noir","name":"Neon Noir","description":"Rain ☃ \"slick\"\n","keywords":["neon","cyber punk"],"builtin":true,"created_at":1763720130123})~"},
    {"minimal_lora", R"~({"id":"lora_1","slug":"","name":"","description":"","keywords":[],"builtin":false,"created_at":0})~"},
    {"full_buckets", R"~({"team_id":"team_1","levels":{"images_post":{"tokens":0E0,"at_ms":-5},"reads":{"tokens":1.275E1,"at_ms":1763720130123}}})~"},
    {"minimal_buckets", R"~({"team_id":"team_1","levels":{}})~"},
    {"full_idempotency", R"~({"team_id":"team_1","route":"images","key":"key-1","request_sha256":"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff","status":202,"body":"{\"id\":\"img_1\"}","location":"/v1/images/img_1","created_at":1763720130123,"expires_at":1763806530123})~"},
    {"minimal_idempotency", R"~({"team_id":"","route":"","key":"","request_sha256":"","status":0,"body":"","location":"","created_at":0,"expires_at":0})~"},
    {"full_usage", R"~({"team_id":"team_1","date":"2026-11-21","credits_charged":4000000000000,"images":17,"videos":3})~"},
    {"minimal_usage", R"~({"team_id":"team_1","date":"2026-11-21","credits_charged":0,"images":0,"videos":0})~"},
    {"full_job", R"~({"id":"vid_01KAK3R5N2W9X7Q4V6B8C0D1EF","team_id":"team_1","kind":"video","status":"moderation_rejected","prompt":"a cat ☃ \"quoted\"","negative_prompt":"blurry","width":1024,"height":576,"num_outputs":2,"seed":4294967295,"steps":50,"duration_seconds":8,"fps":24,"loras":[{"lora_id":"lora_1","slug":"neon-noir","weight":7.5E-1},{"lora_id":"lora_2","slug":"ink","weight":1E0}],"lora_selection":"auto","init_image":"file_1","metadata":{"order":"42","user":"u\"1"},"api_version":"2026-01-15","credits":1234,"cost_status":"charged","progress":6.25E-1,"outputs":[{"content_type":"video/mp4","bytes":123456789012,"width":1024,"height":576,"sha256":"cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"},{"content_type":"image/png","bytes":0,"width":1,"height":1,"sha256":""}],"outputs_expire_at":1763806530123,"failure":{"code":"moderation","message":"flagged \"nsfw\""},"created_at":1763720130123,"started_at":1763720131000,"completed_at":1763720139999,"requeue_deadline":1763720190000,"correlation":{"request_id":"client-req.1","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","trace_flags":"01"}})~"},
    {"minimal_job", R"~({"id":"img_1","team_id":"team_1","kind":"image","status":"queued","prompt":"","negative_prompt":"","width":0,"height":0,"num_outputs":1,"seed":0,"steps":30,"duration_seconds":0,"fps":0,"loras":[],"lora_selection":"none","init_image":null,"metadata":{},"api_version":"","credits":0,"cost_status":"held","progress":0E0,"outputs":[],"outputs_expire_at":null,"failure":null,"created_at":0,"started_at":null,"completed_at":null,"requeue_deadline":null,"correlation":null})~"},
    {"full_endpoint", R"~({"id":"we_1","team_id":"team_1","url":"https://example.test/hook?a=1","events":["image.succeeded","image.failed"],"secret":"whsec_new","previous_secret":"whsec_old","previous_secret_expires_at":1763806530123,"is_active":false,"consecutive_failures":7,"last_success_at":1763720130001,"last_failure_at":1763720130002,"disabled_at":1763720130003,"metadata":{"env":"prod"},"created_at":1763720130123,"updated_at":1763720130456})~"},
    {"minimal_endpoint", R"~({"id":"we_1","team_id":"team_1","url":"","events":[],"secret":"","previous_secret":"","previous_secret_expires_at":null,"is_active":true,"consecutive_failures":0,"last_success_at":null,"last_failure_at":null,"disabled_at":null,"metadata":{},"created_at":0,"updated_at":0})~"},
    {"full_event", R"~({"id":"evt_1","team_id":"team_1","type":"image.succeeded","api_version":"2026-01-15","synthetic":true,"created_at":1763720130123,"body":"{\"id\":\"evt_1\",\"data\":{}}","correlation":{"request_id":"req_01KAK3R5N2W9X7Q4V6B8C0D1EF"}})~"},
    {"minimal_event", R"~({"id":"evt_1","team_id":"team_1","type":"","api_version":"","synthetic":false,"created_at":0,"body":"","correlation":null})~"},
    {"full_delivery", R"~({"id":"dlv_1","endpoint_id":"we_1","team_id":"team_1","event_id":"evt_1","event_type":"image.succeeded","attempt":5,"succeeded":false,"response_status":503,"error":"http_5xx","error_detail":"503","response_body":"busy\n","duration_ms":1500,"is_terminal":true,"is_dead_letter":true,"next_attempt_at":1763720190000,"created_at":1763720130123})~"},
    {"minimal_delivery", R"~({"id":"dlv_1","endpoint_id":"we_1","team_id":"team_1","event_id":"evt_1","event_type":"","attempt":1,"succeeded":true,"response_status":null,"error":"","error_detail":"","response_body":"","duration_ms":0,"is_terminal":false,"is_dead_letter":false,"next_attempt_at":null,"created_at":0})~"},
    {"full_task", R"~({"id":"01KAK3R5N2W9X7Q4V6B8C0D1EF","endpoint_id":"we_1","event_id":"evt_1","attempt":5,"due_at":1763720190000})~"},
    {"minimal_task", R"~({"id":"","endpoint_id":"","event_id":"","attempt":1,"due_at":0})~"},
    {"full_file", R"~({"id":"file_1","team_id":"team_1","purpose":"mask","bytes":20971520,"content_type":"image/webp","width":2147483647,"height":3,"sha256":"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd","created_at":1763720130123,"expires_at":1763806530123})~"},
    {"minimal_file", R"~({"id":"file_1","team_id":"team_1","purpose":"init_image","bytes":0,"content_type":"","width":1,"height":1,"sha256":"","created_at":0,"expires_at":0})~"},
    {"full_credit_entry", R"~({"id":"cre_1","team_id":"team_1","kind":"refund","amount":-1125899906842624,"available_after":1125899906842624,"held_after":7,"job_id":"img_1","reason":"goodwill \"refund\"","created_at":1763720130123})~"},
    {"minimal_credit_entry", R"~({"id":"cre_1","team_id":"team_1","kind":"grant","amount":0,"available_after":0,"held_after":0,"job_id":"","reason":"","created_at":0})~"},
    {"full_mail", R"~({"id":"mail_1","from":"Svc <noreply@svc.test>","to":"owner@acme.test","subject":"Balance low","body":"Dear owner,\nline 2\n","attempts":1000,"due_at":1763720190000,"created_at":1763720130123})~"},
    {"minimal_mail", R"~({"id":"mail_1","from":"","to":"","subject":"","body":"","attempts":0,"due_at":0,"created_at":0})~"},
};

std::string stored(std::string_view name) { return std::string(1, format_version) + std::string{release_0_1_0.at(name)}; }

// Member by member, through the description (the records have no operator==).
template <class T>
bool same(const T& a, const T& b);

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_container : std::false_type {};
template <class T> struct is_container<std::vector<T>> : std::true_type {};
template <class K, class T> struct is_container<std::map<K, T>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class K, class T> struct is_pair<std::pair<K, T>> : std::true_type {};

template <class T>
bool same_value(const T& a, const T& b) {
  if constexpr (boost::describe::has_describe_members<T>::value) {
    return same(a, b);
  } else if constexpr (is_optional<T>::value) {
    return a.has_value() == b.has_value() && (!a || same_value(*a, *b));
  } else if constexpr (is_container<T>::value) {
    if (a.size() != b.size())
      return false;
    auto i = b.begin();
    for (auto& x : a)
      if (!same_value(x, *i++))
        return false;
    return true;
  } else if constexpr (is_pair<T>::value) {
    return a.first == b.first && same_value(a.second, b.second);
  } else {
    return a == b;
  }
}

template <class T>
bool same(const T& a, const T& b) {
  bool equal = true;
  boost::mp11::mp_for_each<boost::describe::describe_members<T, boost::describe::mod_public>>(
    [&](auto d) { equal = equal && same_value(a.*d.pointer, b.*d.pointer); });
  return equal;
}

// The release's bytes for `name` decode to `sample`, and `sample` encodes to
// exactly those bytes.
template <class Record>
void check(std::string_view name, const Record& sample) {
  BOOST_TEST_CONTEXT(name) {
    auto decoded = decode_record<Record>(stored(name));
    BOOST_TEST_REQUIRE(decoded.has_value());
    BOOST_TEST(same(*decoded, sample));
    BOOST_TEST(encode_record(sample) == stored(name));
    auto again = decode_record<Record>(encode_record(*decoded));
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(same(*again, sample));
  }
}

} // namespace

#define SAMPLE_CASE(name)                                                                                        \
  BOOST_AUTO_TEST_CASE(name##_reads_and_writes_the_release_bytes) {                                              \
    check("full_" #name, samples::full_##name());                                                                \
    check("minimal_" #name, samples::minimal_##name());                                                          \
  }

SAMPLE_CASE(team)
SAMPLE_CASE(balance)
SAMPLE_CASE(hold)
SAMPLE_CASE(api_key)
SAMPLE_CASE(lora)
SAMPLE_CASE(buckets)
SAMPLE_CASE(idempotency)
SAMPLE_CASE(usage)
SAMPLE_CASE(job)
SAMPLE_CASE(endpoint)
SAMPLE_CASE(event)
SAMPLE_CASE(delivery)
SAMPLE_CASE(task)
SAMPLE_CASE(file)
SAMPLE_CASE(credit_entry)
SAMPLE_CASE(mail)

BOOST_AUTO_TEST_CASE(a_differing_sample_is_told_apart) {
  auto job = samples::full_job();
  job.correlation.trace->flags = "00";
  BOOST_TEST(!same(job, samples::full_job()));
  auto mail = samples::full_mail();
  mail.message.body += "!";
  BOOST_TEST(!same(mail, samples::full_mail()));
}

BOOST_AUTO_TEST_CASE(another_version_byte_is_not_read) {
  auto bytes = stored("full_team");
  bytes[0] = 2;
  BOOST_TEST(!decode_record<svc::schema::team_record>(bytes).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
