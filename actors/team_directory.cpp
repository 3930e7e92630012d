#include "actors/team_directory.hpp"

#include "actors/credit_history.hpp"
#include "actors/ledger.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "core/ids.hpp"
#include "schema/api_versions.hpp"

namespace svc::actors {
namespace {

using self_ptr = team_directory_actor::stateful_pointer<team_directory_state>;
using schema::error_code;

caf::error invalid(std::string param, std::string detail) {
  return make_domain_error(error_code::invalid_parameter, std::move(param), {{"detail", std::move(detail)}});
}

caf::error no_team(const std::string& id) {
  return make_domain_error(error_code::resource_not_found, "team", {{"kind", "team"}, {"id", id}});
}

// Commits, then answers `reply`; awaiting serialises this actor's
// read-modify-write cycles.
template <class T>
caf::result<T> commit_then(self_ptr self, const context& ctx, persistence::write_batch batch, T reply) {
  auto promise = self->make_response_promise<T>();
  ++self->state.changes;
  self->request(ctx.store, ctx.cfg->request_deadline, commit_atom::value, std::move(batch))
    .await(
      [=](bool) mutable { promise.deliver(std::move(reply)); },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

} // namespace

team_directory_actor::behavior_type team_directory(self_ptr self, context ctx, bucket_directory_actor buckets) {
  register_actor(self, ctx, "team_directory", "team_directory", "");
  log_exceptions(self, "team_directory");
  return {
    [=](create_atom, const new_team& req) -> caf::result<schema::team_record> {
      if (req.name.empty() || req.name.size() > 200)
        return invalid("name", "must be 1 to 200 characters");
      auto at = req.owner_email.find('@');
      if (req.owner_email.size() > 254 || at == std::string::npos || at == 0 || at + 1 == req.owner_email.size())
        return invalid("owner_email", "must be an e-mail address");
      if (req.credits < 0 || req.credits > max_credits)
        return invalid("credits", "must be between 0 and " + std::to_string(max_credits));
      schema::team_record team;
      team.id = core::make_id("team");
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
    [=](patch_atom, const std::string& team_id, int64_t threshold) -> caf::result<schema::team_record> {
      auto team = ctx.tables->teams.get(team_id);
      if (team.failed())
        return storage_failure("team_directory", team.why());
      if (team.absent())
        return no_team(team_id);
      if (threshold < 0 || threshold > max_credits)
        return invalid("balance_low_threshold", "must be an integer between 0 and " + std::to_string(max_credits));
      team->balance_low_threshold = threshold;
      persistence::write_batch batch;
      ctx.tables->teams.put(batch, team->id, *team);
      return commit_then(self, ctx, std::move(batch), *team);
    },
    [=](limits_atom, const std::string& team_id, schema::bucket_class cls,
        schema::bucket_limits limits) -> caf::result<schema::team_record> {
      auto team = ctx.tables->teams.get(team_id);
      if (team.failed())
        return storage_failure("team_directory", team.why());
      if (team.absent())
        return no_team(team_id);
      if (cls == schema::bucket_class::anonymous)
        return invalid("bucket", "anonymous is not a team bucket");
      if (!(limits.capacity >= 1 && limits.capacity <= 1e12))
        return invalid("capacity", "must be between 1 and 10^12");
      if (!(limits.per_minute > 0 && limits.per_minute <= 1e12))
        return invalid("per_minute", "must be above 0 and at most 10^12");
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
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return {"created=" + std::to_string(self->state.created) + " changes=" + std::to_string(self->state.changes),
              mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
