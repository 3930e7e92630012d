#pragma once
// Rate-token takes asked from the asio threads. Bucket actors answer takes as
// requests; one relay actor makes those requests for the HTTP side, so a take
// costs no spawned actor and no continuation travels inside a message (every
// message stays serialisable). The continuations wait here, under a ticket
// the relay carries, and run on an asio thread with the verdict or the error.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <boost/asio/io_context.hpp>

#include "actors/messages.hpp"

namespace svc::http {

/// The relay's interface, declared with every other in messages.hpp.
using take_relay_actor = actors::take_relay_actor;

class take_relay {
public:
  using on_verdict = std::function<void(const actors::rate_decision&)>;
  using on_error = std::function<void(const caf::error&)>;

  /// Spawns the relay; each take waits at most `timeout` for its verdict.
  take_relay(caf::actor_system& system, boost::asio::io_context& io, caf::duration timeout);
  /// Stops the relay; continuations still waiting are dropped, never run.
  ~take_relay();
  take_relay(const take_relay&) = delete;
  take_relay& operator=(const take_relay&) = delete;

  /// Takes a token of `cls` from a team's bucket.
  void take(const actors::bucket_actor& bucket, schema::bucket_class cls, on_verdict verdict, on_error error);
  /// Takes a token for an unauthenticated client's address.
  void take(const actors::anonymous_bucket_actor& buckets, std::string address, on_verdict verdict,
            on_error error);

  /// The continuations of takes in flight, shared with the relay actor.
  class waiting;

private:
  std::shared_ptr<waiting> waiting_;
  take_relay_actor relay_;
};

} // namespace svc::http
