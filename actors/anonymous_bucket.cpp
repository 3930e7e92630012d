#include "actors/anonymous_bucket.hpp"

#include "actors/mailbox_depth.hpp"
#include "actors/supervision.hpp"

namespace svc::actors {
namespace {

// Addresses tracked at most; past it the sweep runs at once. 100k buckets are ~10 MB.
constexpr std::size_t max_tracked = 100000;

} // namespace

anonymous_bucket_actor::behavior_type anonymous_bucket(
  anonymous_bucket_actor::stateful_pointer<anonymous_bucket_state> self, context ctx) {
  register_actor(self, ctx, "anonymous_bucket", "anonymous", "");
  log_exceptions(self, "anonymous_bucket");
  auto limits = schema::info(schema::bucket_class::anonymous).limits;
  auto sweep = [=] {
    auto now = core::to_unix_ms(ctx.clock->now());
    auto& m = self->state.by_address;
    for (auto it = m.begin(); it != m.end();)
      it = it->second.full(now) ? m.erase(it) : std::next(it);
  };
  return {
    [=](take_atom, const std::string& address) -> rate_decision {
      auto now = core::to_unix_ms(ctx.clock->now());
      auto& m = self->state.by_address;
      if (m.size() >= max_tracked)
        sweep();
      auto it = m.try_emplace(address, limits, now).first;
      auto r = it->second.take(now);
      if (!self->state.sweep_armed) {
        self->state.sweep_armed = true;
        self->delayed_send(self, std::chrono::minutes{1}, sweep_atom::value);
      }
      return {r.allowed, static_cast<int64_t>(limits.capacity), r.remaining, r.reset_epoch, r.retry_after,
              "anonymous"};
    },
    [=](sweep_atom) {
      self->state.sweep_armed = false;
      sweep();
      if (!self->state.by_address.empty()) {
        self->state.sweep_armed = true;
        self->delayed_send(self, std::chrono::minutes{1}, sweep_atom::value);
      }
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return {"addresses=" + std::to_string(self->state.by_address.size()), mailbox_depth(self)};
    },
  };
}

} // namespace svc::actors
