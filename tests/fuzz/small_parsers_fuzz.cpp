// The short strings clients and operators hand over: webhook receiver URLs,
// the remote back end's URL, CIDRs, durations, dates and base64.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/cidr.hpp"
#include "core/crypto.hpp"
#include "core/duration.hpp"
#include "core/time_format.hpp"
#include "schema/address_policy.hpp"
#include "providers/remote/remote_url.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  svc::schema::parse_webhook_url(text, why);
  svc::providers::parse_remote_url(text, why);
  svc::core::parse_cidr_list(text);
  svc::core::parse_duration_list(text);
  svc::core::parse_date(text);
  svc::core::base64_decode(text);
  return 0;
}
