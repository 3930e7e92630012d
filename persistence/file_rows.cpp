#include "persistence/file_rows.hpp"

#include "core/log.hpp"
#include "persistence/job_rows.hpp"
#include "persistence/webhook_rows.hpp"

namespace svc::persistence {

void put_file(const tables& t, write_batch& batch, const schema::file_record& f) {
  t.files.put(batch, f.id, f);
  t.files_by_team.put(batch, owned_key(f.team_id, f.id), f.id);
  t.expiries.put(batch, expiry_key(f.expires_at, expiry_kind::file, f.id), f.id);
}

void erase_file(const tables& t, write_batch& batch, const schema::file_record& f) {
  t.files.erase(batch, f.id);
  t.files_by_team.erase(batch, owned_key(f.team_id, f.id));
}

void remove_file_bytes(blob_store& blobs, std::string_view file_id, std::string_view component) {
  if (auto st = blobs.remove(schema::file_blob_key(file_id)); !st.ok())
    core::log_warn(component, "deleting the bytes of " + std::string{file_id} + ": " + st.message);
}

} // namespace svc::persistence
