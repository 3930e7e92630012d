#pragma once
// The codec tests' round trip through the stored bytes, as persistence writes
// and reads a record.

#include <boost/json.hpp>

namespace svc::test {

/// `v` serialized and parsed back.
inline boost::json::value through_text(const boost::json::value& v) {
  return boost::json::parse(boost::json::serialize(v));
}

} // namespace svc::test
