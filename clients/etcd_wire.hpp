#pragma once
// The JSON of etcd's v3 gateway, both ways: request bodies (base64 keys and
// values, int64 as strings) and the decoding of its answers, where an absent
// field means 0/false and any other shape is an etcd_error `rejected`.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/stream_parser.hpp>
#include <boost/json/value.hpp>

#include "clients/etcd_client.hpp"

namespace svc::clients::etcd_wire {

/// A key or value as the gateway wants it (base64).
std::string bytes(std::string_view raw);
/// An int64 as the gateway writes it (a JSON string).
std::string number(std::int64_t n);
/// The range_end covering every key that starts with `prefix` ("\0" for all keys).
std::string prefix_end(std::string_view prefix);

/// Parses a whole answer body into a JSON object; rejected otherwise.
boost::json::object parse_object(std::string_view body);
/// Unwraps a streamed RPC's `{"result":{...}}`; a streamed `{"error":{...}}` throws.
const boost::json::object& result_of(const boost::json::object& message);
/// A string field; empty when absent.
std::string_view string_field(const boost::json::object& o, std::string_view name);
/// An int64 field (a JSON string or number); 0 when absent.
std::int64_t int_field(const boost::json::object& o, std::string_view name);
/// A boolean field; false when absent.
bool bool_field(const boost::json::object& o, std::string_view name);
/// The answer's header.revision; 0 when absent.
std::int64_t header_revision(const boost::json::object& answer);
/// A range answer's keys and revision.
etcd_range range_of(const boost::json::object& answer);

/// One watch message's events (empty for `created` and progress messages).
/// Throws compacted when etcd cancelled the watch for a compacted revision,
/// rejected for any other cancel.
std::vector<etcd_event> watch_events(const boost::json::object& result);

/// The error an answer with HTTP status `status` (not 200) and body `body`
/// stands for: etcd's gRPC code decides (not found: lease_expired;
/// unavailable: unreachable; deadline: timeout; the compaction refusal:
/// compacted; others and unreadable bodies: rejected). `where` prefixes the message.
etcd_error error_of(unsigned status, std::string_view body, const std::string& where);

/// Splits a streamed body into the JSON objects it carries, wherever the
/// pieces it arrives in are cut; holds at most one unfinished object.
class message_splitter {
public:
  /// `limit`: the most bytes one object may take.
  explicit message_splitter(std::size_t limit) : limit_(limit) {}
  /// The objects `piece` completes. Throws rejected on bad JSON, a value that
  /// is not an object or an object over the limit.
  std::vector<boost::json::object> feed(std::string_view piece);

private:
  boost::json::stream_parser parser_;
  std::size_t limit_;
  std::size_t pending_ = 0; ///< bytes of the unfinished object so far
};

} // namespace svc::clients::etcd_wire
