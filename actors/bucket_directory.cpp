#include "actors/bucket_directory.hpp"

#include "actors/bucket.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "actors/team_gate.hpp"

namespace svc::actors {
namespace {

using bucket_directory_self = bucket_directory_actor::stateful_pointer<bucket_directory_state>;

// The team's bucket, spawned with its overrides and last snapshot on first
// use; nothing is spawned while those cannot be read (limits must not reset).
caf::expected<bucket_actor> bucket_of(bucket_directory_self self, const context& ctx, const std::string& team_id) {
  if (!holds_team(ctx, team_id))
    return team_not_held();
  if (auto it = self->state.buckets.find(team_id); it != self->state.buckets.end())
    return it->second;
  auto team = ctx.tables->teams.get(team_id);
  auto snapshot = ctx.tables->buckets.get(team_id);
  if (team.failed() || snapshot.failed())
    return storage_failure("bucket_directory", team.failed() ? team.why() : snapshot.why());
  bucket_overrides overrides;
  if (team.has_value())
    overrides = team->rate_limit_overrides;
  auto handle = self->spawn(bucket, ctx, team_id, std::move(overrides), std::move(snapshot).found());
  adopt(self, handle);
  self->state.buckets.emplace(team_id, handle);
  return handle;
}

// Counts down the snapshots of a shutdown; answers when the last one is in.
struct snapshot_round {
  caf::typed_response_promise<bool> promise;
  std::size_t outstanding = 0;
  bool all_ok = true;
  void done_one(bool ok) {
    all_ok = all_ok && ok;
    if (--outstanding == 0)
      promise.deliver(all_ok);
  }
};

} // namespace

bucket_directory_actor::behavior_type bucket_directory(bucket_directory_self self, context ctx) {
  register_actor(self, ctx, "bucket_directory", "bucket_directory", "");
  log_exceptions(self, "bucket_directory");
  // A bucket that died is respawned on its team's next request, from the
  // stored overrides and its last snapshot.
  self->set_down_handler([self](caf::down_msg& dm) {
    release(self, dm.source);
    erase_child(self->state.buckets, dm.source);
    self->state.releases.gone(dm.source);
  });
  return {
    [=](resolve_atom, const std::string& team_id) -> caf::result<bucket_actor> {
      return bucket_of(self, ctx, team_id);
    },
    [=](charge_atom, const std::string& team_id, schema::bucket_class cls, int64_t n) -> caf::result<rate_decision> {
      return delegate_to<rate_decision>(self, bucket_of(self, ctx, team_id), charge_atom::value, cls, n);
    },
    [=](limits_atom, const std::string& team_id, bucket_overrides& overrides) -> caf::result<bool> {
      if (auto it = self->state.buckets.find(team_id); it != self->state.buckets.end())
        return self->delegate(it->second, limits_atom::value, std::move(overrides));
      return true; // a bucket spawned later reads the stored overrides
    },
    [=](snapshot_atom) -> caf::result<bool> {
      if (self->state.buckets.empty())
        return true;
      auto round = std::make_shared<snapshot_round>();
      round->promise = self->make_response_promise<bool>();
      round->outstanding = self->state.buckets.size();
      for (auto& [team, handle] : self->state.buckets)
        self->request(handle, std::chrono::seconds{10}, snapshot_atom::value)
          .then([round](bool ok) { round->done_one(ok); }, [round](caf::error&) { round->done_one(false); });
      return round->promise;
    },
    [=](release_atom, core::shard_id shard) -> caf::result<int64_t> {
      return self->state.releases.begin(self, release_team_children(self, self->state.buckets, shard));
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return {"teams=" + std::to_string(self->state.buckets.size()), mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
