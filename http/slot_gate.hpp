#pragma once
// Counts what is in flight against a limit, by holder, so that no holder
// takes more than its share: one team uploading slowly cannot lock every
// other team out of the upload slots (each upload's bytes are in memory, up
// to 20 MiB), nor one API key every other client out of the requests this
// node forwards to its peers (a long poll holds one for up to 60 s).

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace svc::http {

class slot_gate {
public:
  /// Held while its work is in flight; the slot is free again when the last
  /// copy goes, which may be after the gate itself (a forward's callbacks
  /// outlive the front that made them at shutdown).
  using slot = std::shared_ptr<void>;
  /// Why no slot was given.
  enum class refusal { none, server_full, share_used };

  /// One holder may hold 1/`share_divisor` of the limit (at least one slot).
  explicit slot_gate(std::size_t share_divisor) : share_divisor_{share_divisor > 0 ? share_divisor : 1} {}

  /// A slot for `holder`, or null (and `why`) when `limit` are in flight, or
  /// the holder holds `share(limit)` of them.
  slot try_enter(const std::string& holder, std::size_t limit, refusal& why);
  /// The most slots one holder may hold of `limit`.
  std::size_t share(std::size_t limit) const { return limit / share_divisor_ > 0 ? limit / share_divisor_ : 1; }
  /// Slots in flight.
  std::size_t in_flight() const;

private:
  /// What the slots count, kept alive by the slots too.
  struct counts {
    std::mutex mutex;
    std::size_t in_flight = 0;
    std::unordered_map<std::string, std::size_t> per_holder;
    void leave(const std::string& holder);
  };

  const std::size_t share_divisor_;
  std::shared_ptr<counts> counts_ = std::make_shared<counts>();
};

} // namespace svc::http
