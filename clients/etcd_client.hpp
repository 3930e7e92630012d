#pragma once
// A blocking etcd v3 client over etcd's JSON gateway (HTTP or HTTPS, keys and
// values base64 on the wire, an RBAC user's token where etcd asks for one):
// the leases, keys, compare-and-swap and prefix watch the cluster's
// membership and shard map are kept with.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "clients/etcd_security.hpp"

namespace boost::json {
class object;
}

namespace svc::clients {

/// One key as etcd stores it; revisions and lease are 0 where etcd left them out.
struct etcd_kv {
  std::string key;
  std::string value;
  std::int64_t create_revision = 0;
  std::int64_t mod_revision = 0;
  std::int64_t lease = 0;
};

/// The keys a range found, and the store's revision when it read them.
struct etcd_range {
  std::vector<etcd_kv> kvs;
  std::int64_t revision = 0; ///< the response header's revision
};

enum class etcd_event_kind { put, erase };

/// One change seen by a watch; an erase carries the key and its mod_revision only.
struct etcd_event {
  etcd_event_kind kind;
  etcd_kv kv;
};

/// How a call failed. Messages name the endpoint and etcd's reason, never a key or value.
class etcd_error : public std::runtime_error {
public:
  enum class kind {
    unreachable,   ///< no endpoint took the connection, or it broke before a whole answer
    timeout,       ///< an endpoint did not answer within the client's timeout
    rejected,      ///< etcd refused the request, or the answer was not what etcd sends
    lease_expired, ///< the lease is unknown to etcd (expired or revoked)
    compacted,     ///< the watch's start revision has been compacted away
    unauthenticated, ///< etcd no longer takes the login token (the client logs in again once)
  };
  etcd_error(kind k, const std::string& message) : std::runtime_error(message), kind_(k) {}
  /// Which failure this is.
  kind which() const { return kind_; }

private:
  kind kind_;
};

/// Calls are independent exchanges on their own connection and io_context, so
/// any thread may call, several at once (a watch on one thread, writes on
/// another). Each call tries the endpoints in order and moves to the next one
/// on `unreachable` or `timeout` only; a write whose answer timed out may thus
/// have been applied by the endpoint before (put_if then reports `false`
/// although its value is in place: read it back when that matters).
class etcd_client {
public:
  /// `endpoints`: "host:port" strings, tried in order; a host name is resolved
  /// outside the deadline. `timeout`: the deadline of each HTTP exchange
  /// (connect, handshake, request, whole answer). `security`: TLS and login.
  /// Throws std::invalid_argument when `endpoints` is empty or one has no port.
  etcd_client(std::vector<std::string> endpoints, std::chrono::milliseconds timeout, etcd_security security = {});

  /// A new lease of `ttl`; returns its id.
  std::int64_t grant_lease(std::chrono::seconds ttl);
  /// Renews `lease` once; returns its remaining TTL. Throws lease_expired when
  /// etcd answers with no TTL (the lease is gone).
  std::chrono::seconds keep_alive(std::int64_t lease);
  /// Ends `lease`, erasing its keys. Throws lease_expired when it is already gone.
  void revoke(std::int64_t lease);

  /// Writes key=value (attached to `lease` unless 0); returns the new store revision.
  std::int64_t put(const std::string& key, const std::string& value, std::int64_t lease = 0);
  /// The key, if present (kvs holds at most one).
  etcd_range get(const std::string& key);
  /// Every key starting with `prefix`, in key order ("" means all keys).
  etcd_range get_prefix(const std::string& prefix);
  /// Erases the key; true if it existed.
  bool erase(const std::string& key);
  /// Compare-and-swap: writes key=value only if the key's mod_revision equals
  /// `expected_mod_revision` (0: only if absent). True if written.
  bool put_if(const std::string& key, const std::string& value, std::int64_t expected_mod_revision);

  /// Watches every key under `prefix` from revision `from` (inclusive; 0: from
  /// now) and calls `on_events` with each non-empty batch and the batch's
  /// header revision. Returns when `on_events` returns false or `stop` is seen
  /// true (checked at least every timeout); throws when the stream fails
  /// (compacted when `from` is compacted away, unreachable when it breaks).
  void watch_prefix(const std::string& prefix, std::int64_t from, const std::atomic<bool>& stop,
                    const std::function<bool(const std::vector<etcd_event>&, std::int64_t revision)>& on_events);

private:
  struct endpoint {
    std::string host;
    std::uint16_t port = 0;
  };
  // One request's answer as a JSON object, from the first endpoint that
  // answers, with the login token when there is a login; a token etcd no
  // longer takes is replaced by a new login and the request sent once more.
  boost::json::object call(std::string_view path, const boost::json::object& request, std::size_t limit);
  // The kept token, or a new one from a login when none is kept.
  std::string login_token();
  // One watch stream, its events handed on (`delivered` turns true with the first batch).
  void watch_once(const std::string& body, const std::string& token, const std::atomic<bool>& stop, bool& delivered,
                  const std::function<bool(const std::vector<etcd_event>&, std::int64_t revision)>& on_events);

  std::vector<endpoint> endpoints_;
  std::chrono::milliseconds timeout_;
  etcd_security security_;
};

} // namespace svc::clients
