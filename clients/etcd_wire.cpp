#include "clients/etcd_wire.hpp"

#include <charconv>
#include <optional>

#include <boost/json/parse.hpp>

#include "core/crypto.hpp"

namespace svc::clients::etcd_wire {
namespace {

namespace json = boost::json;
using kind = etcd_error::kind;

// gRPC status codes etcd's errors carry (google.golang.org/grpc/codes).
constexpr std::int64_t grpc_deadline_exceeded = 4;
constexpr std::int64_t grpc_not_found = 5;
constexpr std::int64_t grpc_out_of_range = 11;
constexpr std::int64_t grpc_unavailable = 14;
constexpr std::int64_t grpc_unauthenticated = 16;

// What of etcd's own error text goes into a message.
constexpr std::size_t max_reason = 200;

[[noreturn]] void refuse(const std::string& what) {
  throw etcd_error(kind::rejected, "etcd answer " + what);
}

const json::object& object_at(const json::object& o, std::string_view name) {
  auto* v = o.if_contains(name);
  if (!v || !v->is_object())
    refuse("has no object '" + std::string{name} + "'");
  return v->get_object();
}

// The field `name`, nullptr when absent; refused when present but not of
// the type `is` (a json::value::is_* member) checks.
template <class Is>
const json::value* field(const json::object& o, std::string_view name, Is is, const char* type) {
  auto* v = o.if_contains(name);
  if (v && !(v->*is)())
    refuse("field '" + std::string{name} + "' is not " + type);
  return v;
}

// A string field, possibly absent ("").
std::string bytes_field(const json::object& o, std::string_view name) {
  auto decoded = core::base64_decode(string_field(o, name));
  if (!decoded)
    refuse("field '" + std::string{name} + "' is not base64");
  return std::move(*decoded);
}

etcd_kv kv_of(const json::object& o) {
  return {bytes_field(o, "key"), bytes_field(o, "value"), int_field(o, "create_revision"),
          int_field(o, "mod_revision"), int_field(o, "lease")};
}

const json::array& array_field(const json::object& o, std::string_view name) {
  static const json::array none;
  auto* v = field(o, name, &json::value::is_array, "an array");
  return v ? v->get_array() : none;
}

// A token etcd no longer takes: expired or from before its restart
// ("invalid auth token"), or older than a change of its users and roles
// ("revision of auth store is old", sent as InvalidArgument).
bool stale_token(std::string_view reason) {
  return reason.find("invalid auth token") != std::string_view::npos ||
         reason.find("auth store is old") != std::string_view::npos;
}

kind kind_of_code(std::int64_t code, std::string_view reason) {
  if (stale_token(reason))
    return kind::unauthenticated;
  switch (code) {
  case grpc_unauthenticated:
    return kind::unauthenticated;
  case grpc_not_found:
    return kind::lease_expired;
  case grpc_unavailable:
    return kind::unreachable;
  case grpc_deadline_exceeded:
    return kind::timeout;
  case grpc_out_of_range:
    return reason.find("compacted") != std::string_view::npos ? kind::compacted : kind::rejected;
  default:
    return kind::rejected;
  }
}

std::string clipped(std::string_view reason) {
  return std::string{reason.substr(0, max_reason)};
}

} // namespace

std::string bytes(std::string_view raw) {
  return core::base64_encode(raw);
}

std::string number(std::int64_t n) {
  return std::to_string(n);
}

std::string prefix_end(std::string_view prefix) {
  // The smallest key above every key with the prefix: drop trailing 0xff
  // bytes (no successor) and increment the last byte left.
  std::string end{prefix};
  while (!end.empty() && static_cast<unsigned char>(end.back()) == 0xff)
    end.pop_back();
  if (end.empty())
    return std::string(1, '\0');
  end.back() = static_cast<char>(static_cast<unsigned char>(end.back()) + 1);
  return end;
}

json::object parse_object(std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    refuse("is not a JSON object");
  return std::move(v.get_object());
}

const json::object& result_of(const json::object& message) {
  if (auto* e = message.if_contains("error")) {
    if (!e->is_object())
      refuse("carries an unreadable error");
    auto& err = e->get_object();
    auto reason = string_field(err, "message");
    throw etcd_error(kind_of_code(int_field(err, "grpc_code"), reason), "etcd: " + clipped(reason));
  }
  return object_at(message, "result");
}

std::string_view string_field(const json::object& o, std::string_view name) {
  auto* v = field(o, name, &json::value::is_string, "a string");
  return v ? std::string_view{v->get_string()} : std::string_view{};
}

std::int64_t int_field(const json::object& o, std::string_view name) {
  auto* v = o.if_contains(name);
  if (!v)
    return 0;
  if (v->is_int64())
    return v->get_int64();
  if (v->is_string()) {
    auto& s = v->get_string();
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec == std::errc{} && end == s.data() + s.size() && !s.empty())
      return n;
  }
  refuse("field '" + std::string{name} + "' is not an int64");
}

