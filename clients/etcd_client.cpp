#include "clients/etcd_client.hpp"

#include <charconv>
#include <memory>
#include <optional>
#include <utility>

#include <boost/json/serialize.hpp>

#include "clients/etcd_connection.hpp"
#include "clients/etcd_wire.hpp"

namespace svc::clients {
namespace {

namespace json = boost::json;
using kind = etcd_error::kind;

// Answer sizes past which etcd is not believed: a range may carry the whole
// shard map and every node, the other answers are a header and a few fields.
constexpr std::size_t range_limit = std::size_t{64} << 20;
constexpr std::size_t small_limit = std::size_t{1} << 20;
// One watch message (one batch of events) and an error answering a watch.
constexpr std::size_t watch_message_limit = std::size_t{64} << 20;
constexpr std::size_t watch_error_limit = std::size_t{64} << 10;
// How much of a watch stream one read takes.
constexpr std::size_t watch_piece = std::size_t{64} << 10;

// `attempt(endpoint)`'s result from the first endpoint that answers; an
// endpoint that cannot be reached or does not answer in time passes the call
// on to the next, any other failure ends it.
template <class Endpoints, class Attempt>
auto first_answering(const Endpoints& endpoints, Attempt attempt) {
  std::optional<etcd_error> last;
  for (auto& endpoint : endpoints) {
    try {
      return attempt(endpoint);
    } catch (const etcd_error& e) {
      if (e.which() != kind::unreachable && e.which() != kind::timeout)
        throw;
      last = e;
    }
  }
  throw *last;
}

json::object key_range(const std::string& key) {
  return {{"key", etcd_wire::bytes(key)}};
}

json::object prefix_range(const std::string& prefix) {
  // Every key is at least "\0": the range of the empty prefix starts there.
  return {{"key", etcd_wire::bytes(prefix.empty() ? std::string(1, '\0') : prefix)},
          {"range_end", etcd_wire::bytes(etcd_wire::prefix_end(prefix))}};
}

// The body of a watch's refusal, as much of it as comes before the limit.
std::string refusal_body(etcd_connection& c, const std::atomic<bool>& stop) {
  std::string body(watch_error_limit, '\0');
  std::size_t filled = 0;
  while (filled < body.size()) {
    auto n = c.stream_piece(body.data() + filled, body.size() - filled, stop);
    if (!n)
      break;
    filled += *n;
  }
  body.resize(filled);
  return body;
}

} // namespace

etcd_client::etcd_client(std::vector<std::string> endpoints, std::chrono::milliseconds timeout, etcd_security security)
    : timeout_(timeout), security_(std::move(security)) {
  if (endpoints.empty())
    throw std::invalid_argument("etcd_client: no endpoint");
  for (auto& text : endpoints) {
    auto colon = text.rfind(':');
    std::uint16_t port = 0;
    auto digits = colon == std::string::npos ? std::string_view{} : std::string_view{text}.substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (colon == 0 || digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || port == 0)
      throw std::invalid_argument("etcd_client: endpoint '" + text + "' is not host:port");
    endpoints_.push_back({text.substr(0, colon), port});
  }
}

json::object etcd_client::call(std::string_view path, const json::object& request, std::size_t limit) {
  auto body = json::serialize(request);
  auto once = [&](const std::string& token) {
    return first_answering(endpoints_, [&](const endpoint& e) {
      etcd_connection c{e.host, e.port, timeout_, security_.tls(), path, body, token};
      auto [status, text] = c.answer(limit);
      if (status != 200)
        throw etcd_wire::error_of(status, text, "etcd " + c.where());
      return etcd_wire::parse_object(text);
    });
  };
  if (!security_.logs_in())
    return once({});
  auto token = login_token();
  try {
    return once(token);
  } catch (const etcd_error& e) {
    if (e.which() != kind::unauthenticated)
      throw;
    security_.drop_token(token);
  }
  return once(login_token());
}

std::string etcd_client::login_token() {
  if (auto kept = security_.token(); !kept.empty())
    return kept;
  json::object login{{"name", security_.user()}, {"password", security_.password()}};
  auto body = json::serialize(login);
  auto answer = first_answering(endpoints_, [&](const endpoint& e) {
    etcd_connection c{e.host, e.port, timeout_, security_.tls(), "/v3/auth/authenticate", body};
    auto [status, text] = c.answer(small_limit);
    if (status != 200) // etcd's reason names no secret: "authentication failed, invalid user ID or password"
      throw etcd_wire::error_of(status, text, "etcd " + c.where() + " login as " + security_.user());
    return etcd_wire::parse_object(text);
  });
  auto token = etcd_wire::string_field(answer, "token");
  if (token.empty() || token.find_first_of("\r\n") != std::string_view::npos)
    throw etcd_error(kind::rejected, "etcd answered a login with no usable token");
  security_.keep_token(std::string{token});
  return std::string{token};
}

std::int64_t etcd_client::grant_lease(std::chrono::seconds ttl) {
  auto answer = call("/v3/lease/grant", {{"TTL", etcd_wire::number(ttl.count())}}, small_limit);
  auto id = etcd_wire::int_field(answer, "ID");
  if (id == 0)
    throw etcd_error(kind::rejected, "etcd granted no lease");
  return id;
}

std::chrono::seconds etcd_client::keep_alive(std::int64_t lease) {
  // The gateway answers this streamed call with one `{"result":...}` message.
  auto answer = call("/v3/lease/keepalive", {{"ID", etcd_wire::number(lease)}}, small_limit);
  auto ttl = etcd_wire::int_field(etcd_wire::result_of(answer), "TTL");
  if (ttl <= 0)
    throw etcd_error(kind::lease_expired, "etcd: lease " + std::to_string(lease) + " is gone");
  return std::chrono::seconds{ttl};
}

void etcd_client::revoke(std::int64_t lease) {
  call("/v3/lease/revoke", {{"ID", etcd_wire::number(lease)}}, small_limit);
}

std::int64_t etcd_client::put(const std::string& key, const std::string& value, std::int64_t lease) {
  json::object request{{"key", etcd_wire::bytes(key)}, {"value", etcd_wire::bytes(value)}};
  if (lease != 0)
    request["lease"] = etcd_wire::number(lease);
  return etcd_wire::header_revision(call("/v3/kv/put", request, small_limit));
}

etcd_range etcd_client::get(const std::string& key) {
  return etcd_wire::range_of(call("/v3/kv/range", key_range(key), range_limit));
}

etcd_range etcd_client::get_prefix(const std::string& prefix) {
  return etcd_wire::range_of(call("/v3/kv/range", prefix_range(prefix), range_limit));
}

bool etcd_client::erase(const std::string& key) {
  return etcd_wire::int_field(call("/v3/kv/deleterange", key_range(key), small_limit), "deleted") > 0;
}

bool etcd_client::put_if(const std::string& key, const std::string& value, std::int64_t expected_mod_revision) {
  // etcd compares an absent key as mod_revision 0, so one comparison covers both cases.
  json::object compare{{"key", etcd_wire::bytes(key)},
                       {"target", "MOD"},
                       {"result", "EQUAL"},
                       {"mod_revision", etcd_wire::number(expected_mod_revision)}};
  json::object put{{"key", etcd_wire::bytes(key)}, {"value", etcd_wire::bytes(value)}};
  json::object txn{{"compare", json::array{std::move(compare)}},
                   {"success", json::array{json::object{{"request_put", std::move(put)}}}}};
  return etcd_wire::bool_field(call("/v3/kv/txn", txn, small_limit), "succeeded");
}

void etcd_client::watch_prefix(const std::string& prefix, std::int64_t from, const std::atomic<bool>& stop,
                               const std::function<bool(const std::vector<etcd_event>&, std::int64_t)>& on_events) {
  auto create = prefix_range(prefix);
  if (from > 0)
    create["start_revision"] = etcd_wire::number(from);
  auto body = json::serialize(json::object{{"create_request", std::move(create)}});
  bool delivered = false;
  auto token = security_.logs_in() ? login_token() : std::string{};
  try {
    watch_once(body, token, stop, delivered, on_events);
  } catch (const etcd_error& e) {
    // etcd refuses a stale token when the watch is created, before any event.
    if (e.which() != kind::unauthenticated || delivered || token.empty())
      throw;
    security_.drop_token(token);
    watch_once(body, login_token(), stop, delivered, on_events);
  }
}

void etcd_client::watch_once(const std::string& body, const std::string& token, const std::atomic<bool>& stop,
                             bool& delivered,
                             const std::function<bool(const std::vector<etcd_event>&, std::int64_t)>& on_events) {
  if (stop.load())
    return;
  auto stream = first_answering(endpoints_, [&](const endpoint& e) {
    auto c = std::make_unique<etcd_connection>(e.host, e.port, timeout_, security_.tls(), "/v3/watch", body, token);
    if (auto status = c->stream_header(); status != 200)
      throw etcd_wire::error_of(status, refusal_body(*c, stop), "etcd " + c->where());
    return c;
  });
  etcd_wire::message_splitter messages{watch_message_limit};
  std::string piece(watch_piece, '\0');
  while (auto n = stream->stream_piece(piece.data(), piece.size(), stop)) {
    for (auto& message : messages.feed(std::string_view{piece}.substr(0, *n))) {
      auto& result = etcd_wire::result_of(message);
      auto events = etcd_wire::watch_events(result);
      if (events.empty())
        continue;
      delivered = true;
      if (!on_events(events, etcd_wire::header_revision(result)))
        return;
    }
  }
  if (!stop.load())
    throw etcd_error(kind::unreachable, "etcd " + stream->where() + ": the watch stream ended");
}

} // namespace svc::clients
