#pragma once
// The requests this node forwarded and still waits on, by peer, and the
// peers they may go to. The HTTP threads send forwarded requests straight to
// the owner's node actor, as this node's own node actor, and the owner
// answers the same way (`answered`), so a request crosses no actor of its
// own on either node: each hop through an actor's mailbox wakes a thread,
// which cost more than the network itself (bench/run-cluster-bench). The
// requests for one peer that arrive while a send is pending go with it, in
// one message.
//
// The router (peer_router.cpp) keeps the links and says which peers are
// reachable; when one goes down, everything in flight to it fails at once
// (503 `owner_unavailable`), and a request whose answer never comes fails at
// its deadline, found by the router's heartbeat.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include <boost/asio/io_context.hpp>

#include "actors/messages.hpp"

namespace svc::cluster {

class forwarding_table : public std::enable_shared_from_this<forwarding_table> {
public:
  using clock = std::chrono::steady_clock;
  using on_answer = std::function<void(actors::forwarded_response&)>;
  using on_error = std::function<void(const caf::error&)>;

  /// Answers and failures run on `io`'s threads; a request unanswered after
  /// `timeout` fails; at most `max_in_flight` wait per peer.
  forwarding_table(boost::asio::io_context& io, clock::duration timeout, std::size_t max_in_flight);
  forwarding_table(const forwarding_table&) = delete;
  forwarding_table& operator=(const forwarding_table&) = delete;

  /// This node's node actor: every forwarded request is sent as it, so the owner knows where to answer.
  void set_own_entry(actors::node_actor entry);
  /// Requests for `peer_id` go to `handle` from now on, or fail at once
  /// while it is null (link down, heartbeat unanswered). Either way the
  /// requests in flight to an earlier handle fail: their answers cannot come.
  void set_route(const std::string& peer_id, actors::node_actor handle);
  /// The peer left the cluster: as `set_route` with no handle, and it is forgotten.
  void forget(const std::string& peer_id);

  /// Sends `req` to node `peer_id` soon, from an asio thread (with the
  /// others for it that arrive meanwhile); `answer` or `error` runs later on
  /// an asio thread, exactly once. Made with make_shared: the send holds it.
  void forward(const std::string& peer_id, actors::forwarded_request req, on_answer answer, on_error error);
  /// The node actor `from` answered; an answer whose ticket did not go to it is ignored.
  void answer(const caf::actor_addr& from, actors::forwarded_answers answers);
  /// Fails the requests whose deadline is before `now`; returns how many.
  std::size_t expire(clock::time_point now);

  /// The most requests that may wait on one peer.
  std::size_t max_in_flight() const { return max_in_flight_; }

  struct peer_counts {
    std::size_t in_flight = 0;
    uint64_t forwarded = 0, failed = 0;
  };
  peer_counts counts(const std::string& peer_id) const;

  /// After this nothing is sent or resumed: the asio side is going away.
  void close();

private:
  struct waiting {
    std::string peer_id;
    caf::actor_addr to;
    clock::time_point deadline;
    on_answer answer;
    on_error error;
  };
  struct route {
    actors::node_actor handle;
    std::vector<actors::forwarded_call> outbox; ///< waiting for the next send
    std::size_t in_flight = 0;
    uint64_t forwarded = 0, failed = 0;
  };

  void send_outbox(const std::string& peer_id);
  void fail_later(on_error error);
  void fail_all_to(const std::string& peer_id); // with mutex_ held

  boost::asio::io_context& io_;
  const clock::duration timeout_;
  const std::size_t max_in_flight_;
  mutable std::mutex mutex_;
  actors::node_actor own_entry_;
  std::map<std::string, route> routes_;
  std::unordered_map<uint64_t, waiting> waiting_;
  uint64_t next_ticket_ = 0;
  bool closed_ = false;
};

} // namespace svc::cluster
