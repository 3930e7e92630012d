#include "actors/supervisor.hpp"

#include "actors/messages.hpp"
#include "core/log.hpp"

namespace svc::actors {
namespace {

using supervisor_self = caf::stateful_actor<supervisor_state>*;

// An incarnation that lived this long before dying is respawned at once, and
// so is one that died sooner once; each further quick death (its recovery
// throws, say) waits longer, so a crash loop costs little while the log says why.
constexpr std::chrono::seconds healthy_life{5};
constexpr std::chrono::milliseconds first_backoff{100};
constexpr std::chrono::milliseconds max_backoff{10000};

void spawn_incarnation(supervisor_self self, const incarnation_factory& spawn) {
  auto& st = self->state;
  st.incarnation = spawn(self->system());
  st.last_spawn = caf::make_timestamp();
  self->monitor(st.incarnation);
}

} // namespace

caf::behavior supervisor(supervisor_self self, std::string kind, incarnation_factory spawn) {
  spawn_incarnation(self, spawn);
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    if (dm.source != st.incarnation.address())
      return;
    st.incarnation = nullptr;
    if (st.stopping) {
      self->quit(dm.reason);
      return;
    }
    if (caf::make_timestamp() - st.last_spawn >= healthy_life)
      st.quick_deaths = 0;
    ++st.quick_deaths;
    st.backoff = st.quick_deaths == 1 ? std::chrono::milliseconds{0}
                                      : std::min(max_backoff, std::max(first_backoff, st.backoff * 2));
    core::log_error(kind, "died (" + caf::to_string(dm.reason) + "); respawning"
                            + (st.backoff.count() ? " in " + std::to_string(st.backoff.count()) + " ms" : ""));
    if (st.backoff.count() == 0)
      self->send(self, respawn_atom::value);
    else
      self->delayed_send(self, st.backoff, respawn_atom::value);
  });
  // A shutdown stops the incarnation first and ends with it, so whoever
  // waits for the supervisor's exit waits for the incarnation's last writes.
  self->set_exit_handler([=](caf::exit_msg& msg) {
    auto& st = self->state;
    st.stopping = true;
    if (st.incarnation)
      self->send_exit(st.incarnation, msg.reason);
    else
      self->quit(msg.reason);
  });
  // Everything else is the incarnation's: forwarded with its sender and
  // request id, so the incarnation answers the original requester directly.
  // While a respawn waits, requests fail as `request_receiver_down`, which
  // clients see as 503 `unavailable`.
  self->set_default_handler([=](caf::scheduled_actor*, caf::message_view& x) -> caf::result<caf::message> {
    if (!self->state.incarnation)
      return caf::make_error(caf::sec::request_receiver_down);
    auto promise = self->make_response_promise();
    promise.delegate(self->state.incarnation, x.move_content_to_message());
    return promise;
  });
  return {
    [=](respawn_atom) {
      auto& st = self->state;
      if (st.stopping || st.incarnation)
        return;
      ++st.restarts;
      spawn_incarnation(self, spawn);
      core::log_warn(kind, "respawned (restart " + std::to_string(st.restarts) + ")");
    },
  };
}

} // namespace svc::actors
