#include "bench/load/json_text.hpp"

#include <boost/json.hpp>

#include <cmath>

#include "bench/load/format.hpp"

namespace svc::bench {

std::string json_text(const boost::json::value& v) {
  switch (v.kind()) {
  case boost::json::kind::double_:
    return std::isfinite(v.get_double()) ? format("%.3f", v.get_double()) : "null";
  case boost::json::kind::object: {
    std::string out = "{";
    for (auto& member : v.get_object())
      out += (out.size() > 1 ? "," : "") + boost::json::serialize(boost::json::value(member.key())) + ":"
             + json_text(member.value());
    return out + "}";
  }
  case boost::json::kind::array: {
    std::string out = "[";
    for (auto& item : v.get_array())
      out += (out.size() > 1 ? "," : "") + json_text(item);
    return out + "]";
  }
  default:
    return boost::json::serialize(v);
  }
}

} // namespace svc::bench
