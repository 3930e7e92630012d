#include "http/cluster/node_entry.hpp"

#include <random>
#include <unordered_map>

#include <boost/asio/post.hpp>

#include "core/log.hpp"

namespace svc::http {
namespace {

// Field pairs a forwarded request may carry: the transport's header limit
// allows far fewer, so more means a peer that is not a Svc node.
constexpr std::size_t max_forwarded_fields = 1000;

struct node_entry_state {
  std::unordered_map<uint64_t, caf::typed_response_promise<actors::forwarded_response>> waiting;
  std::mt19937_64 tickets{std::random_device{}()};
};

using self_ptr = actors::node_actor::stateful_pointer<node_entry_state>;

// A field as the transport would have parsed it: a token name, a value without line breaks.
bool is_field(std::string_view name, std::string_view value) {
  static constexpr std::string_view token_chars =
    "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return !name.empty() && name.find_first_not_of(token_chars) == std::string_view::npos
         && value.find_first_of(std::string_view{"\r\n\0", 3}) == std::string_view::npos;
}

actors::forwarded_response to_forwarded_response(outgoing_response out) {
  if (out.stream) {
    // Routing sends streamed answers' requests (downloads) to their owner by
    // redirect; one that arrives here anyway is a routing fault, not data to ship.
    core::log_error("cluster", "a forwarded request got a streamed answer; refused");
    std::string body = "This answer is streamed and is not forwarded between nodes.\n";
    return {"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
              + std::to_string(body.size()) + "\r\n",
            body, false};
  }
  return {std::move(out.head), std::move(out.body), out.keep_alive};
}

peer_info peer_of(const actors::forwarded_request& r) {
  peer_info p;
  boost::system::error_code ec;
  p.ip = net::ip::make_address(r.client_ip, ec);
  p.address = r.client_address;
  p.forwarded_request_id = r.request_id;
  p.forwarded_admin = r.admin;
  return p;
}

actors::node_actor::behavior_type node_entry(self_ptr self, node_entry_links links) {
  return {
    [=](actors::forward_atom, actors::forwarded_request& r) -> caf::result<actors::forwarded_response> {
      auto req = to_http_request(r);
      if (!req || r.body.size() > links.body_limit || r.request_id.empty())
        return caf::make_error(caf::sec::invalid_argument, "not a forwardable request");
      uint64_t ticket = 0;
      while (ticket == 0 || self->state.waiting.count(ticket))
        ticket = self->state.tickets();
      auto promise = self->make_response_promise<actors::forwarded_response>();
      self->state.waiting.emplace(ticket, promise);
      auto* app = r.admin ? links.admin : links.api;
      boost::asio::post(*links.io, [app, me = caf::actor_cast<actors::node_actor>(self), ticket, req = std::move(*req),
                                    peer = peer_of(r)]() mutable {
        app->on_request(std::move(req), nullptr, peer, [me, ticket](outgoing_response out) {
          caf::anon_send(me, actors::answered_atom::value, ticket, to_forwarded_response(std::move(out)));
        });
      });
      return promise;
    },
    [=](actors::answered_atom, uint64_t ticket, actors::forwarded_response& answer) {
      auto it = self->state.waiting.find(ticket);
      if (it == self->state.waiting.end())
        return;
      it->second.deliver(std::move(answer));
      self->state.waiting.erase(it);
    },
    [=](actors::ping_atom) { return true; },
    // A shard moving here: the intake does the work on its own thread.
    [=](actors::import_atom a, actors::shard_rows_v1& page) -> caf::result<bool> {
      return self->delegate(links.intake, a, std::move(page));
    },
    [=](actors::import_atom a, actors::blob_piece_v1& piece) -> caf::result<bool> {
      return self->delegate(links.intake, a, std::move(piece));
    },
    [=](actors::adopt_atom a, uint16_t shard) -> caf::result<bool> { return self->delegate(links.intake, a, shard); },
    [=](actors::delete_atom a, uint16_t shard) -> caf::result<bool> { return self->delegate(links.intake, a, shard); },
    [=](actors::hello_atom, std::string& node_id, caf::strong_actor_ptr& entry) {
      self->send(links.router, actors::hello_atom::value, std::move(node_id), std::move(entry));
    },
  };
}

} // namespace

actors::node_actor spawn_node_entry(caf::actor_system& sys, node_entry_links links) {
  return sys.spawn(node_entry, links);
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

} // namespace svc::http
