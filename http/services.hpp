#pragma once
// What request handlers share: configuration, clock, read access to the
// tables, the actor handles, the cache of team bucket handles and the takes
// decided from copies of those buckets.

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include "actors/runtime.hpp"
#include "core/callback_inbox.hpp"
#include "http/job_view_cache.hpp"
#include "http/key_cache.hpp"
#include "http/long_polls.hpp"
#include "http/lora_cache.hpp"
#include "http/rate_allowance.hpp"
#include "http/recent_errors.hpp"
#include "http/take_relay.hpp"
#include "http/slot_gate.hpp"

namespace svc::http {

/// Team id -> bucket actor, so a request reaches its bucket in one hop. A
/// bucket that exits (it died, and its directory respawns it on next use)
/// leaves the cache as it exits, so the next request resolves it again.
class team_bucket_cache {
public:
  /// The cached handle, or an invalid one.
  actors::bucket_actor find(const std::string& team_id) const;
  /// Remembers a resolved handle until its actor exits.
  void put(const std::string& team_id, actors::bucket_actor h);

private:
  struct entries {
    std::mutex mutex;
    std::unordered_map<std::string, actors::bucket_actor> map;
  };
  // Shared with the exit hooks, which may run after the cache is gone.
  std::shared_ptr<entries> entries_ = std::make_shared<entries>();
};

struct services {
  services(caf::actor_system& sys, const core::config& c, std::shared_ptr<const core::clock> clk,
           persistence::environment& e, const actors::runtime& rt, boost::asio::io_context& ioc, std::string base,
           std::string token)
    : system{sys}, cfg{c}, clock{std::move(clk)}, env{e}, runtime{rt}, handles{rt.handles()}, io{ioc},
      base_url{std::move(base)}, admin_token{std::move(token)}, takes{sys, ioc, caf::duration{c.request_deadline}} {}

  caf::actor_system& system;
  const core::config& cfg;
  std::shared_ptr<const core::clock> clock;
  persistence::environment& env;
  const actors::runtime& runtime;
  /// The actors the handlers ask: the runtime's (a unit test puts its fakes in their place).
  actors::runtime_handles handles;
  boost::asio::io_context& io;
  std::string base_url;    ///< public base URL, for doc links
  std::string admin_token; ///< bearer token of the admin listener
  std::string url_secret;  ///< signs output URLs (`DIR/url.secret`)
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::atomic<bool> draining{false};
  std::atomic<bool> backing_up{false}; ///< a backup is being written: one at a time, each reads the whole store
  long_polls waits;        ///< `Prefer: wait` reads in progress (a drain answers them at once)
  team_bucket_cache buckets;
  rate_allowances allowances;       ///< team bucket takes decided on the asio threads
  std::atomic<bool> charges_due{false}; ///< a charge of those takes to their buckets is armed
  take_relay takes;                     ///< the takes the bucket actors decide
  key_cache keys;
  job_view_cache job_views; ///< views of jobs read lately, by their stored bytes
  lora_cache loras;
  slot_gate uploads{2}; ///< uploads in memory; a team holds at most half
  recent_errors recent_5xx{50}; ///< the last 5xx answers, for the operator console
  /// In a cluster, the router to the other nodes (`/admin/cluster` asks it); invalid on a single node.
  actors::peer_router_actor cluster;
  /// In a cluster, starts moving a shard this node holds to another node
  /// (`POST /admin/shards/{shard}/move`); empty on a single node.
  std::function<std::optional<schema::error_code>(uint16_t shard, const std::string& to,
                                                  actors::shard_move_status& status)>
    move_shard;
  /// Opens and reads output blobs for downloads, off the asio threads. Two
  /// threads: the reads are short (one piece each), and more would only
  /// queue on the same disk.
  boost::asio::thread_pool blob_reads{2};
  /// Where the engine-callback listener delivers engines' calls (Cog
  /// webhooks) to the renders waiting for them; null without --engines.
  core::callback_inbox* engine_callbacks = nullptr;

  const persistence::tables& tables() const { return runtime.tables(); }
  const actors::runtime_handles& actors() const { return handles; }
};

} // namespace svc::http
