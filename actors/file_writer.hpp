#pragma once
// The file writer: stores uploads (`POST /v1/files`). Hashing up to 20 MiB
// and an fsynced blob write block, so it runs detached, on its own thread,
// never on an asio or a shared actor thread. The bytes are durable before
// the record is committed, and the record before the answer; a failed
// commit deletes the bytes again. (A crash between the two leaves a blob no
// record names; svcd removes it at its next start.)

#include "actors/context.hpp"
#include "persistence/blob_store.hpp"

namespace svc::actors {

struct file_writer_state {
  uint64_t stored = 0; ///< uploads whose bytes and record are durable
  uint64_t failed = 0; ///< uploads refused with `internal_error`
  static inline const char* name = "file_writer";
};

/// Spawn with `sys.spawn<caf::detached>(file_writer, ctx, blobs)`; `blobs` outlives the actor.
file_writer_actor::behavior_type file_writer(file_writer_actor::stateful_pointer<file_writer_state> self, context ctx,
                                             persistence::blob_store* blobs);

} // namespace svc::actors
