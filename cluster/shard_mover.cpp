#include "cluster/shard_mover.hpp"

#include <algorithm>
#include <optional>

#include <caf/scoped_actor.hpp>

#include "core/log.hpp"
#include "cluster/etcd_values.hpp"
#include "clients/etcd_client.hpp"
#include "persistence/shard_digest.hpp"
#include "persistence/shard_rows.hpp"

namespace svc::cluster {
using clients::etcd_client;
using clients::etcd_error;
namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

constexpr auto peer_call_timeout = 60s; ///< one page or piece committed on the new owner
constexpr auto etcd_call_timeout = 1000ms;
constexpr int map_swap_attempts = 5;

template <class... Ts>
bool ask_bool(caf::scoped_actor& self, const caf::actor& to, std::chrono::seconds timeout, std::string& why, Ts&&... xs) {
  bool answer = false;
  self->request(to, timeout, std::forward<Ts>(xs)...)
    .receive(
      [&](bool ok) {
        answer = ok;
        if (!ok) // the receiver logs its reason, and keeps it there
          why = "(refused; the refusing node's log says why)";
      },
      [&](caf::error& err) { why = self->system().render(err); });
  return answer;
}

// Records in etcd that this node moves `shard` to `move.to`: the new owner
// takes the shard's pages only under such a record. Empty, or why not.
std::string record_move(const shard_mover_links& links, core::shard_id shard, const recorded_move& move) {
  try {
    etcd_client{links.etcd, etcd_call_timeout, links.etcd_security}.put(move_key(shard), move_value(move));
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

// Erases the record of `shard`'s move once the move ended; a failure is
// logged only (the next move of the shard writes its own record).
void forget_move(const shard_mover_links& links, core::shard_id shard, const std::string& log_prefix) {
  try {
    etcd_client{links.etcd, etcd_call_timeout, links.etcd_security}.erase(move_key(shard));
  } catch (const std::exception& e) {
    core::log_warn("cluster", log_prefix + "its record in etcd stays: " + e.what());
  }
}

// Names `to` the owner of `shard` in etcd's map if this node still is:
// empty, or why not.
std::string swap_owner(const shard_mover_links& links, core::shard_id shard, const std::string& self_id,
                       const std::string& to) {
  try {
    etcd_client etcd{links.etcd, etcd_call_timeout, links.etcd_security};
    for (int attempt = 0; attempt < map_swap_attempts; ++attempt) {
      auto got = etcd.get(std::string{etcd_map_key});
      if (got.kvs.empty())
        return "etcd holds no shard map";
      auto map = parse_map_value(got.kvs.front().value, got.kvs.front().mod_revision);
      if (!map)
        return "etcd's shard map is malformed";
      if (map->owners[shard] != self_id)
        return "the map names " + map->owners[shard] + " for the shard, not this node";
      map->owners[shard] = to;
      if (etcd.put_if(std::string{etcd_map_key}, map_value(*map), got.kvs.front().mod_revision))
        return {};
    }
    return "the shard map kept changing";
  } catch (const std::exception& e) {
    return std::string{"etcd: "} + e.what();
  }
}

// Empty when node `to` (`target`) holds the same rows and blobs of `shard`
// as this node, or what differs or kept it from saying.
std::string compare_copies(caf::scoped_actor& self, const caf::actor& target, const persistence::tables& tables,
                           const persistence::blob_store& blobs, core::shard_id shard, const std::string& to) {
  auto here = persistence::digest_shard(tables, blobs, shard);
  if (here.failed())
    return "the store failed reading the shard back: " + here.why();
  std::optional<actors::shard_digest_v1> there;
  std::string why;
  // The new owner reads the whole shard back: a minute, and a second more per 20 MB.
  auto timeout = peer_call_timeout + std::chrono::seconds{here->bytes / (20 << 20)};
  self->request(target, timeout, actors::verify_atom::value, static_cast<uint16_t>(shard))
    .receive([&](actors::shard_digest_v1& d) { there = std::move(d); },
             [&](caf::error& err) { why = self->system().render(err); });
  if (!there)
    return "node " + to + " did not say what it holds of the shard: " + why;
  if (there->rows != here->rows || there->blobs != here->blobs || there->bytes != here->bytes
      || there->sha256 != here->sha256)
    return "node " + to + " holds another copy: " + std::to_string(there->rows) + " rows, "
           + std::to_string(there->blobs) + " blobs, " + std::to_string(there->bytes) + " bytes there against "
           + std::to_string(here->rows) + ", " + std::to_string(here->blobs) + ", " + std::to_string(here->bytes)
           + " here" + (there->rows == here->rows ? " (same counts, other bytes)" : "");
  return {};
}

std::string log_prefix_of(const actors::shard_move_status& status) {
  return "moving shard " + std::to_string(status.shard) + " to " + status.to + ": ";
}

} // namespace

shard_mover::~shard_mover() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_)
    w.thread.join();
}

