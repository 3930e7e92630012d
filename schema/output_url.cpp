#include "schema/output_url.hpp"

#include "core/crypto.hpp"

namespace svc::schema {

std::string output_signature(std::string_view secret, std::string_view job_id, uint32_t index, int64_t expires_unix) {
  std::string message{job_id};
  message.append(".").append(std::to_string(index)).append(".").append(std::to_string(expires_unix));
  return core::to_hex(core::hmac_sha256(secret, message));
}

std::string output_url_path(std::string_view secret, std::string_view job_id, uint32_t index, int64_t expires_unix) {
  std::string path = "/v1/outputs/";
  path.append(job_id).append("/").append(std::to_string(index));
  path.append("?exp=").append(std::to_string(expires_unix));
  path.append("&sig=").append(output_signature(secret, job_id, index, expires_unix));
  return path;
}

output_url_verdict verify_output_url(std::string_view secret, std::string_view job_id, uint32_t index,
                                     std::string_view exp_text, std::string_view sig_hex, int64_t now_unix) {
  // The expiry must be the exact decimal text that was signed: no signs, no
  // leading zeros, at most 12 digits.
  bool exp_ok = !exp_text.empty() && exp_text.size() <= 12 && (exp_text.size() == 1 || exp_text[0] != '0');
  int64_t exp = 0;
  for (char c : exp_text) {
    exp_ok = exp_ok && c >= '0' && c <= '9';
    exp = exp * 10 + (c - '0');
  }
  if (!exp_ok)
    return output_url_verdict::invalid_signature;
  if (!core::constant_time_equal(output_signature(secret, job_id, index, exp), sig_hex))
    return output_url_verdict::invalid_signature;
  return now_unix >= exp ? output_url_verdict::expired : output_url_verdict::valid;
}

} // namespace svc::schema
