#include "persistence/webhook_rows.hpp"

#include <limits>

#include "persistence/job_rows.hpp"

namespace svc::persistence {

std::string owned_key(std::string_view owner, std::string_view id) {
  std::string k;
  k.reserve(owner.size() + id.size() + 1);
  k.append(owner).append("/").append(id);
  return k;
}

void put_endpoint(const tables& t, write_batch& batch, const schema::webhook_endpoint_record& e) {
  t.webhook_endpoints.put(batch, e.id, e);
  t.endpoints_by_team.put(batch, owned_key(e.team_id, e.id), e.id);
}

status erase_endpoint(const tables& t, write_batch& batch, const schema::webhook_endpoint_record& e) {
  bool more = false;
  scan_range range;
  range.prefix = e.id + "/";
  auto tasks = t.delivery_tasks.keys(range, std::numeric_limits<std::size_t>::max(), more);
  if (tasks.failed())
    return {tasks.why()};
  t.webhook_endpoints.erase(batch, e.id);
  t.endpoints_by_team.erase(batch, owned_key(e.team_id, e.id));
  for (auto& key : *tasks)
    t.delivery_tasks.erase(batch, std::move(key));
  return {};
}

void put_event(const tables& t, write_batch& batch, const schema::event_record& e, core::duration retention,
               fan_out state) {
  t.events.put(batch, e.id, e);
  if (!e.synthetic)
    t.events_by_team.put(batch, owned_key(e.team_id, e.id), e.id);
  if (state == fan_out::pending)
    t.pending_events.put(batch, e.id, e.id);
  t.expiries.put(batch, expiry_key(e.created_at + retention, expiry_kind::event, e.id), e.id);
}

void put_task(const tables& t, write_batch& batch, const schema::delivery_task& task) {
  t.delivery_tasks.put(batch, owned_key(task.endpoint_id, task.id), task);
}

void erase_task(const tables& t, write_batch& batch, const schema::delivery_task& task) {
  t.delivery_tasks.erase(batch, owned_key(task.endpoint_id, task.id));
}

void put_delivery(const tables& t, write_batch& batch, const schema::delivery_record& d, core::duration retention) {
  auto key = owned_key(d.endpoint_id, d.id);
  t.expiries.put(batch, expiry_key(d.created_at + retention, expiry_kind::delivery, key), key);
  t.deliveries.put(batch, std::move(key), d);
  if (d.succeeded)
    t.delivered_events.put(batch, owned_key(d.endpoint_id, d.event_id), d.id);
}

} // namespace svc::persistence
