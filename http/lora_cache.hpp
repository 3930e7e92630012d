#pragma once
// The LoRA catalogue as creates and estimates resolve against it: read from
// LMDB once and kept until an entry is added (the table only grows), so the
// hot create path does not decode the catalogue on every request.

#include <memory>
#include <mutex>
#include <vector>

#include "persistence/environment.hpp"
#include "persistence/store_tables.hpp"

namespace svc::http {

class lora_cache {
public:
  using snapshot = std::shared_ptr<const std::vector<schema::lora_record>>;
  /// The catalogue in id (creation) order, as of now; the store's error when
  /// it cannot be read.
  persistence::read_result<snapshot> get(const persistence::environment& env, const persistence::tables& tables);

private:
  std::mutex mutex_;
  std::size_t entries_ = 0; ///< table size the snapshot was read at
  snapshot snapshot_;
};

} // namespace svc::http
