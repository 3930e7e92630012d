// Bytes read back from LMDB after a crash or by a damaged disk: every record
// decoder must answer "damaged", never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "persistence/job_rows.hpp"
#include "persistence/value_codec.hpp"

namespace p = svc::persistence;
namespace s = svc::schema;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  p::decode_record<s::job_record>(bytes);
  p::decode_record<s::file_record>(bytes);
  p::decode_record<s::team_record>(bytes);
  p::decode_record<s::balance_record>(bytes);
  p::decode_record<s::hold_record>(bytes);
  p::decode_record<s::api_key_record>(bytes);
  p::decode_record<s::lora_record>(bytes);
  p::decode_record<s::bucket_snapshot>(bytes);
  p::decode_record<s::idempotency_record>(bytes);
  p::decode_record<s::usage_record>(bytes);
  p::decode_record<s::webhook_endpoint_record>(bytes);
  p::decode_record<s::event_record>(bytes);
  p::decode_record<s::delivery_record>(bytes);
  p::decode_record<s::delivery_task>(bytes);
  p::decode_text(bytes);
  p::expiry_entry entry;
  p::parse_expiry_key(bytes, entry);
  return 0;
}
