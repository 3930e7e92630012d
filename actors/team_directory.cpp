#include "actors/team_directory.hpp"

#include "actors/credit_history.hpp"
#include "actors/ledger.hpp"
#include "actors/counted_status.hpp"
#include "actors/supervision.hpp"
#include "core/ids.hpp"
#include "schema/api_versions.hpp"

namespace svc::actors {
namespace {

using team_directory_self = team_directory_actor::stateful_pointer<team_directory_state>;
using schema::error_code;

// Ids tried for a new team before giving up on finding one whose shard this node holds.
constexpr int max_id_tries = 10000;

// The stored team `id`, or the error to answer: 404 when there is none, 503 when the store cannot say.
caf::expected<schema::team_record> load_team(const context& ctx, const std::string& id) {
  auto team = ctx.tables->teams.get(id);
  if (team.failed())
    return storage_failure("team_directory", team.why());
  if (team.absent())
    return team_not_found(id);
  return std::move(*team);
}

caf::error check_name(const std::string& name) {
  if (name.empty() || name.size() > 200)
    return invalid_parameter("name", "must be 1 to 200 characters");
  return {};
}

caf::error check_owner_email(const std::string& email) {
  auto at = email.find('@');
  if (email.size() > 254 || at == std::string::npos || at == 0 || at + 1 == email.size())
    return invalid_parameter("owner_email", "must be an e-mail address");
  return {};
}

// The first invalid field of `u`, checked before anything changes.
caf::error check_update(const team_update& u) {
  if (u.name)
    if (auto err = check_name(*u.name))
      return err;
  if (u.owner_email)
    if (auto err = check_owner_email(*u.owner_email))
      return err;
  if (u.default_api_version && !schema::is_api_version(*u.default_api_version))
    return invalid_parameter("default_api_version", "must be one of " + schema::api_versions_text());
  if (u.balance_low_threshold && (*u.balance_low_threshold < 0 || *u.balance_low_threshold > max_credits))
    return invalid_parameter("balance_low_threshold", "must be an integer between 0 and " + std::to_string(max_credits));
  return {};
}

// Commits, then answers `reply`; awaiting serialises this actor's
// read-modify-write cycles.
template <class T>
caf::result<T> commit_then(team_directory_self self, const context& ctx, persistence::write_batch batch, T reply) {
  auto promise = self->make_response_promise<T>();
  ++self->state.changes;
  self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
    .await(
      [=](bool) mutable { promise.deliver(std::move(reply)); },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

// Writes `team` and answers it once durable.
caf::result<schema::team_record> store_team(team_directory_self self, const context& ctx, schema::team_record team) {
  persistence::write_batch batch;
  ctx.tables->teams.put(batch, team.id, team);
  return commit_then(self, ctx, std::move(batch), std::move(team));
}

} // namespace

team_directory_actor::behavior_type team_directory(team_directory_self self, context ctx, bucket_directory_actor buckets) {
  register_actor(self, ctx, "team_directory", "team_directory", "");
  log_exceptions(self, "team_directory");
  return {
    [=](create_atom, const new_team& req) -> caf::result<schema::team_record> {
      if (auto err = check_name(req.name))
        return err;
      if (auto err = check_owner_email(req.owner_email))
        return err;
      if (req.credits < 0 || req.credits > max_credits)
        return invalid_parameter("credits", "must be between 0 and " + std::to_string(max_credits));
      schema::team_record team;
      team.id = core::make_id("team");
      // In a cluster the team's node is the owner of its id's shard, so the id
      // must name a shard held here (the node that routed the create here
      // chose one of them); a few tries find one unless the map just moved.
      for (int tries = 1; ctx.owns_team && !ctx.owns_team(team.id); ++tries) {
        if (tries == max_id_tries)
          return make_domain_error(schema::error_code::owner_unavailable);
        team.id = core::make_id("team");
      }
      team.name = req.name;
      team.owner_email = req.owner_email;
      team.default_api_version = schema::newest_api_version();
      team.created_at = ctx.clock->now();
      persistence::write_batch batch;
      ctx.tables->teams.put(batch, team.id, team);
      schema::balance_record opening{team.id, req.credits, 0, {}};
      ctx.tables->balances.put(batch, team.id, opening);
      if (req.credits != 0)
        put_credit_entry(ctx, batch, opening, schema::credit_entry_kind::grant, req.credits, {}, "opening balance");
      ++self->state.created;
      return commit_then(self, ctx, std::move(batch), team);
    },
    [=](patch_atom, const std::string& team_id, const team_update& update) -> caf::result<schema::team_record> {
      auto team = load_team(ctx, team_id);
      if (!team)
        return std::move(team.error());
      if (auto err = check_update(update))
        return err;
      team->name = update.name.value_or(team->name);
      team->owner_email = update.owner_email.value_or(team->owner_email);
      team->default_api_version = update.default_api_version.value_or(team->default_api_version);
      team->balance_low_threshold = update.balance_low_threshold.value_or(team->balance_low_threshold);
      return store_team(self, ctx, *team);
    },
    [=](disable_atom, const std::string& team_id, const std::string& reason) -> caf::result<schema::team_record> {
      auto team = load_team(ctx, team_id);
      if (!team)
        return std::move(team.error());
      if (reason.size() > schema::max_disabled_reason)
        return invalid_parameter("reason", "must be at most " + std::to_string(schema::max_disabled_reason) + " characters");
      if (team->disabled_at) // the first disable says when access ended
        return std::move(*team);
      team->disabled_at = ctx.clock->now();
      team->disabled_reason = reason;
      return store_team(self, ctx, *team);
    },
    [=](enable_atom, const std::string& team_id) -> caf::result<schema::team_record> {
      auto team = load_team(ctx, team_id);
      if (!team)
        return std::move(team.error());
      if (!team->disabled_at)
        return std::move(*team);
      team->disabled_at.reset();
      team->disabled_reason.clear();
      return store_team(self, ctx, *team);
    },
    [=](limits_atom, const std::string& team_id, schema::bucket_class cls,
        schema::bucket_limits limits) -> caf::result<schema::team_record> {
      auto team = load_team(ctx, team_id);
      if (!team)
        return std::move(team.error());
      if (cls == schema::bucket_class::anonymous)
        return invalid_parameter("bucket", "anonymous is not a team bucket");
      if (!(limits.capacity >= 1 && limits.capacity <= 1e12))
        return invalid_parameter("capacity", "must be between 1 and 10^12");
      if (!(limits.per_minute > 0 && limits.per_minute <= 1e12))
        return invalid_parameter("per_minute", "must be above 0 and at most 10^12");
      team->rate_limit_overrides[std::string{schema::to_string(cls)}] = limits;
      persistence::write_batch batch;
      ctx.tables->teams.put(batch, team->id, *team);
      // The live bucket changes once the override is durable, and the answer
      // waits for it: the caller's next request is limited by the new values.
      auto promise = self->make_response_promise<schema::team_record>();
      ++self->state.changes;
      auto record = *team;
      self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
        .await(
          [=](bool) mutable {
            self->request(buckets, ctx.cfg->request_deadline, limits_atom::value, record.id, record.rate_limit_overrides)
              .then([=](bool) mutable { promise.deliver(record); },
                    // Durable all the same: the bucket reads it when it is next spawned.
                    [=](caf::error&) mutable { promise.deliver(record); });
          },
          [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
      return promise;
    },
    [=](share_atom, const std::string& team_id, schema::render_share share) -> caf::result<schema::team_record> {
      auto team = load_team(ctx, team_id);
      if (!team)
        return std::move(team.error());
      if (!(share.weight >= schema::min_render_weight && share.weight <= schema::max_render_weight))
        return invalid_parameter("weight", "must be between 0.01 and 1000");
      if (share.max_concurrent < 0 || share.max_concurrent > schema::max_concurrent_renders)
        return invalid_parameter("max_concurrent", "must be between 0 (no cap) and 10000");
      team->renders = share;
      return store_team(self, ctx, *team);
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return counted_status(self, {{"created", self->state.created}, {"changes", self->state.changes}});
    },
  };
}

} // namespace svc::actors
