#include "actors/bucket.hpp"

#include "actors/mailbox_depth.hpp"
#include "actors/release_round.hpp"
#include "actors/supervision.hpp"

#include <cmath>

namespace svc::actors {
namespace {

using bucket_self = bucket_actor::stateful_pointer<bucket_state>;

int64_t now_ms(const context& ctx) { return core::to_unix_ms(ctx.clock->now()); }

rate_decision charge(bucket_self self, const context& ctx, schema::bucket_class cls, int64_t n) {
  auto idx = static_cast<std::size_t>(cls);
  rate_decision d;
  d.bucket = std::string{schema::to_string(cls)};
  if (idx >= self->state.buckets.size()) { // anonymous is not a team class
    d.allowed = true;
    return d;
  }
  auto& b = self->state.buckets[idx];
  d = decision_of(cls, b, b.charge(n, now_ms(ctx)));
  self->state.dirty = true;
  if (!self->state.timer_armed) {
    self->state.timer_armed = true;
    self->delayed_send(self, ctx.cfg->bucket_snapshot_interval, flush_atom::value);
  }
  return d;
}

persistence::write_batch snapshot_batch(bucket_self self, const context& ctx) {
  schema::bucket_snapshot snap;
  snap.team_id = self->state.team_id;
  for (std::size_t i = 0; i < self->state.buckets.size(); ++i) {
    auto& b = self->state.buckets[i];
    snap.levels[std::string{schema::to_string(static_cast<schema::bucket_class>(i))}] = {b.tokens(), b.at_ms()};
  }
  persistence::write_batch batch;
  ctx.tables->buckets.put(batch, snap.team_id, snap);
  self->state.dirty = false;
  return batch;
}

std::string describe(bucket_self self, const context& ctx) {
  std::string out;
  auto now = now_ms(ctx);
  for (std::size_t i = 0; i < self->state.buckets.size(); ++i) {
    auto& b = self->state.buckets[i];
    out += (out.empty() ? "" : " ") + std::string{schema::to_string(static_cast<schema::bucket_class>(i))} + "="
           + std::to_string(static_cast<int64_t>(std::floor(b.level(now)))) + "/"
           + std::to_string(static_cast<int64_t>(b.limits().capacity));
  }
  return out;
}

} // namespace

schema::bucket_limits effective_limits(schema::bucket_class cls,
                                       const bucket_overrides& overrides) {
  auto it = overrides.find(std::string{schema::to_string(cls)});
  return it != overrides.end() ? it->second : schema::info(cls).limits;
}

token_bucket restore_bucket(schema::bucket_class cls, const bucket_overrides& overrides,
                            const std::optional<schema::bucket_snapshot>& snapshot, int64_t now_ms) {
  auto limits = effective_limits(cls, overrides);
  if (snapshot)
    if (auto it = snapshot->levels.find(std::string{schema::to_string(cls)}); it != snapshot->levels.end())
      // A saved level refills from its own reading time, as if we never stopped.
      if (it->second.at_ms <= now_ms)
        return token_bucket{limits, it->second.tokens, it->second.at_ms};
  return token_bucket{limits, now_ms};
}

bucket_actor::behavior_type bucket(bucket_self self, context ctx, std::string team_id,
                                   bucket_overrides overrides,
                                   std::optional<schema::bucket_snapshot> snapshot) {
  auto now = now_ms(ctx);
  self->state.team_id = team_id;
  for (std::size_t i = 0; i < schema::team_bucket_count; ++i)
    self->state.buckets.push_back(restore_bucket(static_cast<schema::bucket_class>(i), overrides, snapshot, now));
  register_actor(self, ctx, "bucket", team_id, team_id);
  log_exceptions(self, "bucket");
  return {
    [=](take_atom, schema::bucket_class cls) -> rate_decision { return charge(self, ctx, cls, 1); },
    [=](charge_atom, schema::bucket_class cls, int64_t n) -> rate_decision { return charge(self, ctx, cls, n); },
    [=](limits_atom, bucket_overrides& next) {
      auto t = now_ms(ctx);
      for (std::size_t i = 0; i < self->state.buckets.size(); ++i)
        self->state.buckets[i].set_limits(effective_limits(static_cast<schema::bucket_class>(i), next), t);
      self->state.dirty = true;
      return true;
    },
    [=](snapshot_atom) -> caf::result<bool> {
      if (!self->state.dirty)
        return true;
      return self->delegate(ctx.store, commit_atom::value, snapshot_batch(self, ctx));
    },
    [=](release_atom) { quit_after_commit(self, ctx.store, snapshot_batch(self, ctx), "bucket"); },
    [=](flush_atom) {
      self->state.timer_armed = false;
      if (!self->state.dirty)
        return;
      // A lost snapshot costs only refill accuracy, so a failure is just logged.
      self->request(ctx.store, caf::infinite, commit_atom::value, snapshot_batch(self, ctx))
        .then([](bool) {}, [=](caf::error&) { self->state.dirty = true; });
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status { return {describe(self, ctx), mailbox_depth(self)}; },
  };
}

rate_decision decision_of(schema::bucket_class cls, const token_bucket& b, const take_result& r) {
  rate_decision d;
  d.allowed = r.allowed;
  d.limit = static_cast<int64_t>(b.limits().capacity);
  d.remaining = r.remaining;
  d.reset_epoch = r.reset_epoch;
  d.retry_after = r.retry_after;
  d.bucket = std::string{schema::to_string(cls)};
  return d;
}

} // namespace svc::actors
