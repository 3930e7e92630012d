#pragma once
// The files of a data directory besides LMDB that a backup carries, so a
// restored server serves the same outputs and, when told to adopt them,
// under the same URLs to the same operator: `url.secret`, `admin.token` and
// the blobs. FORMAT.md, "Backup".
//
// A backup is untrusted input when restored (it may come from anywhere): it
// holds regular files only, never links (one would make the restored server
// serve any file its user can read), its store must open and read through
// before it is used, and its secrets are taken only when asked.

#include <cstddef>
#include <string>

#include "persistence/environment.hpp"

namespace svc::persistence {

/// Copies `url.secret`, `admin.token` and every blob under `blobs/` (temp files
/// of unfinished writes skipped) from `from_dir` into `to_dir` (which must
/// exist), files mode 0600 and folders 0700, each file fsynced; `blobs` counts
/// the blobs copied. A file missing from `from_dir` is an error, not skipped,
/// and so is anything under it that is not a regular file or a folder.
status copy_side_files(const std::string& from_dir, const std::string& to_dir, std::size_t& blobs);

/// Whose secrets (`url.secret`, `admin.token`) a restored data directory holds.
enum class restored_secrets {
  fresh,   ///< none: svcd makes new ones at its first start (old URLs and token stop working)
  adopted, ///< the backup's: its signed URLs and admin token keep working
};

/// Makes `data_dir` (absent or empty; anything else is refused, since a
/// restore must never mix with or overwrite a store) a copy of the backup in
/// `backup_dir`: its `data.mdb`, checked by opening it and reading every
/// table through in a child process (a damaged file can crash its reader),
/// its blobs, and its secrets if `secrets` says so. On any failure `data_dir`
/// is left empty.
status restore_data_dir(const std::string& backup_dir, const std::string& data_dir, restored_secrets secrets,
                        std::size_t& blobs);

} // namespace svc::persistence
