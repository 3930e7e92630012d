#pragma once
// Which node of a cluster answers a request, read from the request alone:
// an API key names its team's shard in its first hex digits, a resource id
// in its ULID, an admin path by the team or resource it names. What names
// no team (docs, health, metrics, lists across teams) is answered where it
// arrives.

#include <optional>

#include "core/shard.hpp"
#include "http/transport.hpp"

namespace svc::http {

struct request_route {
  enum class where {
    here,     ///< this node answers
    shard,    ///< the owner of `shard` answers
    new_team, ///< a team create: any node may answer for one of its own shards
  };
  where at = where::here;
  core::shard_id shard = 0;
  /// The owner must serve the client itself (a streamed upload or download):
  /// a 307 sends the client there instead of forwarding.
  bool redirect = false;
};

/// The route of a public API request (its head is enough).
request_route route_api_request(const http_request& head);

/// A shard number as a path names it: decimal 0..255, no sign or padding; nullopt otherwise.
std::optional<uint16_t> parse_shard_number(std::string_view text);

/// The route of an admin request (POST /admin/keys: by the `team_id` of its body).
request_route route_admin_request(const http_request& req);

} // namespace svc::http
