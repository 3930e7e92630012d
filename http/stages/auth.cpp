#include <array>

#include "core/crypto.hpp"
#include "core/shard.hpp"
#include "core/time_format.hpp"
#include "http/stages/stages.hpp"
#include "schema/api_key_format.hpp"

namespace svc::http {
namespace {

using schema::error_code;

// The query parameters that clients mistakenly use for keys.
constexpr std::array<std::string_view, 4> key_params{"api_key", "key", "apikey", "access_token"};

// Whether `value` carries something shaped like a key (`xx_live_<64 hex>`)
// anywhere in it: a key pasted under any parameter name is refused, since
// query strings end up in proxy logs, browser history and Referer headers.
bool carries_api_key(std::string_view value) {
  constexpr std::string_view marker = "_live_";
  constexpr std::size_t secret_length = 64;
  for (auto at = value.find(marker); at != std::string_view::npos; at = value.find(marker, at + 1)) {
    if (at < 2 || value.size() - at - marker.size() < secret_length)
      continue;
    auto secret = value.substr(at + marker.size(), secret_length);
    bool hex = true;
    for (char c : secret)
      hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    if (hex)
      return true;
  }
  return false;
}

bool key_is_live(const schema::api_key_record& k, core::time_point now) {
  return !k.deactivated && (!k.deactivate_at || now < *k.deactivate_at);
}

} // namespace

std::string_view presented_key(const http_request& req) {
  if (auto it = req.find("X-Api-Key"); it != req.end())
    return it->value();
  if (auto it = req.find(beast::http::field::authorization); it != req.end()) {
    std::string_view v = it->value();
    if (v.size() > 7 && beast::iequals(v.substr(0, 7), "Bearer "))
      return v.substr(7);
  }
  return {};
}

std::optional<error_code> admin_token_error(const http_request& req, std::string_view token) {
  auto it = req.find(beast::http::field::authorization);
  if (it == req.end())
    return error_code::missing_api_key;
  std::string_view v = it->value();
  if (v.size() <= 7 || !beast::iequals(v.substr(0, 7), "Bearer ") || !core::constant_time_equal(v.substr(7), token))
    return error_code::invalid_api_key;
  return std::nullopt;
}

bool refuse_query_key(request_context& ctx) {
  for (auto& [name, value] : ctx.query) {
    bool refused = carries_api_key(value) || carries_api_key(name);
    for (auto p : key_params)
      refused = refused || beast::iequals(name, p);
    if (refused) {
      ctx.error = schema::make_api_error(error_code::api_key_in_query, {}, name.substr(0, 64));
      return false;
    }
  }
  return true;
}

bool authenticate(request_context& ctx) {
  if (ctx.matched().needs == schema::scope::none)
    return true;
  auto presented = presented_key(ctx.req);
  if (presented.empty()) {
    ctx.error = schema::make_api_error(error_code::missing_api_key);
    return false;
  }
  auto invalid = [&] {
    ctx.error = schema::make_api_error(error_code::invalid_api_key);
    return false;
  };
  auto secret = schema::api_key_secret(presented);
  if (!secret)
    return invalid();
  auto hash = core::to_hex(core::sha256(*secret));
  // Before the lookup: the team it finds is at least this new.
  ctx.team_writes = ctx.svc.env.writes_to(persistence::table::teams);
  auto found = ctx.svc.keys.lookup(ctx.svc.env, ctx.svc.tables(), core::shard_of_key_secret(*secret), hash);
  if (found.failed()) { // the key may well exist: no 401 for it
    core::log_error("auth", ctx.request_id + ": key lookup failed: " + found.why());
    ctx.error = schema::make_api_error(error_code::storage_unavailable);
    return false;
  }
  auto entry = std::move(found).found().value_or(nullptr);
  if (!entry || !core::constant_time_equal(entry->key.secret_sha256, hash))
    return invalid();
  if (entry->key.revoked_at) {
    ctx.error = schema::make_api_error(error_code::api_key_revoked);
    return false;
  }
  if (!key_is_live(entry->key, ctx.svc.clock->now()))
    return invalid();
  if (ctx.version.empty())
    ctx.version = entry->team.default_api_version;
  ctx.key = std::shared_ptr<const schema::api_key_record>{entry, &entry->key};
  ctx.team = std::shared_ptr<const schema::team_record>{entry, &entry->team};
  // Refused once the key is known good, so the access log names the team and the
  // answer draws from its bucket. The entry is as fresh as the last commit
  // (key_cache.hpp), so a disable answered to the operator holds from the next request.
  if (entry->team.disabled_at) {
    ctx.error = schema::make_api_error(error_code::team_disabled,
                                       {{"disabled_at", core::format_iso8601(*entry->team.disabled_at)}});
    return false;
  }
  return true;
}

bool check_scope(request_context& ctx) {
  auto need = ctx.matched().needs;
  if (!ctx.key || schema::permits(ctx.key->key_scope, need))
    return true;
  ctx.error = schema::make_api_error(error_code::missing_scope,
                                     {{"scope", std::string{schema::to_string(ctx.key->key_scope)}},
                                      {"method", std::string{ctx.req.method_string()}},
                                      {"route", std::string{ctx.matched().path}},
                                      {"required", std::string{schema::to_string(need)}}});
  return false;
}

} // namespace svc::http
