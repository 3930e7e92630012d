#include "cluster/node_actor.hpp"

#include <map>
#include <memory>
#include <mutex>

#include <boost/asio/post.hpp>
#include <caf/io/middleman.hpp>
#include <caf/io/typed_broker.hpp>

#include "core/ids.hpp"
#include "core/log.hpp"
#include "core/shard.hpp"
#include "http/client_address.hpp"

namespace svc::cluster {
// The fronts and the node actor speak http's request vocabulary.
namespace beast = boost::beast;
namespace net = boost::asio;
using http::http_request;
using http::outgoing_response;
using http::peer_info;
namespace {

// Field pairs a forwarded request may carry: the transport's header limit
// allows far fewer, so more means a peer that is not a Svc node.
constexpr std::size_t max_forwarded_fields = 1000;

// A broker: it runs on CAF's network thread, which receives the peers'
// messages, so handing one to it wakes no other thread (a scheduled actor
// costs a worker's wake-up per message). Its handlers never block.
struct node_actor_state;
using node_actor_self = actors::node_actor::stateful_broker_pointer<node_actor_state>;

// A field as the transport would have parsed it: a token name, a value without line breaks.
bool is_field(std::string_view name, std::string_view value) {
  static constexpr std::string_view token_chars =
    "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return !name.empty() && name.find_first_not_of(token_chars) == std::string_view::npos
         && value.find_first_of(std::string_view{"\r\n\0", 3}) == std::string_view::npos;
}

actors::forwarded_response internal_error(std::string body) {
  return {"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
            + std::to_string(body.size()) + "\r\n",
          std::move(body), false};
}

actors::forwarded_response to_forwarded_response(outgoing_response out) {
  if (out.stream) {
    // Routing sends streamed answers' requests (downloads) to their owner by
    // redirect; one that arrives here anyway is a routing fault, not data to ship.
    core::log_error("cluster", "a forwarded request got a streamed answer; refused");
    return internal_error("This answer is streamed and is not forwarded between nodes.\n");
  }
  return {std::move(out.head), std::move(out.body), out.keep_alive, out.key_authenticated};
}

/// The answers to one peer's forwarded requests: those that are ready
/// before the send runs (answered in the asio handlers queued ahead of it,
/// from one message of requests or several) go back together.
class peer_answers : public std::enable_shared_from_this<peer_answers> {
public:
  peer_answers(actors::node_actor me, actors::node_actor reply_to, boost::asio::io_context& io)
    : me_{std::move(me)}, reply_to_{std::move(reply_to)}, io_{io} {}

  void add(uint64_t ticket, actors::forwarded_response response) {
    std::lock_guard lock{mutex_};
    ready_.answers.push_back({ticket, std::move(response)});
    if (ready_.answers.size() == 1) // the first since the last send: send after the running handler
      boost::asio::post(io_, [self = shared_from_this()] { self->send(); });
  }

private:
  void send() {
    actors::forwarded_answers out;
    {
      std::lock_guard lock{mutex_};
      out.answers.swap(ready_.answers);
    }
    caf::send_as(me_, reply_to_, actors::answered_atom::value, std::move(out));
  }

