#pragma once
// Output and upload bytes, outside LMDB. `blob_store` is the seam tests use to
// inject faults; `file_blob_store` keeps one file per blob under a folder,
// written to a temp file (whole, or streamed in through a `blob_writer`),
// fsynced and renamed into place (and the folder fsynced), so a blob either
// exists whole or not at all after a crash.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.hpp"
#include "core/positional_file.hpp"
#include "persistence/environment.hpp"

namespace svc::persistence {

/// One blob opened for reading: its bytes stay readable while the handle
/// lives, even if the blob is removed or replaced meanwhile (a download that
/// started before the expiry sweep finishes with the bytes it began with).
class blob_file {
public:
  virtual ~blob_file() = default;
  /// Size in bytes when opened.
  virtual uint64_t size() const = 0;
  /// Up to `length` bytes from `offset` (fewer at the end), or nullopt on a read error.
  virtual std::optional<std::string> read(uint64_t offset, uint64_t length) const = 0;
};

/// A blob being written at any offset (a muxer patches what it wrote): the
/// bytes go to a temp file beside the blob's name, and `commit` makes them the
/// blob durably, replacing any previous one. Dropped uncommitted (a failed or
/// cancelled render), it deletes the temp file: the blob exists whole or not
/// at all, also after a crash (the store removes temp files when opened).
class blob_writer : public core::positional_file {
public:
  /// Makes the bytes written the blob (fsync, rename, folder fsync); the
  /// writer is spent afterwards. A failed commit leaves nothing of the new
  /// bytes; after a failed write it returns that failure.
  virtual status commit() = 0;
  /// The first failed write (`out_of_room` on a full disk, as for put), or
  /// ok. Every write after a failed one fails too.
  virtual const status& failure() const = 0;
};

class blob_store {
public:
  virtual ~blob_store() = default;
  /// Stores `bytes` under `key` durably (replacing any previous blob). A
  /// failed put leaves nothing of the new bytes behind; `out_of_room` when
  /// the disk is full (ENOSPC, EDQUOT, or EFBIG past a file size limit).
  virtual status put(std::string_view key, std::string_view bytes) = 0;
  /// Starts writing the blob `key` into `out` (see blob_writer), for bytes
  /// too many to hold in memory; fails when its temp file cannot be made.
  virtual status create(std::string_view key, std::unique_ptr<blob_writer>& out) = 0;
  /// The whole blob, or nullopt if absent.
  virtual std::optional<std::string> get(std::string_view key) const = 0;
  /// Size in bytes, or nullopt if absent.
  virtual std::optional<uint64_t> size(std::string_view key) const = 0;
  /// Up to `length` bytes from `offset` (fewer at the end), or nullopt if absent.
  virtual std::optional<std::string> read_range(std::string_view key, uint64_t offset, uint64_t length) const = 0;
  /// The blob opened for reads of its ranges, or null if absent.
  virtual std::unique_ptr<blob_file> open(std::string_view key) const = 0;
  /// Deletes a blob; deleting an absent one is not an error.
  virtual status remove(std::string_view key) = 0;
};

/// Deletes every blob of `keys`, going on past a failure; empty when all
/// went, else the first failure's message (the rest are orphans for the
/// start-up sweep).
std::string remove_all(blob_store& blobs, const std::vector<std::string>& keys);

/// Blob keys are paths of `[A-Za-z0-9_-]` segments separated by '/', each
/// segment 1..128 characters, at most 4 segments (`img_01.../0.png` style,
/// '.' allowed inside a segment but never a whole `.`/`..` segment).
bool valid_blob_key(std::string_view key);

/// How much a store holds.
struct blob_usage {
  uint64_t bytes = 0; ///< the blobs' sizes added up
  uint64_t count = 0; ///< blobs
};

/// One blob found by a listing.
struct listed_blob {
  std::string key;         ///< e.g. `outputs/img_....0.png`
  core::time_point written; ///< when its file was last written (its mtime)
};

/// Blobs as files under `root` (created if needed; temp files a crash left
/// behind are removed).
class file_blob_store final : public blob_store {
public:
  explicit file_blob_store(std::string root);
  /// Every blob directly in `folder` (`outputs`, `files`), in no particular
  /// order; none when the folder does not exist. Temp files are not listed.
  std::vector<listed_blob> list(std::string_view folder) const;
  /// Every blob under the root, counted by walking its folders (temp files are no blobs).
  blob_usage usage() const;
  status put(std::string_view key, std::string_view bytes) override;
  status create(std::string_view key, std::unique_ptr<blob_writer>& out) override;
  std::optional<std::string> get(std::string_view key) const override;
  std::optional<uint64_t> size(std::string_view key) const override;
  std::optional<std::string> read_range(std::string_view key, uint64_t offset, uint64_t length) const override;
  std::unique_ptr<blob_file> open(std::string_view key) const override;
  status remove(std::string_view key) override;

private:
  std::string path_of(std::string_view key) const { return root_ + "/" + std::string{key}; }
  void remove_abandoned_temp_files();
  std::string root_;
};

} // namespace svc::persistence
