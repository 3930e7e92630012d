#include "actors/file_writer.hpp"

#include "actors/counted_status.hpp"
#include "actors/supervision.hpp"
#include "core/crypto.hpp"
#include "core/log.hpp"
#include "persistence/file_rows.hpp"

namespace svc::actors {

file_writer_actor::behavior_type file_writer(file_writer_actor::stateful_pointer<file_writer_state> self, context ctx,
                                             persistence::blob_store* blobs) {
  register_actor(self, ctx, "file_writer", "file_writer", "");
  log_exceptions(self, "file_writer");
  return {
    [=](create_atom, file_upload& upload) -> caf::result<schema::file_record> {
      auto record = std::move(upload.record);
      record.bytes = upload.bytes->size();
      record.sha256 = core::to_hex(core::sha256(*upload.bytes));
      if (auto st = blobs->put(schema::file_blob_key(record.id), *upload.bytes); !st.ok()) {
        core::log_error("file_writer", record.id + ": storing the bytes failed: " + st.message);
        ++self->state.failed;
        return make_domain_error(st.out_of_room ? schema::error_code::insufficient_storage
                                                : schema::error_code::internal_error);
      }
      persistence::write_batch batch;
      persistence::put_file(*ctx.tables, batch, record);
      auto promise = self->make_response_promise<schema::file_record>();
      // No timeout: the store answers every commit, so a failure here is a
      // real one and the bytes can go; a timeout would leave that unknown.
      self->request(ctx.store, caf::infinite, commit_atom::value, std::move(batch))
        .then(
          [=](bool) mutable {
            ++self->state.stored;
            promise.deliver(record);
          },
          [=](caf::error& err) mutable {
            core::log_error("file_writer", record.id + ": committing the record failed: " + caf::to_string(err));
            persistence::remove_file_bytes(*blobs, record.id, "file_writer");
            ++self->state.failed;
            // A full store says so (507, try later); anything else is ours (500).
            auto full = to_api_error(err).code == schema::error_code::insufficient_storage;
            promise.deliver(full ? err : make_domain_error(schema::error_code::internal_error));
          });
      return promise;
    },
    crash_on_fault(),
    [=](describe_atom) -> actor_status {
      return counted_status(self, {{"stored", self->state.stored}, {"failed", self->state.failed}});
    },
  };
}

} // namespace svc::actors
