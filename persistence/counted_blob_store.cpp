#include "persistence/counted_blob_store.hpp"

namespace svc::persistence {

counted_blob_store::counted_blob_store(std::unique_ptr<blob_store> inner, blob_usage start)
  : inner_{std::move(inner)}, bytes_{start.bytes}, count_{start.count} {}

blob_usage counted_blob_store::usage() const {
  return {bytes_.load(std::memory_order_relaxed), count_.load(std::memory_order_relaxed)};
}

// The size before and the write are two steps: two writers of one key at
// once could both count it as new. Svc has none (a job's render writes its
// own outputs, an upload its own file id), so the tally stays exact.
status counted_blob_store::put(std::string_view key, std::string_view bytes) {
  auto before = inner_->size(key);
  auto st = inner_->put(key, bytes);
  // A failed replacement may have taken the old blob with it: what is there counts.
  recount(before, st.ok() ? std::optional<uint64_t>{bytes.size()} : inner_->size(key));
  return st;
}

// Passes everything to the store's writer and counts its commit.
class counted_blob_store::counted_writer final : public blob_writer {
public:
  counted_writer(counted_blob_store& store, std::string key, std::unique_ptr<blob_writer> inner)
    : store_{store}, key_{std::move(key)}, inner_{std::move(inner)} {}
  bool write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) override {
    return inner_->write_at(offset, data, size, error);
  }
  int64_t read_at(uint64_t offset, char* data, std::size_t size) const override {
    return inner_->read_at(offset, data, size);
  }
  uint64_t size() const override { return inner_->size(); }
  const status& failure() const override { return inner_->failure(); }

  status commit() override {
    auto before = store_.inner_->size(key_);
    auto st = inner_->commit();
    store_.recount(before, st.ok() ? std::optional<uint64_t>{inner_->size()} : store_.inner_->size(key_));
    return st;
  }

private:
  counted_blob_store& store_;
  std::string key_;
  std::unique_ptr<blob_writer> inner_;
};

status counted_blob_store::create(std::string_view key, std::unique_ptr<blob_writer>& out) {
  std::unique_ptr<blob_writer> inner;
  auto st = inner_->create(key, inner);
  if (st.ok())
    out = std::make_unique<counted_writer>(*this, std::string{key}, std::move(inner));
  return st;
}

status counted_blob_store::remove(std::string_view key) {
  auto before = inner_->size(key);
  auto st = inner_->remove(key);
  recount(before, st.ok() ? std::nullopt : inner_->size(key));
  return st;
}

void counted_blob_store::recount(std::optional<uint64_t> before, std::optional<uint64_t> after) {
  if (!before && after)
    count_.fetch_add(1, std::memory_order_relaxed);
  else if (before && !after)
    count_.fetch_sub(1, std::memory_order_relaxed);
  // One step either way, so a scrape never reads the old size taken off alone.
  auto old_size = before.value_or(0), new_size = after.value_or(0);
  if (new_size >= old_size)
    bytes_.fetch_add(new_size - old_size, std::memory_order_relaxed);
  else
    bytes_.fetch_sub(old_size - new_size, std::memory_order_relaxed);
}

} // namespace svc::persistence
