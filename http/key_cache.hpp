#pragma once
// Decoded API keys and their teams, by secret hash, for the auth stage. An
// entry is valid only while no commit has written the tables it was read from
// (keys, key hashes, teams) since before it was read: a revocation, rotation,
// deactivation or team change empties the cache once its commit is visible,
// so it never serves a key or team older than LMDB's, while the commits of
// everything else (job progress, ledgers, deliveries) leave it warm. Unknown
// hashes are never cached (guessing cannot fill memory).

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/shard.hpp"
#include "persistence/store_tables.hpp"

namespace svc::http {

/// A key and its team as of one commit.
struct key_entry {
  schema::api_key_record key;
  schema::team_record team;
};

class key_cache {
public:
  /// The key whose secret hashes to `secret_sha256` and names
  /// `secret_shard` (core::shard_of_key_secret), and its team; absent for an
  /// unknown key, an error when the store cannot say.
  persistence::read_result<std::shared_ptr<const key_entry>> lookup(const persistence::environment& env,
                                                                    const persistence::tables& tables,
                                                                    std::optional<core::shard_id> secret_shard,
                                                                    const std::string& secret_sha256);

private:
  static constexpr std::size_t max_entries = 10000;
  std::mutex mutex_;
  uint64_t writes_ = 0; ///< writes to those tables when the entries were read
  std::unordered_map<std::string, std::shared_ptr<const key_entry>> entries_;
};

} // namespace svc::http
