#include "cluster/etcd_values.hpp"

#include <algorithm>

#include <boost/asio/ip/address.hpp>
#include <boost/json.hpp>

#include "core/shard.hpp"
#include "core/uri.hpp"

namespace svc::cluster {
namespace json = boost::json;

namespace {

// The text member `name` of `o`, if present and text of at most `limit` bytes.
std::optional<std::string> text_member(const json::object& o, std::string_view name, std::size_t limit = 2048) {
  auto* v = o.if_contains(name);
  if (!v || !v->is_string() || v->as_string().size() > limit)
    return std::nullopt;
  return std::string{v->as_string()};
}

// An absolute http(s) URL with a host and no user, query or fragment, in
// visible ASCII: a member's URLs become the Location of this node's 307s.
bool is_member_url(std::string_view text) {
  bool visible = std::all_of(text.begin(), text.end(), [](char c) { return c > ' ' && c < 0x7f; });
  auto url = visible ? core::parse_uri(text) : std::nullopt;
  return url && (url->scheme() == "http" || url->scheme() == "https") && url->has_authority()
         && !url->host().empty() && !url->has_userinfo() && !url->has_query() && !url->has_fragment()
         && (!url->has_port() || core::parse_port(url->port()));
}

// `IP:PORT` (IPv6 in brackets is not what this node advertises): where the cluster gate dials.
bool is_cluster_address(std::string_view text) {
  auto colon = text.rfind(':');
  if (colon == std::string_view::npos || !core::parse_port(text.substr(colon + 1)))
    return false;
  boost::system::error_code ec;
  boost::asio::ip::make_address(std::string{text.substr(0, colon)}, ec);
  return !ec;
}

std::optional<json::object> parse_object(std::string_view text) {
  boost::system::error_code ec;
  auto v = json::parse(text, ec);
  if (ec || !v.is_object())
    return std::nullopt;
  return std::move(v.as_object());
}

} // namespace

std::string node_value(const actors::node_info& n) {
  return json::serialize(json::object{
    {"id", n.id}, {"cluster_address", n.cluster_address}, {"api_url", n.api_url}, {"admin_url", n.admin_url}});
}

std::optional<actors::node_info> parse_node_value(std::string_view text) {
  auto o = parse_object(text);
  if (!o)
    return std::nullopt;
  auto id = text_member(*o, "id", 32);
  auto cluster = text_member(*o, "cluster_address");
  auto api = text_member(*o, "api_url");
  auto admin = text_member(*o, "admin_url");
  if (!id || !core::is_node_id(*id) || !cluster || !is_cluster_address(*cluster) || !api || !is_member_url(*api)
      || !admin || !is_member_url(*admin))
    return std::nullopt;
  return actors::node_info{*id, *cluster, *api, *admin};
}

std::string map_value(const actors::shard_map& m) {
  json::array owners;
  for (auto& o : m.owners)
    owners.emplace_back(o);
  return json::serialize(json::object{{"owners", std::move(owners)}});
}

std::optional<actors::shard_map> parse_map_value(std::string_view text, int64_t revision) {
  auto o = parse_object(text);
  auto* owners = o ? o->if_contains("owners") : nullptr;
  if (!owners || !owners->is_array() || owners->as_array().size() != core::shard_count)
    return std::nullopt;
  actors::shard_map m;
  m.revision = revision;
  for (auto& v : owners->as_array()) {
    if (!v.is_string() || !core::is_node_id(v.as_string()))
      return std::nullopt;
    m.owners.emplace_back(v.as_string());
  }
  return m;
}

std::string move_key(core::shard_id shard) {
  return std::string{etcd_moves_prefix} + std::to_string(shard);
}

std::string move_value(const recorded_move& m) {
  return json::serialize(json::object{{"from", m.from}, {"to", m.to}});
}

std::optional<recorded_move> parse_move_value(std::string_view text) {
  auto o = parse_object(text);
  auto from = o ? text_member(*o, "from") : std::nullopt;
  auto to = o ? text_member(*o, "to") : std::nullopt;
  if (!from || !to || !core::is_node_id(*from) || !core::is_node_id(*to) || *from == *to)
    return std::nullopt;
  return recorded_move{std::move(*from), std::move(*to)};
}

actors::shard_map bootstrap_map(const std::vector<std::string>& nodes) {
  actors::shard_map m;
  for (std::size_t s = 0; s < core::shard_count && !nodes.empty(); ++s)
    m.owners.push_back(nodes[s % nodes.size()]);
  return m;
}

} // namespace svc::cluster