bool bool_field(const json::object& o, std::string_view name) {
  auto* v = field(o, name, &json::value::is_bool, "a boolean");
  return v && v->get_bool();
}

std::int64_t header_revision(const json::object& answer) {
  return int_field(object_at(answer, "header"), "revision");
}

etcd_range range_of(const json::object& answer) {
  etcd_range range;
  range.revision = header_revision(answer);
  for (auto& kv : array_field(answer, "kvs")) {
    if (!kv.is_object())
      refuse("has a key that is not an object");
    range.kvs.push_back(kv_of(kv.get_object()));
  }
  return range;
}

std::vector<etcd_event> watch_events(const json::object& result) {
  if (bool_field(result, "canceled")) {
    if (auto compact = int_field(result, "compact_revision"); compact > 0)
      throw etcd_error(kind::compacted, "etcd watch: compacted up to revision " + std::to_string(compact));
    auto reason = string_field(result, "cancel_reason");
    throw etcd_error(stale_token(reason) ? kind::unauthenticated : kind::rejected,
                     "etcd cancelled the watch: " + clipped(reason));
  }
  std::vector<etcd_event> events;
  for (auto& e : array_field(result, "events")) {
    if (!e.is_object())
      refuse("has an event that is not an object");
    auto& o = e.get_object();
    auto type = string_field(o, "type");
    if (!type.empty() && type != "PUT" && type != "DELETE")
      refuse("has an event of unknown type");
    events.push_back({type == "DELETE" ? etcd_event_kind::erase : etcd_event_kind::put, kv_of(object_at(o, "kv"))});
  }
  return events;
}

etcd_error error_of(unsigned status, std::string_view body, const std::string& where) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    return {kind::rejected, where + ": HTTP " + std::to_string(status) + " without an etcd error"};
  auto& o = v.get_object();
  std::int64_t code = 0;
  std::string_view reason;
  try {
    code = int_field(o, "code");
    reason = string_field(o, "message");
  } catch (const etcd_error&) {
    return {kind::rejected, where + ": HTTP " + std::to_string(status) + " with an unreadable etcd error"};
  }
  return {kind_of_code(code, reason), where + ": HTTP " + std::to_string(status) + ": " + clipped(reason)};
}

std::vector<json::object> message_splitter::feed(std::string_view piece) {
  std::vector<json::object> done;
  while (!piece.empty()) {
    boost::system::error_code ec;
    auto used = parser_.write_some(piece.data(), piece.size(), ec);
    if (ec)
      refuse("stream is not JSON");
    pending_ += used;
    if (pending_ > limit_)
      refuse("stream carries a message over " + std::to_string(limit_) + " bytes");
    piece.remove_prefix(used);
    if (!parser_.done())
      continue;
    auto v = parser_.release();
    parser_.reset();
    pending_ = 0;
    if (!v.is_object())
      refuse("stream carries a message that is not an object");
    done.push_back(std::move(v.get_object()));
  }
  return done;
}

} // namespace svc::clients::etcd_wire
