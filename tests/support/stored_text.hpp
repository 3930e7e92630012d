#pragma once
// The codec tests' round trip through the stored bytes, as persistence writes
// and reads a record, and the stored form of a record with one field changed.

#include <string_view>
#include <utility>

#include <boost/json.hpp>

#include "schema/stored_json.hpp"

namespace svc::test {

/// `v` serialized and parsed back.
inline boost::json::value through_text(const boost::json::value& v) {
  return boost::json::parse(boost::json::serialize(v));
}

/// The stored JSON of `r` with `field` replaced by `v`.
template <class Record>
boost::json::value stored_with(const Record& r, std::string_view field, boost::json::value v) {
  auto stored = schema::encode_stored(r);
  stored.as_object()[field] = std::move(v);
  return stored;
}

} // namespace svc::test