std::optional<schema::error_code> shard_mover::start(uint16_t shard, const std::string& to,
                                                     actors::shard_move_status& status) {
  auto& table = *links_.table;
  if (shard >= core::shard_count || !table.holds(static_cast<core::shard_id>(shard)))
    return schema::error_code::invalid_state;
  if (to == table.self() || !table.member(to))
    return schema::error_code::invalid_parameter;
  std::lock_guard lock{mutex_};
  if (running_ || stopping_ || table.erasing(static_cast<core::shard_id>(shard)))
    return schema::error_code::invalid_state;
  running_ = true;
  status = {};
  status.shard = shard;
  status.to = to;
  status.state = "moving";
  report(status);
  // The threads of earlier moves that ended are joined here, so they do not pile up.
  workers_.erase(std::remove_if(workers_.begin(), workers_.end(),
                                [](worker& w) {
                                  if (!*w.finished)
                                    return false;
                                  w.thread.join();
                                  return true;
                                }),
                 workers_.end());
  worker w;
  w.thread = std::thread{[this, status, finished = w.finished] {
    run(status);
    *finished = true;
  }};
  workers_.push_back(std::move(w));
  return std::nullopt;
}

void shard_mover::report(const actors::shard_move_status& status) const {
  caf::anon_send(links_.router, actors::progress_atom::value, status);
}

bool shard_mover::pause(std::chrono::milliseconds d) {
  std::unique_lock lock{mutex_};
  return !wake_.wait_for(lock, d, [this] { return stopping_; });
}

