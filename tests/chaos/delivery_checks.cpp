// After a restart: every event owed to a live endpoint reached its receiver,
// signed with a secret its team was given.
#include <chrono>

#include "checks.hpp"
#include "support/json_util.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

namespace svc::chaos {
namespace {

struct owed_delivery {
  const endpoint_entry* endpoint;
  const event_view* event;
  std::string full_key;
};

// svcd's own account of the attempts, for the report.
std::string attempts_of(check_context& cx, const owed_delivery& d) {
  std::string out;
  try {
    for (auto& row : e2e::all_deliveries(cx.api, d.full_key, d.endpoint->id))
      if (e2e::json_str(row, "event_id") == d.event->id)
        out += " [attempt " + std::to_string(e2e::json_int(row, "attempt").value_or(0)) + " "
               + e2e::json_str(row, "status") + " " + e2e::json_str(row, "error_class") + "]";
  } catch (const std::exception& e) {
    out = std::string{" (could not read them: "} + e.what() + ")";
  }
  return out.empty() ? " none" : out;
}

} // namespace

void check_deliveries(check_context& cx) {
  auto teams = cx.book.with([](ledger_state& b) { return b.teams; });
  std::vector<owed_delivery> owed;
  for (std::size_t t = 0; t < teams.size(); ++t)
    for (auto& e : teams[t].endpoints) {
      if (e.deleted)
        continue;
      for (auto& [id, event] : cx.memory.events[t])
        if (e.events.count(event.type) && event.created_ms > e.subscribed_at_ms)
          owed.push_back({&e, &event, teams[t].full_key});
    }
  for (auto& d : owed)
    cx.memory.owed.insert(d.endpoint->id + " " + d.event->id);

  auto missing = [&] {
    std::vector<const owed_delivery*> out;
    for (auto& d : owed)
      if (cx.hooks.delivered(d.endpoint->path, d.event->id) == 0)
        out.push_back(&d);
    return out;
  };
  e2e::wait_until([&] { return missing().empty(); }, cx.options.delivery_timeout, std::chrono::milliseconds{100});
  for (auto* d : missing())
    cx.report("delivered-at-least-once", d->endpoint->id + " " + d->event->id,
              d->event->type + " minted at " + e2e::iso8601_ms(std::chrono::system_clock::time_point{
                                                 std::chrono::milliseconds{d->event->created_ms}})
                + ", after the endpoint's create was answered, never reached its receiver; svcd's delivery rows:"
                + attempts_of(cx, *d));

  for (auto& d : cx.hooks.take_unverified())
    cx.report("signed-with-known-secret", d.path + " " + d.event_id,
              "a delivery whose Svc-Webhook-Signature matches no secret the team was given: "
                + d.request.header("Svc-Webhook-Signature").value_or("(none)"));
  auto malformed = cx.hooks.totals().malformed;
  if (malformed > cx.memory.malformed_reported) {
    cx.report("delivery-well-formed", "cycle " + std::to_string(cx.cycle),
              std::to_string(malformed - cx.memory.malformed_reported)
                + " deliveries whose body is no envelope with the id of their Svc-Event-Id");
    cx.memory.malformed_reported = malformed;
  }
}

} // namespace svc::chaos
