#include "support/file_uploads.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace svc::e2e {

std::string test_image(const std::string& name) {
  std::ifstream in{std::string{SVC_E2E_DATA_DIR} + "/" + name, std::ios::binary};
  if (!in)
    throw std::runtime_error("cannot read test data " + name);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string multipart_body(const std::vector<form_part>& parts, bool closed) {
  std::string body;
  for (auto& p : parts) {
    body += "--" + test_boundary + "\r\nContent-Disposition: form-data; name=\"" + p.name + "\"";
    if (p.filename)
      body += "; filename=\"" + *p.filename + "\"";
    body += "\r\n";
    if (p.content_type)
      body += "Content-Type: " + *p.content_type + "\r\n";
    body += "\r\n" + p.content + "\r\n";
  }
  if (closed)
    body += "--" + test_boundary + "--\r\n";
  return body;
}

header_map form_headers(const std::string& key) {
  return with_key(key, {{"Content-Type", "multipart/form-data; boundary=" + test_boundary}});
}

response upload_file(http_client& c, const std::string& key, const std::string& bytes, const std::string& purpose) {
  return c.request("POST", "/v1/files", form_headers(key),
                   multipart_body({{"file", bytes, std::string{"upload.bin"}, std::string{"text/plain"}},
                                   {"purpose", purpose, std::nullopt, std::nullopt}}));
}

boost::json::value upload_file_ok(http_client& c, const std::string& key, const std::string& bytes,
                                  const std::string& purpose) {
  auto r = upload_file(c, key, bytes, purpose);
  if (r.status != 201)
    throw std::runtime_error("POST /v1/files -> " + r.summary());
  return r.json();
}

} // namespace svc::e2e
