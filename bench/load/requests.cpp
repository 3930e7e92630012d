#include "bench/load/requests.hpp"

#include <boost/json.hpp>

namespace svc::bench {
namespace {

std::string head(const char* method, const std::string& path, const target& t, const std::string& key) {
  return std::string{method} + " " + path + " HTTP/1.1\r\nHost: " + t.host_header + "\r\nX-Api-Key: " + key
         + "\r\nUser-Agent: svc-bench\r\n";
}

} // namespace

std::string create_image_request(const target& t, const std::string& key, const image_spec& spec) {
  const auto body = boost::json::serialize(
    boost::json::object{{"prompt", spec.prompt}, {"width", spec.width}, {"height", spec.height}});
  return head("POST", "/v1/images", t, key) + "Content-Type: application/json\r\nContent-Length: "
         + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string get_image_request(const target& t, const std::string& key, const std::string& id, long wait_seconds) {
  auto req = head("GET", "/v1/images/" + id, t, key);
  if (wait_seconds > 0)
    req += "Prefer: wait=" + std::to_string(wait_seconds) + "\r\n";
  return req + "\r\n";
}

} // namespace svc::bench
