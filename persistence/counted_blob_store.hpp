#pragma once
// A blob store that keeps the bytes and number of the blobs it holds, for
// `/metrics` (`svc_blob_bytes`, `svc_blobs`): it starts from what the folder
// held when counted, then follows every put, committed write and remove made through it.

#include <atomic>
#include <memory>

#include "persistence/blob_store.hpp"

namespace svc::persistence {

class counted_blob_store final : public blob_store {
public:
  /// Wraps `inner`, which holds `start` now; every later write to it goes through this store.
  counted_blob_store(std::unique_ptr<blob_store> inner, blob_usage start);
  /// What the store holds now.
  blob_usage usage() const;

  /// A replacement counts the difference of the sizes; a failed put counts what it left.
  status put(std::string_view key, std::string_view bytes) override;
  /// The blob counts once its writer commits, like a put of what it wrote.
  status create(std::string_view key, std::unique_ptr<blob_writer>& out) override;
  std::optional<std::string> get(std::string_view key) const override { return inner_->get(key); }
  std::optional<uint64_t> size(std::string_view key) const override { return inner_->size(key); }
  std::optional<std::string> read_range(std::string_view key, uint64_t offset, uint64_t length) const override {
    return inner_->read_range(key, offset, length);
  }
  std::unique_ptr<blob_file> open(std::string_view key) const override { return inner_->open(key); }
  /// Uncounts the blob if it existed and is gone.
  status remove(std::string_view key) override;

private:
  class counted_writer;
  /// Moves the tally from a key's size `before` a write to its size `after` (nullopt: absent).
  void recount(std::optional<uint64_t> before, std::optional<uint64_t> after);

  std::unique_ptr<blob_store> inner_;
  std::atomic<uint64_t> bytes_, count_;
};

} // namespace svc::persistence
