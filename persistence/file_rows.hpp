#pragma once
// The rows of an uploaded file, written into a batch, so every writer (the
// file writer at upload, the expiry sweeper at expiry) keeps the record, its
// team listing and its expiry in step; and the removal of its bytes.

#include <string_view>

#include "persistence/blob_store.hpp"
#include "persistence/store_tables.hpp"

namespace svc::persistence {

/// A file's record, its team-listing row and its `expiries` row at `expires_at`.
void put_file(const tables& t, write_batch& batch, const schema::file_record& f);

/// Deletes a file's record and its team-listing row (the sweeper erases the expiry row it handled).
void erase_file(const tables& t, write_batch& batch, const schema::file_record& f);

/// Deletes a file's bytes; an absent blob is no error, a failure is logged under `component`.
void remove_file_bytes(blob_store& blobs, std::string_view file_id, std::string_view component);

} // namespace svc::persistence
