#pragma once
// Records with every member set (and some at their emptiest) whose views
// record_view_golden_test compares with the bytes the hand-written views wrote.

#include <string>
#include <utility>
#include <vector>

#include <boost/json/serialize.hpp>

#include "core/clock.hpp"
#include "schema/credit_entry_view.hpp"
#include "schema/file_view.hpp"
#include "schema/job_view.hpp"
#include "schema/views.hpp"
#include "schema/webhook_views.hpp"

namespace svc::schema::samples {

inline core::time_point at(int64_t ms) { return core::from_unix_ms(ms); }

inline team_record team(bool full) {
  team_record t{"team_01KAK3R5N2", "Acme \"Labs\"", "ops@acme.test", "2026-01-15", full ? 250 : 0, at(1763720130123), {}, {}, {}};
  if (full) {
    t.rate_limit_overrides = {{"reads", {120, 60}}, {"writes", {2.5, 0.5}}};
    t.disabled_at = at(1763720999000);
    t.disabled_reason = "chargeback";
  }
  return t;
}

inline balance_record balance(bool full) {
  return {"team_01KAK3R5N2", full ? 1200 : 0, full ? 80 : 0, full ? std::optional{at(1763720130999)} : std::nullopt};
}

inline api_key_record api_key(bool full) {
  api_key_record k{"key_01KAK3", "team_01KAK3R5N2", scope::write, std::string(64, 'c'), "9f3e", at(1763720130123),
                   {}, false, {}, {}};
  if (full) {
    k.deactivate_at = at(1763723730000);
    k.deactivated = true;
    k.replaced_by = "key_01KAK4";
    k.revoked_at = at(1763723730555);
  }
  return k;
}

inline lora_record lora(bool full) {
  return {"lora_01A", "water-colour", "Water colour", full ? "soft \n washes" : "",
          full ? std::vector<std::string>{"watercolor", "wash"} : std::vector<std::string>{}, full, at(1763720130123)};
}

inline job_record job(job_kind kind, job_status status, bool full) {
  job_record j;
  j.id = kind == job_kind::image ? "img_01KAK3R5N2W9X7Q4V6B8C0D1EF" : "vid_01KAK3R5N2W9X7Q4V6B8C0D1EF";
  j.team_id = "team_01KAK3R5N2";
  j.kind = kind;
  j.status = status;
  j.prompt = "a lighthouse";
  j.width = 512;
  j.height = 256;
  j.seed = 4294967295u;
  j.duration_seconds = kind == job_kind::video ? 4 : 0;
  j.fps = kind == job_kind::video ? 8 : 0;
  j.api_version = "2026-01-15";
  j.credits = 80;
  j.created_at = at(1763720130123);
  if (full) {
    j.negative_prompt = "fog";
    j.num_outputs = 2;
    j.loras = {{"lora_01A", "watercolor", 1.0}, {"lora_01B", "ink", 0.25}};
    j.selection = lora_selection::automatic;
    j.init_image = "file_01KAK3";
    j.metadata = {{"order", "42"}, {"a", "\x01"}};
    j.cost_status = hold_status::charged;
    j.progress = 0.75;
    j.outputs = {{"image/png", 1000, 512, 256, std::string(64, 'a')}, {"image/png", 2000, 512, 256, std::string(64, 'b')}};
    j.outputs_expire_at = at(1763723730999);
    j.failure = job_failure{"provider_error", "the back end said \"no\""};
    j.started_at = at(1763720130456);
    j.completed_at = at(1763720131789);
    j.requeue_deadline = at(1763720139000);
    j.correlation.request_id = "req_1";
  }
  return j;
}

inline webhook_endpoint_record endpoint(bool full) {
  const std::string id = "we_01KAK3", team = "team_01KAK3R5N2", url = "https://hooks.example.test/svc";
  const std::string secret = "whsec_0123456789abcdef0123456789abcdef";
  if (!full)
    return {id, team, url, {}, secret, {}, {}, true, 0, {}, {}, {}, {}, at(1763720130123), at(1763720130999)};
  return {id,    team,  url, {"image.succeeded", "image.failed"}, secret, "whsec_old", at(1763806530123), false, 12,
          at(1763720131000), at(1763720132000), at(1763720133000), {{"env", "prod"}}, at(1763720130123),
          at(1763720130999)};
}

inline delivery_record delivery(bool succeeded) {
  if (succeeded)
    return {"dlv_01KAK3", "we_01KAK3", "team_01KAK3R5N2", "evt_01KAK3", "image.succeeded", 1, true, 204,
            delivery_error::none, "", "", 12, true, false, {}, at(1763720130123)};
  return {"dlv_01KAK3", "we_01KAK3", "team_01KAK3R5N2", "evt_01KAK3", "image.succeeded", 5, false, {},
          delivery_error::connect_refused, "connection refused", "<html>", 3, true, true, at(1763720190123),
          at(1763720130123)};
}

inline credit_entry_record credit_entry(bool grant) {
  if (grant)
    return {"cre_01KAK3", "team_01KAK3R5N2", credit_entry_kind::grant, 500, 1500, 0, "", "", at(1763720130123)};
  return {"cre_01KAK4", "team_01KAK3R5N2", credit_entry_kind::charge, -80, 1420, 0, "img_01KAK3", "refund \"why\"",
          at(1763720130456)};
}

inline file_record file() {
  return {"file_01KAK3", "team_01KAK3R5N2", file_purpose::mask, 18446744073709551615u, "image/webp", 64, 32,
          std::string(64, 'd'), at(1763720130123), at(1763806530123)};
}

/// Each sample's view as JSON text, by a name that says which.
inline std::vector<std::pair<std::string, std::string>> views() {
  using boost::json::serialize;
  const output_signer signer{"http://svc.test:8080", "0123456789abcdef0123456789abcdef"};
  std::vector<std::pair<std::string, std::string>> v;
  for (bool full : {true, false}) {
    auto tag = std::string{full ? "full" : "least"};
    v.emplace_back("team_" + tag, serialize(team_view(team(full))));
    std::string text;
    write_team_view(text, team(full));
    v.emplace_back("team_text_" + tag, text);
    v.emplace_back("admin_team_" + tag, serialize(admin_team_view(team(full), balance(full))));
    v.emplace_back("balance_" + tag, serialize(balance_view(balance(full), 250)));
    v.emplace_back("api_key_" + tag, serialize(api_key_view(api_key(full), full ? "svc_live_" + std::string(64, 'e') : "")));
    v.emplace_back("lora_" + tag, serialize(lora_view(lora(full))));
    v.emplace_back("endpoint_" + tag, serialize(webhook_endpoint_view(endpoint(full), full)));
    v.emplace_back("delivery_" + tag, serialize(delivery_view(delivery(full))));
    v.emplace_back("credit_entry_" + tag, serialize(credit_entry_view(credit_entry(full))));
    for (auto kind : {job_kind::image, job_kind::video})
      for (auto status : {job_status::succeeded, job_status::processing}) {
        auto name = "job_" + std::string{to_string(kind)} + "_" + std::string{to_string(status)} + "_" + tag;
        v.emplace_back(name, serialize(job_view(job(kind, status, full), signer)));
        std::string job_text;
        write_job_view(job_text, job(kind, status, full), signer);
        v.emplace_back(name + "_text", job_text);
      }
  }
  v.emplace_back("file", serialize(file_view(file())));
  return v;
}

} // namespace svc::schema::samples
