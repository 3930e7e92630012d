#include "persistence/shard_keys.hpp"

#include <charconv>

#include "persistence/value_codec.hpp"

namespace svc::persistence {
namespace {

key_subject team_subject(std::string_view id) { return {true, id}; }
key_subject record_subject(std::string_view id) { return {false, id}; }

// An `expiries` key, `<16-digit ms>/<kind>/<subject>`, by the subject its kind names.
key_subject subject_of_expiry(std::string_view key) {
  auto first = key.find('/');
  auto second = first == std::string_view::npos ? first : key.find('/', first + 1);
  if (second == std::string_view::npos)
    return record_subject(key);
  auto kind = key.substr(first + 1, second - first - 1);
  auto subject = key.substr(second + 1);
  if (kind == "idempotency") // `team_id/route/key`
    return team_subject(owner_part(subject));
  if (kind == "delivery") // `we_id/dlv_id`
    return record_subject(owner_part(subject));
  return record_subject(subject); // outputs/<job id>, event/<event id>, file/<file id>
}

} // namespace

std::string_view owner_part(std::string_view key) { return key.substr(0, key.find('/')); }

key_shape shape_of(table t) {
  // No default: a new table must be given its shape here (the compiler warns).
  switch (t) {
  case table::teams:
  case table::balances:
  case table::buckets:
    return key_shape::team;
  case table::api_keys_by_team:
  case table::holds:
  case table::jobs_by_team:
  case table::idempotency:
  case table::usage:
  case table::endpoints_by_team:
  case table::events_by_team:
  case table::files_by_team:
  case table::credit_entries:
    return key_shape::team_then_rest;
  case table::delivery_tasks:
  case table::deliveries:
  case table::delivered_events:
    return key_shape::record_then_rest;
  case table::expiries:
    return key_shape::expiry;
  case table::api_keys:
  case table::key_hashes:
  case table::jobs:
  case table::live_jobs:
  case table::webhook_endpoints:
  case table::events:
  case table::pending_events:
  case table::files:
    return key_shape::record;
  case table::meta:
  case table::loras:
  case table::lora_slugs:
  case table::mail_queue:
  case table::legacy_shards:
  case table::engines:
    return key_shape::store_wide;
  }
  return key_shape::store_wide;
}

bool store_wide(table t) { return shape_of(t) == key_shape::store_wide; }

key_subject subject_of_key(table t, std::string_view key) {
  switch (shape_of(t)) {
  case key_shape::team:
    return team_subject(key);
  case key_shape::team_then_rest:
    return team_subject(owner_part(key));
  case key_shape::record_then_rest:
    return record_subject(owner_part(key));
  case key_shape::expiry:
    return subject_of_expiry(key);
  case key_shape::record:
  case key_shape::store_wide:
    break;
  }
  return record_subject(key);
}

std::optional<key_subject> subject_of_prefix(table t, std::string_view prefix) {
  // Only keys that start with their subject and a '/' share it with such a prefix.
  auto shape = shape_of(t);
  if ((shape != key_shape::team_then_rest && shape != key_shape::record_then_rest)
      || prefix.find('/') == std::string_view::npos)
    return std::nullopt;
  return subject_of_key(t, prefix);
}

core::shard_id named_shard(const key_subject& s) {
  if (s.is_team)
    return core::shard_of_team(s.text);
  if (auto named = core::shard_of_id(s.text))
    return *named;
  if (s.text.size() > 3 && s.text[2] == '/')
    if (auto named = core::shard_of_key_secret(s.text.substr(0, 2)))
      return *named;
  return core::shard_of_team(s.text); // a stable hash: put and get agree
}

std::string key_hash_key(core::shard_id shard, std::string_view secret_sha256) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string key{digits[shard >> 4], digits[shard & 15], '/'};
  key.append(secret_sha256);
  return key;
}

std::string encode_legacy_shard(core::shard_id shard) { return encode_text(std::to_string(shard)); }

std::optional<core::shard_id> decode_legacy_shard(std::string_view stored) {
  auto text = decode_text(stored);
  if (!text || text->empty())
    return std::nullopt;
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc{} || end != text->data() + text->size() || value >= core::shard_count)
    return std::nullopt;
  return static_cast<core::shard_id>(value);
}

} // namespace svc::persistence
