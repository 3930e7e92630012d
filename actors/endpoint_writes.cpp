#include "actors/endpoint_writes.hpp"

#include "core/log.hpp"
#include "persistence/webhook_rows.hpp"

namespace svc::actors {
namespace {

constexpr std::chrono::milliseconds first_pause{1000};
constexpr std::chrono::milliseconds max_pause{30000};

// One commit's batch: every write's rows in order, then the record as memory
// holds it with this commit's client changes applied, unless the endpoint is
// being deleted.
persistence::write_batch batch_of(endpoint_self self, const context& ctx) {
  auto& st = self->state;
  persistence::write_batch batch;
  auto record = st.record;
  bool put_record = st.record_changed, erased = false;
  for (auto& w : st.committing) {
    batch.append(w.rows);
    if (w.change) {
      w.change(record);
      put_record = true;
    }
    erased = erased || w.erases_record;
  }
  if (put_record && !erased)
    persistence::put_endpoint(*ctx.tables, batch, record);
  st.committing_record_change = st.record_changed;
  st.record_changed = false;
  return batch;
}

// A releasing endpoint exits when nothing it wrote is still on its way.
void quit_if_written(endpoint_self self) {
  auto& st = self->state;
  if (st.releasing && st.committing.empty() && st.queued.empty() && !st.record_changed && !st.retry_armed)
    self->quit();
}

void landed(endpoint_self self, const context& ctx) {
  auto& st = self->state;
  st.pause = std::chrono::milliseconds{0};
  auto done = std::move(st.committing);
  st.committing.clear();
  for (auto& w : done) {
    if (w.change)
      w.change(st.record);
    st.erased = st.erased || w.erases_record;
    if (w.after)
      w.after();
  }
  flush_writes(self, ctx);
  quit_if_written(self);
}

void refuse_or_retry(endpoint_self self, const context& ctx, const caf::error& err) {
  auto& st = self->state;
  auto done = std::move(st.committing);
  st.committing.clear();
  std::deque<endpoint_write> retried;
  for (auto& w : done) {
    if (w.refused)
      w.refused(err);
    else
      retried.push_back(std::move(w));
  }
  if (retried.empty() && !st.committing_record_change)
    return flush_writes(self, ctx); // only clients' writes failed: nothing to retry
  // The record's background changes the failed commit carried go with the retry.
  st.record_changed = st.record_changed || st.committing_record_change;
  for (auto it = retried.rbegin(); it != retried.rend(); ++it)
    st.queued.push_front(std::move(*it));
  st.pause = std::min(max_pause, std::max(first_pause, st.pause * 2));
  core::log_error("endpoint " + st.record.id,
                  "write failed: " + caf::to_string(err) + "; retrying in " + std::to_string(st.pause.count()) + " ms");
  st.retry_armed = true;
  self->delayed_send(self, st.pause, flush_atom::value);
}

} // namespace

void write_in_order(endpoint_self self, const context& ctx, endpoint_write write) {
  self->state.queued.push_back(std::move(write));
  flush_writes(self, ctx);
}

void write_record(endpoint_self self, const context& ctx) {
  self->state.record_changed = true;
  flush_writes(self, ctx);
}

void flush_writes(endpoint_self self, const context& ctx) {
  auto& st = self->state;
  // Once the delete landed nothing is written again: a later write would
  // bring the deleted record back (found by the crash campaign).
  if (st.erased || !st.committing.empty() || st.retry_armed || (st.queued.empty() && !st.record_changed))
    return;
  st.committing.assign(std::make_move_iterator(st.queued.begin()), std::make_move_iterator(st.queued.end()));
  st.queued.clear();
  self->request(ctx.store, caf::infinite, commit_atom::value, batch_of(self, ctx))
    .then([=](bool) { landed(self, ctx); }, [=](caf::error& err) { refuse_or_retry(self, ctx, err); });
}

void quit_when_written(endpoint_self self, const context& ctx) {
  self->state.releasing = true;
  flush_writes(self, ctx);
  quit_if_written(self);
}

} // namespace svc::actors
