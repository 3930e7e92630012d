#pragma once
// One fully populated and one minimal (every optional absent, every list
// empty) record of each stored type: value_codec_test holds the bytes the
// hand-written encoders of release 0.1.0 wrote for them.

#include <string>

#include "schema/credit_entry.hpp"
#include "schema/file_record.hpp"
#include "schema/job_record.hpp"
#include "schema/queued_mail.hpp"
#include "schema/records.hpp"
#include "schema/webhook_records.hpp"

namespace svc::test::samples {

using core::from_unix_ms;
namespace s = schema;

inline s::team_record full_team() {
  s::team_record t{"team_01KAK3R5N2W9X7Q4V6B8C0D1EF", "Acme \"Studios\" \xc3\xa9", "owner@acme.test", "2026-01-15",
                   500, from_unix_ms(1763720130123), {}, from_unix_ms(1763720230999), "chargeback"};
  t.rate_limit_overrides["reads"] = {50, 25.5};
  t.rate_limit_overrides["images_post"] = {1, 1e-6};
  return t;
}
inline s::team_record minimal_team() { return {"team_1", "", "", "", 0, from_unix_ms(0), {}, {}, ""}; }

inline s::balance_record full_balance() {
  return {"team_1", 9'000'000'000, 40, from_unix_ms(1785801600123)};
}
inline s::balance_record minimal_balance() { return {"team_1", -3, 0, {}}; }

inline s::hold_record full_hold() {
  return {"team_1", "img_1", 1200, s::hold_status::refunded, from_unix_ms(1763720130123)};
}
inline s::hold_record minimal_hold() { return {"", "", 0, s::hold_status::held, from_unix_ms(-1)}; }

inline s::api_key_record full_api_key() {
  return {"key_1",     "team_1",           s::scope::write, std::string(64, 'a'), "beef", from_unix_ms(1763720130123),
          from_unix_ms(1763806530123), true, "key_2",        from_unix_ms(1763806530999)};
}
inline s::api_key_record minimal_api_key() {
  return {"key_1", "team_1", s::scope::read, "", "", from_unix_ms(0), {}, false, "", {}};
}

inline s::lora_record full_lora() {
  return {"lora_1", "neon-noir", "Neon Noir", "Rain \u2603 \"slick\"\n", {"neon", "cyber punk"}, true,
          from_unix_ms(1763720130123)};
}
inline s::lora_record minimal_lora() { return {"lora_1", "", "", "", {}, false, from_unix_ms(0)}; }

inline s::bucket_snapshot full_buckets() {
  return {"team_1", {{"reads", {12.75, 1763720130123}}, {"images_post", {0, -5}}}};
}
inline s::bucket_snapshot minimal_buckets() { return {"team_1", {}}; }

inline s::idempotency_record full_idempotency() {
  return {"team_1", "images", "key-1", std::string(64, 'f'), 202, "{\"id\":\"img_1\"}", "/v1/images/img_1",
          from_unix_ms(1763720130123), from_unix_ms(1763806530123)};
}
inline s::idempotency_record minimal_idempotency() {
  return {"", "", "", "", 0, "", "", from_unix_ms(0), from_unix_ms(0)};
}

inline s::usage_record full_usage() { return {"team_1", "2026-11-21", 4'000'000'000'000, 17, 3}; }
inline s::usage_record minimal_usage() { return {"team_1", "2026-11-21", 0, 0, 0}; }

inline s::job_record full_job() {
  s::job_record j;
  j.id = "vid_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.team_id = "team_1";
  j.kind = s::job_kind::video;
  j.status = s::job_status::moderation_rejected;
  j.prompt = "a cat \xe2\x98\x83 \"quoted\"";
  j.negative_prompt = "blurry";
  j.width = 1024;
  j.height = 576;
  j.num_outputs = 2;
  j.seed = 4294967295u;
  j.steps = 50;
  j.duration_seconds = 8;
  j.fps = 24;
  j.loras = {{"lora_1", "neon-noir", 0.75}, {"lora_2", "ink", 1}};
  j.selection = s::lora_selection::automatic;
  j.init_image = "file_1";
  j.metadata = {{"order", "42"}, {"user", "u\"1"}};
  j.api_version = "2026-01-15";
  j.credits = 1234;
  j.cost_status = s::hold_status::charged;
  j.progress = 0.625;
  j.outputs = {{"video/mp4", 123456789012, 1024, 576, std::string(64, 'c')}, {"image/png", 0, 1, 1, ""}};
  j.outputs_expire_at = from_unix_ms(1763806530123);
  j.failure = s::job_failure{"moderation", "flagged \"nsfw\""};
  j.created_at = from_unix_ms(1763720130123);
  j.started_at = from_unix_ms(1763720131000);
  j.completed_at = from_unix_ms(1763720139999);
  j.requeue_deadline = from_unix_ms(1763720190000);
  j.correlation = {"client-req.1", s::trace_parent{"4bf92f3577b34da6a3ce929d0e0e4736", "01"}};
  return j;
}
inline s::job_record minimal_job() {
  s::job_record j;
  j.id = "img_1";
  j.team_id = "team_1";
  j.created_at = from_unix_ms(0);
  return j;
}

inline s::webhook_endpoint_record full_endpoint() {
  return {"we_1",
          "team_1",
          "https://example.test/hook?a=1",
          {"image.succeeded", "image.failed"},
          "whsec_new",
          "whsec_old",
          from_unix_ms(1763806530123),
          false,
          7,
          from_unix_ms(1763720130001),
          from_unix_ms(1763720130002),
          from_unix_ms(1763720130003),
          {{"env", "prod"}},
          from_unix_ms(1763720130123),
          from_unix_ms(1763720130456)};
}
inline s::webhook_endpoint_record minimal_endpoint() {
  return {"we_1", "team_1", "", {}, "", "", {}, true, 0, {}, {}, {}, {}, from_unix_ms(0), from_unix_ms(0)};
}

inline s::event_record full_event() {
  return {"evt_1", "team_1", "image.succeeded", "2026-01-15", true, from_unix_ms(1763720130123),
          "{\"id\":\"evt_1\",\"data\":{}}", s::correlation{"req_01KAK3R5N2W9X7Q4V6B8C0D1EF", std::nullopt}};
}
inline s::event_record minimal_event() { return {"evt_1", "team_1", "", "", false, from_unix_ms(0), "", {}}; }

inline s::delivery_record full_delivery() {
  return {"dlv_1", "we_1",  "team_1", "evt_1", "image.succeeded", 5,    false, 503, s::delivery_error::http_5xx,
          "503",   "busy\n", 1500,    true,    true,              from_unix_ms(1763720190000), from_unix_ms(1763720130123)};
}
inline s::delivery_record minimal_delivery() {
  return {"dlv_1", "we_1", "team_1", "evt_1", "", 1, true, {}, s::delivery_error::none, "", "", 0, false, false, {},
          from_unix_ms(0)};
}

inline s::delivery_task full_task() { return {"01KAK3R5N2W9X7Q4V6B8C0D1EF", "we_1", "evt_1", 5, from_unix_ms(1763720190000)}; }
inline s::delivery_task minimal_task() { return {"", "", "", 1, from_unix_ms(0)}; }

inline s::file_record full_file() {
  return {"file_1", "team_1", s::file_purpose::mask, 20971520, "image/webp", 2147483647, 3, std::string(64, 'd'),
          from_unix_ms(1763720130123), from_unix_ms(1763806530123)};
}
inline s::file_record minimal_file() {
  return {"file_1", "team_1", s::file_purpose::init_image, 0, "", 1, 1, "", from_unix_ms(0), from_unix_ms(0)};
}

inline s::credit_entry_record full_credit_entry() {
  return {"cre_1", "team_1", s::credit_entry_kind::refund, -(int64_t{1} << 50), int64_t{1} << 50, 7, "img_1",
          "goodwill \"refund\"", from_unix_ms(1763720130123)};
}
inline s::credit_entry_record minimal_credit_entry() {
  return {"cre_1", "team_1", s::credit_entry_kind::grant, 0, 0, 0, "", "", from_unix_ms(0)};
}

inline s::queued_mail full_mail() {
  return {"mail_1", {"Svc <noreply@svc.test>", "owner@acme.test", "Balance low", "Dear owner,\nline 2\n"}, 1000,
          from_unix_ms(1763720190000), from_unix_ms(1763720130123)};
}
inline s::queued_mail minimal_mail() { return {"mail_1", {"", "", "", ""}, 0, from_unix_ms(0), from_unix_ms(0)}; }

} // namespace svc::test::samples