  actors::node_actor me_, reply_to_;
  boost::asio::io_context& io_;
  std::mutex mutex_;
  actors::forwarded_answers ready_;
};

// Runs one forwarded request through this node's pipeline (on an asio thread).
void run_forwarded(const node_actor_links& links, const std::shared_ptr<peer_answers>& answers,
                   actors::forwarded_call& call) {
  auto& r = call.request;
  auto req = to_http_request(r);
  auto peer = to_peer_info(r);
  if (!req || !peer || r.body.size() > links.body_limit) {
    core::log_error("cluster", "a peer forwarded a request that is not one; refused");
    return answers->add(call.ticket, internal_error("This is not a forwardable request.\n"));
  }
  auto* app = r.admin ? links.admin : links.api;
  app->on_request(std::move(*req), nullptr, *peer, [answers, ticket = call.ticket](outgoing_response out) {
    answers->add(ticket, to_forwarded_response(std::move(out)));
  });
}

/// Peers' node actors that forwarded requests here, and their answers on the way.
struct node_actor_state {
  std::map<caf::actor_addr, std::shared_ptr<peer_answers>> answers;
};

// Where the answers to `peer` collect. A peer that restarted has a new
// address; past a few dozen, the old ones are dropped (a live peer just
// gets a new collector).
std::shared_ptr<peer_answers> answers_to(node_actor_self self, const node_actor_links& links, actors::node_actor peer) {
  constexpr std::size_t most_peers = 64;
  auto& all = self->state.answers;
  auto it = all.find(peer.address());
  if (it != all.end())
    return it->second;
  if (all.size() >= most_peers)
    all.clear();
  auto fresh = std::make_shared<peer_answers>(caf::actor_cast<actors::node_actor>(self), peer, *links.io);
  all.emplace(peer.address(), fresh);
  return fresh;
}

// The node the current message's sender is, as the cluster gate proved it; nullopt for anyone else.
std::optional<std::string> proven_sender(node_actor_self self, const node_actor_links& links) {
  auto& sender = self->current_sender();
  if (!sender || !links.identities)
    return std::nullopt;
  return links.identities->node_of(sender->node());
}

bool refuse_unproven(const char* what) {
  core::log_warn("cluster", std::string{"refused "} + what + " from a sender no cluster connection proved");
  return false;
}

actors::node_actor::behavior_type node_actor(node_actor_self self, node_actor_links links) {
  return {
    // A peer's requests: run on an asio thread, and answered from there
    // straight to the node actor that sent them (no hop back through this one).
    [=](actors::forward_atom, actors::forwarded_calls& calls) {
      auto reply_to = caf::actor_cast<actors::node_actor>(self->current_sender());
      if (!reply_to || calls.calls.empty())
        return; // anonymous: there is no one to answer
      if (!proven_sender(self, links))
        return (void)refuse_unproven("forwarded requests");
      auto answers = answers_to(self, links, std::move(reply_to));
      boost::asio::post(*links.io, [links, answers, calls = std::move(calls)]() mutable {
        for (auto& call : calls.calls)
          run_forwarded(links, answers, call);
      });
    },
    [=](actors::answered_atom, actors::forwarded_answers& answers) {
      if (!proven_sender(self, links))
        return (void)refuse_unproven("answers");
      links.forwards->answer(caf::actor_cast<caf::actor_addr>(self->current_sender()), std::move(answers));
    },
    [=](actors::ping_atom) { return proven_sender(self, links) ? true : refuse_unproven("a ping"); },
    // A shard moving here: the intake does the work on its own thread, and
    // takes it only from the node that holds the shard.
    [=](actors::import_atom a, actors::shard_rows_v1& page) -> caf::result<bool> {
      auto from = proven_sender(self, links);
      if (!from)
        return refuse_unproven("a shard page");
      return self->delegate(links.intake, a, std::move(page), std::move(*from));
    },
    [=](actors::import_atom a, actors::blob_piece_v1& piece) -> caf::result<bool> {
      auto from = proven_sender(self, links);
      if (!from)
        return refuse_unproven("a blob piece");
      return self->delegate(links.intake, a, std::move(piece), std::move(*from));
    },
    [=](actors::verify_atom a, uint16_t shard) -> caf::result<actors::shard_digest_v1> {
      auto from = proven_sender(self, links);
      if (!from) {
        refuse_unproven("a shard digest request");
        return caf::make_error(caf::sec::request_receiver_down);
      }
      return self->delegate(links.intake, a, shard, std::move(*from));
    },
    [=](actors::adopt_atom a, uint16_t shard) -> caf::result<bool> {
      auto from = proven_sender(self, links);
      if (!from)
        return refuse_unproven("a shard hand-over");
      return self->delegate(links.intake, a, shard, std::move(*from));
    },
    [=](actors::delete_atom a, uint16_t shard) -> caf::result<bool> {
      auto from = proven_sender(self, links);
      if (!from)
        return refuse_unproven("a shard erasure");
      return self->delegate(links.intake, a, shard, std::move(*from));
    },
    // A node that dialed this one: only under the node id its connection
    // proved, and introducing an actor of its own.
    [=](actors::hello_atom, std::string& node_id, caf::strong_actor_ptr& entry) {
      auto from = proven_sender(self, links);
      if (!from || *from != node_id || !entry || entry->node() != self->current_sender()->node()) {
        core::log_warn("cluster", "refused a hello as node " + (core::is_node_id(node_id) ? node_id : "(no node id)")
                                    + (from ? " from node " + *from : std::string{" from an unproven sender"}));
        return;
      }
      self->send(links.router, actors::hello_atom::value, std::move(node_id), std::move(entry));
    },
  };
}

} // namespace

actors::node_actor spawn_node_actor(caf::actor_system& sys, node_actor_links links) {
  return sys.middleman().spawn_broker(node_actor, links);
}

std::optional<http_request> to_http_request(const actors::forwarded_request& r) {
  auto method = beast::http::string_to_verb(r.method);
  if (method == beast::http::verb::unknown || r.target.empty() || r.target.front() != '/'
      || r.target.find_first_of(std::string_view{" \r\n\0", 4}) != std::string::npos
      || r.fields.size() % 2 != 0 || r.fields.size() > 2 * max_forwarded_fields
      || (r.http_version != 10 && r.http_version != 11))
    return std::nullopt;
  http_request req{method, r.target, r.http_version};
  for (std::size_t i = 0; i < r.fields.size(); i += 2) {
    if (!is_field(r.fields[i], r.fields[i + 1]))
      return std::nullopt;
    req.insert(r.fields[i], r.fields[i + 1]);
  }
  req.body() = r.body;
  return req;
}

std::optional<peer_info> to_peer_info(const actors::forwarded_request& r) {
  if (!core::has_id_shape(r.request_id, "req"))
    return std::nullopt;
  boost::system::error_code ec;
  auto ip = net::ip::make_address(r.client_ip, ec);
  if (ec)
    return std::nullopt;
  // The key must be one the accepting node derives from an address (an IPv6
  // one by its /64): it names a rate bucket and appears in log lines.
  std::string_view key = r.client_address;
  bool slash_64 = key.size() > 3 && key.substr(key.size() - 3) == "/64";
  auto keyed = net::ip::make_address(std::string{slash_64 ? key.substr(0, key.size() - 3) : key}, ec);
  if (ec || http::client_key(keyed) != key)
    return std::nullopt;
  peer_info p;
  p.ip = ip;
  p.address = r.client_address;
  p.forwarded_request_id = r.request_id;
  return p;
}

actors::forwarded_request to_forwarded_request(const http_request& req, const peer_info& peer,
                                               std::string request_id, bool admin) {
  actors::forwarded_request r;
  r.request_id = std::move(request_id);
  r.admin = admin;
  r.method = std::string{req.method_string()};
  r.target = std::string{req.target()};
  for (auto& f : req) {
    r.fields.emplace_back(f.name_string());
    r.fields.emplace_back(f.value());
  }
  r.body = req.body();
  r.client_ip = peer.ip.to_string();
  r.client_address = peer.address;
  r.http_version = req.version();
  return r;
}

} // namespace svc::cluster