void shard_mover::run(actors::shard_move_status status) {
  auto& table = *links_.table;
  auto shard = static_cast<core::shard_id>(status.shard);
  auto log_prefix = log_prefix_of(status);
  caf::scoped_actor self{*links_.system};
  auto handover = caf::actor_cast<caf::actor>(links_.handover);
  caf::actor target;
  auto began = steady::now();
  bool released = false;
  bool recorded = false;
  bool sent = false;
  auto fail = [&](std::string why) {
    // Before the map changed: the shard stays here. Drop what the new owner
    // got, and resume the shard's actors here if they had let go.
    std::string ignored;
    if (sent && target)
      ask_bool(self, target, 10s, ignored, actors::delete_atom::value, status.shard);
    if (recorded)
      forget_move(links_, shard, log_prefix);
    table.thaw(shard); // adopting needs the shard held here
    if (released && !ask_bool(self, handover, 30s, ignored, actors::adopt_atom::value, shard))
      core::log_error("cluster", log_prefix + "the shard's actors did not resume here: " + ignored);
    status.state = "failed";
    status.error = std::move(why);
    status.frozen_ms = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - began).count();
    core::log_error("cluster", log_prefix + "failed, the shard stays here: " + status.error);
    // Free before reported: whoever follows the move may start the next one at once.
    {
      std::lock_guard lock{mutex_};
      running_ = false;
    }
    report(status);
  };

  core::log_info("cluster", log_prefix + "freezing it");
  table.freeze(shard);
  auto drain_until = steady::now() + links_.drain_deadline;
  while (table.work_in_progress(shard) > 0) {
    if (steady::now() > drain_until)
      return fail("its running requests did not finish in time");
    if (!pause(5ms))
      return fail("svcd is stopping");
  }
  std::string why;
  released = true; // even a partial release is undone by adopting again
  if (!ask_bool(self, handover, 30s, why, actors::release_atom::value, shard))
    return fail("its actors did not stop: " + why);

  caf::strong_actor_ptr peer;
  self->request(links_.router, 5s, actors::resolve_atom::value, status.to)
    .receive([&](caf::strong_actor_ptr& p) { peer = std::move(p); }, [&](caf::error&) {});
  target = caf::actor_cast<caf::actor>(peer);
  if (!target)
    return fail("node " + status.to + " is not linked to this node");
  if (auto refused = record_move(links_, shard, {table.self(), status.to}); !refused.empty())
    return fail("the move could not be recorded in etcd: " + refused);
  recorded = true;

  std::vector<std::string> blobs;
  std::string cursor;
  for (bool first = true; first || !cursor.empty(); first = false) {
    auto page = persistence::read_shard_rows(*links_.tables, shard, cursor, move_page_bytes);
    if (page.failed())
      return fail("the store failed: " + page.why());
    actors::shard_rows_v1 message{status.shard, first, {}};
    for (auto& r : page->rows) {
      status.bytes += r.key.size() + r.value.size();
      message.rows.push_back({static_cast<uint8_t>(r.from), std::move(r.key), std::move(r.value)});
    }
    status.rows += message.rows.size();
    blobs.insert(blobs.end(), page->blobs.begin(), page->blobs.end());
    cursor = std::move(page->next);
    sent = true;
    if (!ask_bool(self, target, peer_call_timeout, why, actors::import_atom::value, std::move(message)))
      return fail("node " + status.to + " did not take a page of rows " + why);
  }
  for (auto& name : blobs) {
    auto file = links_.blobs->open(name);
    if (!file) {
      core::log_warn("cluster", log_prefix + "blob " + name + " is named by a row but absent; not copied");
      continue;
    }
    uint64_t offset = 0;
    for (bool last = false; !last;) {
      auto bytes = file->read(offset, move_blob_piece);
      if (!bytes)
        return fail("cannot read blob " + name);
      last = offset + bytes->size() >= file->size();
      auto size = bytes->size();
      actors::blob_piece_v1 piece{status.shard, name, offset, std::move(*bytes), last};
      if (!ask_bool(self, target, peer_call_timeout, why, actors::import_atom::value, std::move(piece)))
        return fail("node " + status.to + " did not take blob " + name + " " + why);
      offset += size;
      status.bytes += size;
    }
    ++status.blobs;
  }
  report(status);

  // The map changes only once the new owner holds what this node does: the
  // same rows and blobs, by their digest. Until then this copy is the shard.
  if (auto differs = compare_copies(self, target, *links_.tables, *links_.blobs, shard, status.to); !differs.empty())
    return fail(differs);
  if (auto refused = swap_owner(links_, shard, table.self(), status.to); !refused.empty())
    return fail("the shard map was not changed: " + refused);
  // The map names the new owner: from here on the move only goes forward.
  // Its record goes now, before the new owner shows the move committed
  // (and whoever follows it starts the next one, which this node must not
  // be busy for; nor may it erase that move's record).
  forget_move(links_, shard, log_prefix);
  table.hand_over(shard, status.to);
  table.thaw(shard);
  status.frozen_ms = std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - began).count();
  // Free before the new owner shows the move committed (it does once it
  // resumed the shard, before it answers below): `svcctl node drain` starts
  // the next move as soon as it reads "committed".
  {
    std::lock_guard lock{mutex_};
    running_ = false;
  }
  if (!ask_bool(self, target, peer_call_timeout, why, actors::adopt_atom::value, status.shard))
    status.error = "node " + status.to + " did not resume the shard's jobs and deliveries yet " + why
                   + "; it resumes them at its next start";
  status.state = "committed";
  core::log_info("cluster", log_prefix + "committed: " + std::to_string(status.rows) + " rows, "
                              + std::to_string(status.blobs) + " blobs, " + std::to_string(status.bytes)
                              + " bytes; frozen " + std::to_string(status.frozen_ms) + " ms");
  report(status);
  erase_later(std::move(status));
}

void shard_mover::erase_later(actors::shard_move_status status) {
  auto shard = static_cast<core::shard_id>(status.shard);
  auto log_prefix = log_prefix_of(status);
  caf::scoped_actor self{*links_.system};
  std::string why;
  links_.table->set_erasing(shard, true);
  if (pause(links_.grace)) {
    persistence::write_batch batch;
    std::vector<std::string> old_blobs;
    auto erased = persistence::erase_shard_rows(*links_.tables, shard, batch, old_blobs);
    bool ok = !erased.failed()
              && ask_bool(self, caf::actor_cast<caf::actor>(links_.store), 30s, why, actors::commit_atom::value,
                          std::move(batch));
    if (ok) {
      if (auto failed = persistence::remove_all(*links_.blobs, old_blobs); !failed.empty())
        core::log_warn("cluster", log_prefix + "not every blob was removed: " + failed);
      status.state = "done";
      core::log_info("cluster", log_prefix + "erased " + std::to_string(*erased) + " rows and "
                                  + std::to_string(old_blobs.size()) + " blobs here");
    } else {
      status.error = "the old rows were not erased here: " + (erased.failed() ? erased.why() : why);
      core::log_error("cluster", log_prefix + status.error);
    }
    report(status);
  }
  links_.table->set_erasing(shard, false);
}

} // namespace svc::cluster
