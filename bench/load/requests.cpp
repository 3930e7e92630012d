#include "bench/load/requests.hpp"

#include <boost/json.hpp>

#include "schema/job_record.hpp"

namespace svc::bench {

bool is_terminal_status(const std::string& status) {
  auto s = schema::job_status_from_name(status);
  return s && schema::is_terminal(*s);
}

std::string request_head(const char* method, const std::string& path, const target& t, const std::string& key) {
  return std::string{method} + " " + path + " HTTP/1.1\r\nHost: " + t.host_header
         + (key.empty() ? std::string{} : "\r\nX-Api-Key: " + key) + "\r\nUser-Agent: svc-bench\r\n";
}

std::string get_request(const std::string& path, const target& t, const std::string& key) {
  return request_head("GET", path, t, key) + "\r\n";
}

std::string post_json_request(const std::string& path, const target& t, const std::string& key,
                              const boost::json::object& body) {
  const auto text = boost::json::serialize(body);
  return request_head("POST", path, t, key) + "Content-Type: application/json\r\nContent-Length: "
         + std::to_string(text.size()) + "\r\n\r\n" + text;
}

std::string post_empty_request(const std::string& path, const target& t, const std::string& key) {
  return request_head("POST", path, t, key) + "Content-Length: 0\r\n\r\n";
}

std::string create_image_request(const target& t, const std::string& key, const image_spec& spec) {
  return post_json_request("/v1/images", t, key,
                           {{"prompt", spec.prompt}, {"width", spec.width}, {"height", spec.height}});
}

std::string get_image_request(const target& t, const std::string& key, const std::string& id, long wait_seconds) {
  auto req = request_head("GET", "/v1/images/" + id, t, key);
  if (wait_seconds > 0)
    req += "Prefer: wait=" + std::to_string(wait_seconds) + "\r\n";
  return req + "\r\n";
}

std::string upload_file_request(const target& t, const std::string& key, const std::string& bytes) {
  // 24 fixed bytes: a PNG that happens to hold the line (and so ends its part early) is out of reach.
  const std::string boundary = "svc-bench-3f9c2a7d41e8b6";
  const auto body = "--" + boundary
                    + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\ninit_image\r\n--" + boundary
                    + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"upload.png\"\r\n"
                      "Content-Type: image/png\r\n\r\n"
                    + bytes + "\r\n--" + boundary + "--\r\n";
  return request_head("POST", "/v1/files", t, key) + "Content-Type: multipart/form-data; boundary=" + boundary
         + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

} // namespace svc::bench
