#pragma once
// Team bucket takes decided on the asio thread. A take used to be a round
// trip to the team's bucket actor for every request: a message there and an
// answer back, which kept the actor workers waking and polling while reads
// streamed in. Now the bucket's answer to a take seeds a copy of its
// arithmetic here (the same token_bucket, with the limits of the team
// record), later takes the copy allows are answered at once, and what they
// took is charged to the actor in batches, so the actor stays the bucket of
// record (snapshots, the admin view, restarts) up to the takes of the last
// batch. The actor still decides every take the copy would refuse (429s come
// from it), every take while one of its answers is awaited, the first after
// any change of a team record (new limits), and one every `resync_after`.

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/messages.hpp"
#include "actors/token_bucket.hpp"

namespace svc::http {

class rate_allowances {
public:
  /// How long a copy decides alone before the actor is asked again.
  static constexpr std::chrono::milliseconds resync_after{5000};
  /// How long an asked take may go unanswered before it counts as lost.
  static constexpr std::chrono::milliseconds lost_after{30000};

  /// Takes decided here and not yet charged to one team's bucket of one class.
  struct charge {
    std::string team_id;
    schema::bucket_class cls;
    int64_t n;
  };

  /// The verdict on a take of `team`'s bucket `cls` when the copy allows it
  /// (counted for the next charge); nullopt when the bucket must decide.
  /// `team_writes` counts the store's writes of team records (environment::writes_to).
  std::optional<actors::rate_decision> take(const schema::team_record& team, schema::bucket_class cls,
                                            uint64_t team_writes, int64_t now_ms);

  /// A take the bucket is about to decide: until it answers, so does every
  /// other take of the class (for `lost_after` at most: a take sent as its
  /// bucket exited is never answered). Returns the takes decided here since
  /// the last charge, counted as charged: the caller sends them ahead of the take.
  int64_t ask(const std::string& team_id, schema::bucket_class cls, int64_t now_ms);

  /// The bucket's verdict on an asked take. When no other is awaited, it
  /// seeds the copy: the verdict's tokens at `now_ms`, with the limits of
  /// `team` as it was read when the take was asked (`team_writes` then).
  void answered(const schema::team_record& team, schema::bucket_class cls, uint64_t team_writes,
                const actors::rate_decision& d, int64_t now_ms);

  /// Every count of takes decided here since its last charge, counted as charged now.
  std::vector<charge> uncharged();

private:
  struct state {
    std::optional<actors::token_bucket> copy;
    int64_t uncharged = 0;   ///< takes decided here since the last charge
    int asked = 0;           ///< takes on their way to the bucket
    int64_t asked_ms = 0;    ///< when the last of them was sent
    uint64_t team_writes = 0; ///< of the team record the copy's limits come from
    int64_t seeded_ms = 0;
  };
  struct key_hash {
    std::size_t operator()(const std::pair<std::string, schema::bucket_class>& k) const noexcept {
      return std::hash<std::string>{}(k.first) * 31 + static_cast<std::size_t>(k.second);
    }
  };
  state& at(const std::string& team_id, schema::bucket_class cls);

  std::mutex mutex_;
  std::unordered_map<std::pair<std::string, schema::bucket_class>, state, key_hash> states_;
};

} // namespace svc::http
