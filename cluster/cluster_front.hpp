#pragma once
// A listener's application on a cluster node: answers here what this node
// holds (or what names no team), forwards the rest to its owner in one
// typed request, and redirects what the owner must stream itself. Clients
// may send anything to any node.

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/metrics.hpp"
#include "cluster/cluster_table.hpp"
#include "cluster/peer_router.hpp"
#include "cluster/vouched_keys.hpp"
#include "http/request_context.hpp"
#include "http/slot_gate.hpp"

namespace svc::cluster {

class cluster_front final : public http::exchange_handler {
public:
  /// `local` answers what this node holds; all arguments outlive the front.
  cluster_front(http::exchange_handler& local, http::listener_kind kind, http::services& svc, const cluster_table& table,
                peer_router& peers);
  bool streams_body(const http::http_request& head) const override { return local_.streams_body(head); }
  void on_request(http::http_request req, std::shared_ptr<http::body_source> body, const http::peer_info& peer,
                  http::responder done) override;
  void on_protocol_error(http::protocol_error e, const std::string& detail, const http::peer_info& peer,
                         http::responder done) override {
    local_.on_protocol_error(e, detail, peer, std::move(done));
  }

private:
  /// A peer's forwarding metrics, looked up once: a family's lookup takes
  /// its lock and builds the label values, three times per request otherwise.
  struct peer_metrics {
    core::metrics::counter& answered;
    core::metrics::counter& failed;
    core::metrics::histogram& took;
  };
  peer_metrics& metrics_of(const std::string& peer_id);
  /// Forwards `ctx`'s request to `member` once it holds a forwarding slot
  /// of `holder` (its API key, or the admin token's holder).
  void forward_to(const http::context_ptr& ctx, const std::string& member, const std::string& holder);

  http::exchange_handler& local_;
  http::listener_kind kind_;
  http::services& svc_;
  const cluster_table& table_;
  peer_router& peers_;
  /// The forwarding slots to `peer_id` (made on first use).
  http::slot_gate& forwarding_to(const std::string& peer_id);

  /// Forwarded requests in flight, per peer and by API key: one key holds at
  /// most a sixteenth of a peer's budget, so long polls of a few teams cannot
  /// take every other team's, and a slow peer fills only its own.
  std::mutex forwarding_mutex_;
  std::unordered_map<std::string, std::unique_ptr<http::slot_gate>> forwarding_;
  vouched_keys vouched_{100000, std::chrono::minutes{10}};
  std::mutex metrics_mutex_;
  std::unordered_map<std::string, peer_metrics> metrics_;
};

} // namespace svc::cluster
