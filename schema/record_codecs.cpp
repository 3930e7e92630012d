#include "schema/record_codecs.hpp"

#include <boost/json.hpp>

#include "schema/json_fields.hpp"

namespace svc::schema {
namespace json = boost::json;
namespace {

int64_t ms(core::time_point t) { return core::to_unix_ms(t); }

} // namespace

json::value encode(const team_record& r) {
  json::object overrides;
  for (auto& [name, l] : r.rate_limit_overrides)
    overrides[name] = {{"capacity", l.capacity}, {"per_minute", l.per_minute}};
  return {{"id", r.id},
          {"name", r.name},
          {"owner_email", r.owner_email},
          {"default_api_version", r.default_api_version},
          {"balance_low_threshold", r.balance_low_threshold},
          {"created_at", ms(r.created_at)},
          {"rate_limit_overrides", std::move(overrides)},
          {"disabled_at", optional_unix_ms(r.disabled_at)},
          {"disabled_reason", r.disabled_reason}};
}

bool decode(const json::value& v, team_record& r) {
  json_fields f{v};
  r.id = f.str("id");
  r.name = f.str("name");
  r.owner_email = f.str("owner_email");
  r.default_api_version = f.str("default_api_version");
  r.balance_low_threshold = f.i64("balance_low_threshold");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.rate_limit_overrides.clear();
  auto* o = f.any("rate_limit_overrides").if_object();
  if (!o)
    return false;
  for (auto& [name, lv] : *o) {
    json_fields lf{lv};
    bucket_limits l{lf.num("capacity"), lf.num("per_minute")};
    if (!lf.ok() || !within_bounds(l))
      return false;
    r.rate_limit_overrides[std::string{name}] = l;
  }
  // Both absent in teams stored before disabling existed: those are enabled.
  r.disabled_at = f.opt_time("disabled_at");
  r.disabled_reason = f.opt_str("disabled_reason").value_or("");
  if (r.disabled_reason.size() > max_disabled_reason || (!r.disabled_at && !r.disabled_reason.empty()))
    return false;
  return f.ok();
}

json::value encode(const balance_record& r) {
  return {{"team_id", r.team_id},
          {"available", r.available},
          {"held", r.held},
          {"low_event_at", optional_unix_ms(r.low_event_at)}};
}

bool decode(const json::value& v, balance_record& r) {
  json_fields f{v};
  r.team_id = f.str("team_id");
  r.available = f.i64("available");
  r.held = f.i64("held");
  r.low_event_at = f.opt_time("low_event_at");
  return f.ok();
}

std::string_view to_string(hold_status s) {
  switch (s) {
  case hold_status::held: return "held";
  case hold_status::charged: return "charged";
  case hold_status::refunded: return "refunded";
  }
  return "held";
}

std::optional<hold_status> hold_status_from_name(std::string_view name) {
  for (auto s : {hold_status::held, hold_status::charged, hold_status::refunded})
    if (name == to_string(s))
      return s;
  return std::nullopt;
}

json::value encode(const hold_record& r) {
  return {{"team_id", r.team_id},
          {"job_id", r.job_id},
          {"credits", r.credits},
          {"status", to_string(r.status)},
          {"updated_at", ms(r.updated_at)}};
}

bool decode(const json::value& v, hold_record& r) {
  json_fields f{v};
  r.team_id = f.str("team_id");
  r.job_id = f.str("job_id");
  r.credits = f.i64("credits");
  auto status = hold_status_from_name(f.str("status"));
  r.updated_at = core::from_unix_ms(f.i64("updated_at"));
  if (!status)
    return false;
  r.status = *status;
  return f.ok();
}

json::value encode(const api_key_record& r) {
  json::value deactivate = nullptr;
  if (r.deactivate_at)
    deactivate = ms(*r.deactivate_at);
  return {{"id", r.id},
          {"team_id", r.team_id},
          {"scope", to_string(r.key_scope)},
          {"secret_sha256", r.secret_sha256},
          {"last4", r.last4},
          {"created_at", ms(r.created_at)},
          {"deactivate_at", deactivate},
          {"deactivated", r.deactivated},
          {"replaced_by", r.replaced_by},
          {"revoked_at", r.revoked_at ? json::value(ms(*r.revoked_at)) : json::value(nullptr)}};
}

bool decode(const json::value& v, api_key_record& r) {
  json_fields f{v};
  r.id = f.str("id");
  r.team_id = f.str("team_id");
  auto s = scope_from_name(f.str("scope"));
  r.secret_sha256 = f.str("secret_sha256");
  r.last4 = f.str("last4");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  auto d = f.opt_i64("deactivate_at");
  r.deactivate_at = d ? std::optional<core::time_point>{core::from_unix_ms(*d)} : std::nullopt;
  r.deactivated = f.boolean("deactivated");
  r.replaced_by = f.str("replaced_by");
  auto revoked = f.opt_i64("revoked_at"); // absent in keys stored before revocation existed
  r.revoked_at = revoked ? std::optional<core::time_point>{core::from_unix_ms(*revoked)} : std::nullopt;
  if (!s)
    return false;
  r.key_scope = *s;
  return f.ok();
}

json::value encode(const lora_record& r) {
  json::array keywords;
  for (auto& k : r.keywords)
    keywords.emplace_back(k);
  return {{"id", r.id},
          {"slug", r.slug},
          {"name", r.name},
          {"description", r.description},
          {"keywords", std::move(keywords)},
          {"builtin", r.builtin},
          {"created_at", ms(r.created_at)}};
}

bool decode(const json::value& v, lora_record& r) {
  json_fields f{v};
  r.id = f.str("id");
  r.slug = f.str("slug");
  r.name = f.str("name");
  r.description = f.str("description");
  r.builtin = f.boolean("builtin");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.keywords.clear();
  auto* keywords = f.any("keywords").if_array();
  if (!keywords)
    return false;
  for (auto& k : *keywords) {
    if (!k.is_string())
      return false;
    r.keywords.emplace_back(k.get_string());
  }
  return f.ok();
}

json::value encode(const bucket_snapshot& r) {
  json::object levels;
  for (auto& [name, l] : r.levels)
    levels[name] = {{"tokens", l.tokens}, {"at_ms", l.at_ms}};
  return {{"team_id", r.team_id}, {"levels", std::move(levels)}};
}

bool decode(const json::value& v, bucket_snapshot& r) {
  json_fields f{v};
  r.team_id = f.str("team_id");
  r.levels.clear();
  auto* levels = f.any("levels").if_object();
  if (!levels)
    return false;
  for (auto& [name, lv] : *levels) {
    json_fields lf{lv};
    bucket_level l{lf.num("tokens"), lf.i64("at_ms")};
    if (!lf.ok())
      return false;
    r.levels[std::string{name}] = l;
  }
  return f.ok();
}

json::value encode(const idempotency_record& r) {
  return {{"team_id", r.team_id},
          {"route", r.route},
          {"key", r.key},
          {"request_sha256", r.request_sha256},
          {"status", r.status},
          {"body", r.body},
          {"location", r.location},
          {"created_at", ms(r.created_at)},
          {"expires_at", ms(r.expires_at)}};
}

bool decode(const json::value& v, idempotency_record& r) {
  json_fields f{v};
  r.team_id = f.str("team_id");
  r.route = f.str("route");
  r.key = f.str("key");
  r.request_sha256 = f.str("request_sha256");
  r.status = static_cast<int>(f.i64("status"));
  r.body = f.str("body");
  r.location = f.str("location");
  r.created_at = core::from_unix_ms(f.i64("created_at"));
  r.expires_at = core::from_unix_ms(f.i64("expires_at"));
  return f.ok();
}

json::value encode(const usage_record& r) {
  return {{"team_id", r.team_id},
          {"date", r.date},
          {"credits_charged", r.credits_charged},
          {"images", r.images},
          {"videos", r.videos}};
}

bool decode(const json::value& v, usage_record& r) {
  json_fields f{v};
  r.team_id = f.str("team_id");
  r.date = f.str("date");
  r.credits_charged = f.i64("credits_charged");
  r.images = f.i64("images");
  r.videos = f.i64("videos");
  return f.ok();
}

} // namespace svc::schema
