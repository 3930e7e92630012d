#include "actors/registry.hpp"

#include <memory>

namespace svc::actors {
namespace {

// Collects the answers of one listing; delivers when the last one is in.
struct listing {
  caf::typed_response_promise<std::vector<actor_summary>> promise;
  std::vector<actor_summary> rows;
  std::size_t outstanding = 0;
  void done_one() {
    if (--outstanding == 0)
      promise.deliver(std::move(rows));
  }
};

} // namespace

registry_actor::behavior_type registry(registry_actor::stateful_pointer<registry_state> self,
                                       std::chrono::milliseconds describe_timeout) {
  self->set_down_handler([=](caf::down_msg& dm) { self->state.live.erase(dm.source.id()); });
  return {
    [=](register_atom, std::string& kind, std::string& id, std::string& team, caf::actor_addr& addr) {
      self->monitor(addr);
      auto key = addr.id();
      self->state.live[key] = {std::move(kind), std::move(id), std::move(team), std::move(addr),
                               std::chrono::steady_clock::now()};
    },
    [=](fault_atom, const std::string& kind, const std::string& id) -> int64_t {
      int64_t told = 0;
      for (auto& [key, e] : self->state.live)
        if (e.kind == kind && e.id == id)
          if (auto handle = caf::actor_cast<introspectable_actor>(e.addr)) {
            self->send(handle, fault_atom::value);
            ++told;
          }
      return told;
    },
    [=](list_atom, const actor_filter& filter) -> caf::result<std::vector<actor_summary>> {
      auto out = std::make_shared<listing>();
      auto now = std::chrono::steady_clock::now();
      std::vector<std::pair<introspectable_actor, actor_summary>> targets;
      for (auto& [id, e] : self->state.live) {
        if (targets.size() >= filter.limit)
          break;
        if ((!filter.kind.empty() && e.kind != filter.kind) || (!filter.team.empty() && e.team != filter.team))
          continue;
        auto handle = caf::actor_cast<introspectable_actor>(e.addr);
        if (!handle)
          continue;
        auto age = std::chrono::duration_cast<std::chrono::milliseconds>(now - e.since).count();
        targets.emplace_back(handle, actor_summary{e.kind, e.id, e.team, {}, 0, age});
      }
      // Only now take the promise: once taken, a plain return value is never sent.
      if (targets.empty())
        return std::vector<actor_summary>{};
      out->promise = self->make_response_promise<std::vector<actor_summary>>();
      out->outstanding = targets.size();
      for (auto& [handle, row] : targets) {
        self->request(handle, describe_timeout, describe_atom::value)
          .then(
            [out, row = row](actor_status& st) mutable {
              row.state = std::move(st.state);
              row.mailbox = st.mailbox;
              out->rows.push_back(std::move(row));
              out->done_one();
            },
            [out, row = row](caf::error&) mutable {
              row.state = "(no answer)";
              out->rows.push_back(std::move(row));
              out->done_one();
            });
      }
      return out->promise;
    },
  };
}

} // namespace svc::actors
