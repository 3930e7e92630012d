#include "cluster/shard_intake.hpp"

#include <chrono>
#include <map>

#include "clients/etcd_client.hpp"
#include "cluster/etcd_values.hpp"

#include "core/log.hpp"
#include "persistence/shard_digest.hpp"
#include "persistence/shard_rows.hpp"

namespace svc::cluster {
namespace {

struct open_blob {
  std::unique_ptr<persistence::blob_writer> writer;
  uint64_t next_offset = 0;
};

struct shard_intake_state {
  std::map<std::string, open_blob> blobs; ///< blobs being received, by name
  std::map<uint16_t, actors::shard_move_status> moves; ///< what arrived of each shard moving here
  std::map<uint16_t, std::string> senders; ///< the node each shard moving here comes from (its owner)
  std::map<std::string, uint16_t> expected_blobs; ///< blobs the rows moved here own, and their shard: the only pieces taken
  static inline const char* name = "shard_intake";
};

using shard_intake_self = shard_intake_actor::stateful_pointer<shard_intake_state>;

// One etcd read, when a move's first page arrives.
constexpr std::chrono::milliseconds etcd_call_timeout{1000};

// Rows from another node, checked like any input: a known table, sizes in bounds.
bool to_rows(const actors::shard_rows_v1& page, std::vector<persistence::shard_row>& out, std::string& why) {
  if (page.shard >= core::shard_count || page.rows.size() > max_rows_per_page) {
    why = "shard out of range or too many rows";
    return false;
  }
  std::size_t bytes = 0;
  out.reserve(page.rows.size());
  for (auto& r : page.rows) {
    auto t = persistence::table_from_index(r.table);
    bytes += r.key.size() + r.value.size();
    if (!t || r.key.empty() || bytes > max_page_bytes) {
      why = "a row names no table, has no key, or the page is too big";
      return false;
    }
    out.push_back({*t, r.key, r.value});
  }
  return true;
}

// Adds to `batch` the erasure of what this node holds of `shard`, listing its
// blobs in `blobs`; empty, or why the store failed.
std::string erase_shard(const shard_intake_links& links, uint16_t shard, persistence::write_batch& batch,
                        std::vector<std::string>& blobs) {
  auto erased = persistence::erase_shard_rows(*links.tables, static_cast<core::shard_id>(shard), batch, blobs);
  return erased.failed() ? erased.why() : std::string{};
}

// Commits `batch`, then removes `blobs`; answers `promise` with the commit's outcome.
void commit_then_remove(shard_intake_self self, const shard_intake_links& links, persistence::write_batch batch,
                        std::vector<std::string> blobs, caf::typed_response_promise<bool> promise) {
  self->request(links.store, caf::infinite, actors::commit_atom::value, std::move(batch))
    .then(
      [=](bool ok) mutable {
        if (ok)
          if (auto failed = persistence::remove_all(*links.blobs, blobs); !failed.empty())
            core::log_warn("cluster", "a shard's rows are erased here but not all its blobs: " + failed);
        promise.deliver(ok);
      },
      [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

bool refuse(uint16_t shard, const std::string& why) {
  core::log_warn("cluster", "refused a page of shard " + std::to_string(shard) + " moving here: " + why);
  return false;
}

// Why etcd does not record a move of `shard` from `from` to this node, or
// empty when it does: a member's certificate alone moves nothing, the
// owner decided the move where only the cluster's etcd user may write.
std::string unrecorded_move(const shard_intake_links& links, uint16_t shard, const std::string& from) {
  try {
    clients::etcd_client etcd{links.etcd, etcd_call_timeout, links.etcd_security};
    auto got = etcd.get(move_key(static_cast<core::shard_id>(shard)));
    auto move = got.kvs.empty() ? std::nullopt : parse_move_value(got.kvs.front().value);
    if (!move || !(*move == recorded_move{from, links.table->self()}))
      return "etcd records no move of it from node " + from + " to this node";
    return {};
  } catch (const std::exception& e) {
    return std::string{"etcd could not be asked whether the move is recorded: "} + e.what();
  }
}

// Whether `from` holds `shard`: only its owner may move it, here or anywhere.
bool owns(const shard_intake_links& links, uint16_t shard, const std::string& from) {
  return shard < core::shard_count && links.table->owner_of(static_cast<core::shard_id>(shard)) == from;
}

// Whether a row of `shard` moved here owns blob `name`.
bool expects_blob(shard_intake_self self, const std::string& name, uint16_t shard) {
  auto it = self->state.expected_blobs.find(name);
  return it != self->state.expected_blobs.end() && it->second == shard;
}

// The move of `shard` here ended (handed over or dropped): nothing more of it is taken.
void end_move(shard_intake_self self, uint16_t shard) {
  self->state.senders.erase(shard);
  auto& blobs = self->state.expected_blobs;
  for (auto it = blobs.begin(); it != blobs.end();)
    it = it->second == shard ? blobs.erase(it) : std::next(it);
}

// Whether the move of `shard` here began with a first page from `from`.
bool moving_from(shard_intake_self self, uint16_t shard, const std::string& from) {
  auto it = self->state.senders.find(shard);
  return it != self->state.senders.end() && it->second == from;
}

} // namespace

shard_intake_actor spawn_shard_intake(caf::actor_system& sys, shard_intake_links links) {
  return sys.spawn<caf::detached>([](shard_intake_self self, shard_intake_links links) -> shard_intake_actor::behavior_type {
    return {
      [=](actors::import_atom, actors::shard_rows_v1& page, const std::string& from) -> caf::result<bool> {
        auto shard = static_cast<core::shard_id>(page.shard);
        // Never over a shard this node answers for: its live rows would be overwritten.
        if (page.shard >= core::shard_count || links.table->owner_of(shard) == links.table->self())
          return refuse(page.shard, "this node holds the shard");
        if (!owns(links, page.shard, from) || (!page.first && !moving_from(self, page.shard, from)))
          return refuse(page.shard, "node " + from + " does not hold the shard, or began no move of it here");
        if (links.table->erasing(shard)) // it left lately: its old copy goes first (the grace period)
          return refuse(page.shard, "this node is still erasing its previous copy of the shard");
        if (page.first)
          if (auto why = unrecorded_move(links, page.shard, from); !why.empty())
            return refuse(page.shard, why);
        std::vector<persistence::shard_row> rows;
        std::string why;
        if (!to_rows(page, rows, why))
          return refuse(page.shard, why);
        persistence::write_batch batch;
        std::vector<std::string> stale_blobs;
        // The first page clears what an earlier, failed move left here; its
        // blobs go before this move's blobs (sent after the rows) arrive.
        if (page.first)
          if (why = erase_shard(links, page.shard, batch, stale_blobs); !why.empty())
            return refuse(page.shard, "the store failed: " + why);
        if (!persistence::put_shard_rows(batch, shard, rows, why))
          return refuse(page.shard, why);
        auto& move = self->state.moves[page.shard];
        if (page.first) { // shown at once, so an earlier move of the shard here is not taken for this one
          end_move(self, page.shard); // what an earlier move of it here left
          self->state.senders[page.shard] = from;
          move = {};
          move.shard = page.shard;
          move.to = links.table->self();
          move.state = "moving";
          self->send(links.router, actors::progress_atom::value, move);
        }
        move.rows += rows.size();
        std::vector<std::string> owned;
        for (auto& r : rows) {
          move.bytes += r.key.size() + r.value.size();
          persistence::add_blobs_of(r, owned);
        }
        for (auto& b : owned)
          self->state.expected_blobs[b] = page.shard;
        auto promise = self->make_response_promise<bool>();
        commit_then_remove(self, links, std::move(batch), std::move(stale_blobs), promise);
        return promise;
      },
      [=](actors::import_atom, actors::blob_piece_v1& piece, const std::string& from) -> bool {
        auto shard = static_cast<core::shard_id>(piece.shard);
        if (piece.shard >= core::shard_count || links.table->owner_of(shard) == links.table->self()
            || !persistence::valid_blob_key(piece.name) || !expects_blob(self, piece.name, piece.shard))
          return refuse(piece.shard, "a blob piece no row moved here owns, or for a shard held here");
        if (!owns(links, piece.shard, from) || !moving_from(self, piece.shard, from))
          return refuse(piece.shard, "a blob piece from node " + from + ", which moves no such shard here");
        auto& open = self->state.blobs[piece.name];
        if (piece.offset == 0) {
          open = {};
          if (auto st = links.blobs->create(piece.name, open.writer); !st.ok()) {
            self->state.blobs.erase(piece.name);
            return refuse(piece.shard, "cannot create blob: " + st.message);
          }
        }
        std::string error;
        if (!open.writer || piece.offset != open.next_offset
            || !open.writer->write_at(piece.offset, piece.bytes.data(), piece.bytes.size(), error)) {
          self->state.blobs.erase(piece.name);
          return refuse(piece.shard, "blob " + piece.name + " out of order or not written " + error);
        }
        open.next_offset += piece.bytes.size();
        self->state.moves[piece.shard].bytes += piece.bytes.size();
        if (!piece.last)
          return true;
        auto st = open.writer->commit();
        self->state.blobs.erase(piece.name);
        if (!st.ok())
          return refuse(piece.shard, "blob " + piece.name + " not committed: " + st.message);
        ++self->state.moves[piece.shard].blobs;
        return true;
      },
      [=](actors::verify_atom, uint16_t shard, const std::string& from) -> caf::result<actors::shard_digest_v1> {
        if (shard >= core::shard_count || !moving_from(self, shard, from)) {
          refuse(shard, "node " + from + " asks what is here of a shard it moves no rows of here");
          return caf::make_error(caf::sec::invalid_argument);
        }
        auto digest = persistence::digest_shard(*links.tables, *links.blobs, static_cast<core::shard_id>(shard));
        if (digest.failed()) {
          refuse(shard, "the store failed: " + digest.why());
          return caf::make_error(caf::sec::runtime_error, "the store failed: " + digest.why());
        }
        return actors::shard_digest_v1{shard, digest->rows, digest->blobs, digest->bytes, std::move(digest->sha256)};
      },
      [=](actors::adopt_atom, uint16_t shard, const std::string& from) -> caf::result<bool> {
        // The map may name this node already: the mover changed it before asking.
        if (shard >= core::shard_count || !moving_from(self, shard, from))
          return refuse(shard, "node " + from + " hands over a shard it moved no rows of here");
        end_move(self, shard);
        links.table->hand_over(static_cast<core::shard_id>(shard), links.table->self());
        auto promise = self->make_response_promise<bool>();
        self->request(links.handover, caf::infinite, actors::adopt_atom::value, static_cast<core::shard_id>(shard))
          .then(
            [=](bool ok) mutable {
              auto& move = self->state.moves[shard];
              move.shard = shard;
              move.to = links.table->self();
              move.state = "committed"; // the map names this node now, resumed or not
              move.error = ok ? "" : "the shard's jobs and deliveries did not resume here (see the log)";
              self->send(links.router, actors::progress_atom::value, move);
              self->state.moves.erase(shard);
              promise.deliver(ok);
            },
            [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
        return promise;
      },
      [=](actors::delete_atom, uint16_t shard, const std::string& from) -> caf::result<bool> {
        if (shard >= core::shard_count || links.table->owner_of(static_cast<core::shard_id>(shard)) == links.table->self())
          return false;
        if (!owns(links, shard, from))
          return refuse(shard, "node " + from + ", which does not hold the shard, asks to drop its copy here");
        end_move(self, shard);
        self->state.blobs.clear();
        persistence::write_batch batch;
        std::vector<std::string> blobs;
        if (auto why = erase_shard(links, shard, batch, blobs); !why.empty())
          return refuse(shard, "the store failed: " + why);
        auto promise = self->make_response_promise<bool>();
        commit_then_remove(self, links, std::move(batch), std::move(blobs), promise);
        return promise;
      },
    };
  }, std::move(links));
}

} // namespace svc::cluster
