#include "cluster/cluster_front.hpp"

#include "core/crypto.hpp"
#include "core/metric_catalogue.hpp"
#include "cluster/node_actor.hpp"
#include "http/client_address.hpp"
#include "http/request_route.hpp"
#include "http/respond.hpp"
#include "http/stages/stages.hpp"

namespace svc::cluster {
// The fronts and the node actor speak http's request vocabulary.
using http::admin_token_error;
using http::assign_request_id;
using http::body_source;
using http::client_key_behind;
using http::context_ptr;
using http::exchange_handler;
using http::http_request;
using http::listener_kind;
using http::outgoing_response;
using http::peer_info;
using http::reply_body;
using http::reply_error;
using http::request_context;
using http::request_route;
using http::responder;
using http::route_admin_request;
using http::route_api_request;
using http::services;
using http::take_rate_token;
namespace {

// A random shard for a new team: teams spread over the nodes in proportion
// to the shards each holds, whichever node the operator asks.
core::shard_id random_shard() {
  auto bytes = core::random_hex(1);
  return static_cast<core::shard_id>(std::stoul(bytes, nullptr, 16));
}

// An answer this node gives itself (no owner to ask, a redirect). On the API
// it draws from a bucket like every answer and carries its headers: the
// client's anonymous bucket, since its team's bucket lives on the owner.
void answer_here(const context_ptr& ctx, std::function<void(const context_ptr&)> answer) {
  if (ctx->kind == listener_kind::admin)
    return answer(ctx);
  take_rate_token(ctx, [answer = std::move(answer)](const context_ptr& c) {
    if (c->error)
      return reply_error(c, *c->error); // the anonymous bucket refused: 429
    answer(c);
  });
}

void answer_owner_unavailable(const context_ptr& ctx) {
  answer_here(ctx, [](const context_ptr& c) {
    reply_error(c, schema::make_api_error(schema::error_code::owner_unavailable));
  });
}

} // namespace

cluster_front::cluster_front(exchange_handler& local, listener_kind kind, services& svc, const cluster_table& table,
                             peer_router& peers)
  : local_{local}, kind_{kind}, svc_{svc}, table_{table}, peers_{peers} {}

void cluster_front::on_request(http_request req, std::shared_ptr<body_source> body, const peer_info& tcp_peer,
                               responder done) {
  auto route = kind_ == listener_kind::api ? route_api_request(req) : route_admin_request(req);
  bool from_peer = !tcp_peer.forwarded_request_id.empty();
  // The client behind a trusted proxy is resolved once, where it arrived: the
  // answers given here draw from its anonymous bucket, not the proxy's, and
  // the owner takes the address a peer forwards as it is.
  auto peer = tcp_peer;
  if (kind_ == listener_kind::api && !from_peer && !svc_.cfg.trusted_proxies.empty())
    peer.address = client_key_behind(svc_.cfg, peer.ip, req);
  // A new team a peer sent here is made here, in one of this node's shards.
  if (route.at == request_route::where::here || (route.at == request_route::where::new_team && from_peer))
    return local_.on_request(std::move(req), std::move(body), peer, std::move(done));
  auto shard = route.at == request_route::where::new_team ? random_shard() : route.shard;
  auto owner = table_.owner_of(shard);
  if (owner && *owner == table_.self() && !table_.frozen(shard)) {
    // Counted, so that a move of the shard waits for it to finish.
    table_.begin_work(shard);
    return local_.on_request(std::move(req), std::move(body), peer,
                             [table = &table_, shard, done = std::move(done)](outgoing_response out) {
                               table->end_work(shard);
                               done(std::move(out));
                             });
  }
  // An admin request is authorised here and again by the owner, with the
  // token the client sent (every member holds the cluster's one token).
  auto ctx = std::make_shared<request_context>(svc_, kind_, std::move(req), peer, std::move(done));
  assign_request_id(*ctx);
  // A frozen shard (moving) answers 503 until it thaws or its new owner
  // takes it; so does a request a peer sent here for a shard this node no
  // longer answers for: one hop only, so two nodes that disagree for a
  // moment cannot pass a request back and forth.
  if (from_peer || (owner && *owner == table_.self()))
    return answer_owner_unavailable(ctx);
  if (kind_ == listener_kind::admin)
    if (auto code = admin_token_error(ctx->req, svc_.admin_token))
      return reply_error(ctx, schema::make_api_error(*code));
  auto member = owner ? table_.member(*owner) : std::nullopt;
  if (!member)
    return answer_owner_unavailable(ctx);
  if (route.redirect)
    return answer_here(ctx, [location = member->api_url + std::string{ctx->req.target()}](const context_ptr& c) {
      reply_body(c, 307, "This resource is served by another node; follow the Location header.\n",
                 "text/plain; charset=utf-8", {{"Location", location}});
    });
  if (kind_ == listener_kind::admin)
    return forward_to(ctx, member->id, "the admin token");
  // A key no owner has accepted lately pays its way from the client's
  // anonymous bucket first: made-up keys cannot flood the link (vouched_keys.hpp).
  std::string key{http::presented_key(ctx->req)};
  if (vouched_.vouched(key, std::chrono::steady_clock::now()))
    return forward_to(ctx, member->id, key);
  take_rate_token(ctx, [this, member_id = member->id, key](const context_ptr& c) {
    if (c->error)
      return reply_error(c, *c->error); // the anonymous bucket refused: 429
    forward_to(c, member_id, key);
  });
}

void cluster_front::forward_to(const context_ptr& ctx, const std::string& member_id, const std::string& holder) {
  http::slot_gate::refusal why{};
  auto slot = forwarding_to(member_id).try_enter(holder, peers_.table().max_in_flight(), why);
  if (why == http::slot_gate::refusal::server_full)
    return answer_owner_unavailable(ctx);
  if (why == http::slot_gate::refusal::share_used)
    return reply_error(ctx,
                       schema::make_api_error(schema::error_code::too_many_requests,
                                              {{"bucket", "forwarding"}, {"seconds", "1"}}),
                       {{"Retry-After", "1"}});
  auto forwarded = to_forwarded_request(ctx->req, ctx->peer, ctx->request_id, kind_ == listener_kind::admin);
  auto& metrics = metrics_of(member_id);
  bool api = kind_ == listener_kind::api;
  peers_.forward(
    member_id, std::move(forwarded),
    [this, ctx, slot, api, holder, &metrics, sent = std::chrono::steady_clock::now()](actors::forwarded_response& answer) {
      metrics.answered.inc();
      auto now = std::chrono::steady_clock::now();
      metrics.took.observe(std::chrono::duration<double>(now - sent).count());
      if (api)
        vouched_.answered(holder, answer.key_authenticated, now);
      outgoing_response out;
      out.version = ctx->req.version() == 10 ? 10 : 11;
      out.head = std::move(answer.head);
      out.body = std::move(answer.body);
      out.keep_alive = answer.keep_alive && ctx->req.keep_alive();
      ctx->done(std::move(out));
    },
    [ctx, slot, &metrics](const caf::error&) {
      metrics.failed.inc();
      answer_owner_unavailable(ctx);
    });
}

http::slot_gate& cluster_front::forwarding_to(const std::string& peer_id) {
  std::lock_guard lock{forwarding_mutex_};
  auto& gate = forwarding_[peer_id];
  if (!gate)
    gate = std::make_unique<http::slot_gate>(16);
  return *gate; // the map keeps each gate in place
}

cluster_front::peer_metrics& cluster_front::metrics_of(const std::string& peer_id) {
  std::lock_guard lock{metrics_mutex_};
  auto it = metrics_.find(peer_id);
  if (it == metrics_.end()) {
    auto& m = core::metrics::svc();
    it = metrics_
           .emplace(peer_id, peer_metrics{m.cluster_forwarded.with({peer_id, "answered"}),
                                          m.cluster_forwarded.with({peer_id, "failed"}),
                                          m.cluster_forward_seconds.with({peer_id})})
           .first;
  }
  return it->second; // unordered_map keeps its elements in place
}

} // namespace svc::cluster
