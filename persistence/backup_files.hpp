#pragma once
// The files of a data directory besides LMDB that a backup carries, so a
// restored server serves the same outputs under the same URLs and answers the
// same operator: `url.secret`, `admin.token` and the blobs. FORMAT.md, "Backup".

#include <cstddef>
#include <string>

#include "persistence/environment.hpp"

namespace svc::persistence {

/// Copies `url.secret`, `admin.token` and every blob under `blobs/` (temp files
/// of unfinished writes skipped) from `from_dir` into `to_dir` (which must
/// exist), files mode 0600 and folders 0700, each file fsynced; `blobs` counts
/// the blobs copied. A file missing from `from_dir` is an error, not skipped.
status copy_side_files(const std::string& from_dir, const std::string& to_dir, std::size_t& blobs);

/// Makes `data_dir` (absent or empty; anything else is refused, since a
/// restore must never mix with or overwrite a store) a copy of the backup in
/// `backup_dir`: its `data.mdb` plus `copy_side_files`.
status restore_data_dir(const std::string& backup_dir, const std::string& data_dir, std::size_t& blobs);

} // namespace svc::persistence
