#pragma once
// Counts the uploads whose bytes are in memory, so at most `limit` are (each
// up to 20 MiB): the bound on what uploads can take at once. One team may
// hold at most half of the slots (at least one), so a team uploading slowly
// cannot lock every other team out.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace svc::http {

class upload_gate {
public:
  /// Held while an upload is in flight; the slot is free again when the last copy goes.
  using slot = std::shared_ptr<void>;
  /// Why no slot was given.
  enum class refusal { none, server_full, team_share_used };

  /// A slot for `team_id`, or null (and `why`) when `limit` uploads are in
  /// flight, or the team holds `team_share(limit)` of them.
  slot try_enter(const std::string& team_id, std::size_t limit, refusal& why);
  /// The most slots one team may hold: half of `limit`, at least one.
  static std::size_t team_share(std::size_t limit) { return limit / 2 > 0 ? limit / 2 : 1; }
  /// Uploads in flight.
  std::size_t in_flight() const;

private:
  void leave(const std::string& team_id);

  mutable std::mutex mutex_;
  std::size_t in_flight_ = 0;
  std::unordered_map<std::string, std::size_t> per_team_;
};

} // namespace svc::http
