#include "actors/ledger_directory.hpp"

#include "actors/ledger.hpp"
#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"
#include "actors/team_gate.hpp"

namespace svc::actors {
namespace {

using ledger_directory_self = ledger_directory_actor::stateful_pointer<ledger_directory_state>;
using schema::balance_record;

// The team's ledger, spawned on first use; an error for a team that does not
// exist or cannot be read.
caf::expected<ledger_actor> ledger_of(ledger_directory_self self, const context& ctx, const std::string& team_id) {
  if (!holds_team(ctx, team_id))
    return team_not_held();
  if (auto it = self->state.ledgers.find(team_id); it != self->state.ledgers.end())
    return it->second;
  auto team = ctx.tables->teams.get(team_id);
  if (team.failed())
    return storage_failure("ledger_directory", team.why());
  if (team.absent())
    return team_not_found(team_id);
  // A ledger that quits (after a failed commit) or dies is dropped and
  // respawned from LMDB on next use: it holds nothing LMDB does not.
  auto handle = self->spawn(ledger, ctx, team_id);
  adopt(self, handle);
  self->state.ledgers.emplace(team_id, handle);
  return handle;
}

} // namespace

ledger_directory_actor::behavior_type ledger_directory(ledger_directory_self self, context ctx) {
  register_actor(self, ctx, "ledger_directory", "ledger_directory", "");
  log_exceptions(self, "ledger_directory");
  self->set_down_handler([self](caf::down_msg& dm) {
    release(self, dm.source);
    erase_child(self->state.ledgers, dm.source);
    self->state.releases.gone(dm.source);
  });
  return {
    [=](resolve_atom, const std::string& team_id) -> caf::result<ledger_actor> {
      return ledger_of(self, ctx, team_id);
    },
    [=](credit_atom, const std::string& team_id, int64_t amount, std::string& reason) -> caf::result<balance_record> {
      return delegate_to<balance_record>(self, ledger_of(self, ctx, team_id), credit_atom::value, amount,
                                         std::move(reason));
    },
    [=](refund_atom, const std::string& job_id, std::string& reason) -> caf::result<schema::credit_entry_record> {
      // The job names its team; its ledger checks the job again, in order with its other changes.
      auto job = ctx.tables->jobs.get(job_id);
      if (job.failed())
        return storage_failure("ledger_directory", job.why());
      if (job.absent())
        return make_domain_error(schema::error_code::resource_not_found, "id", {{"kind", "job"}, {"id", job_id}});
      return delegate_to<schema::credit_entry_record>(self, ledger_of(self, ctx, job->team_id), refund_atom::value,
                                                      job_id, std::move(reason));
    },
    [=](caf::get_atom, const std::string& team_id) -> caf::result<balance_record> {
      return delegate_to<balance_record>(self, ledger_of(self, ctx, team_id), caf::get_atom::value);
    },
    [=](release_atom, core::shard_id shard) -> caf::result<int64_t> {
      return self->state.releases.begin(self, release_team_children(self, self->state.ledgers, shard));
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return {"teams=" + std::to_string(self->state.ledgers.size()), mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
