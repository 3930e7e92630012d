// Bytes read back from LMDB after a crash or by a damaged disk: every record
// decoder must answer "damaged", never crash, and a record that does decode
// (however odd its fields) must render through the view the API answers with.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <boost/json/serialize.hpp>

#include "persistence/job_rows.hpp"
#include "persistence/value_codec.hpp"
#include "schema/credit_entry_view.hpp"
#include "schema/file_view.hpp"
#include "schema/job_view.hpp"
#include "schema/views.hpp"
#include "schema/webhook_views.hpp"

namespace p = svc::persistence;
namespace s = svc::schema;

namespace {

// Decodes `bytes` as a Record and, when that succeeds, serializes `view(record)`.
template <class Record, class View>
void decode_and_render(std::string_view bytes, View view) {
  if (auto record = p::decode_record<Record>(bytes))
    boost::json::serialize(view(*record));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const s::output_signer signer{"http://127.0.0.1:8080", "fuzz-url-secret"};
  decode_and_render<s::job_record>(bytes, [&](const s::job_record& r) { return s::job_view(r, signer); });
  decode_and_render<s::file_record>(bytes, [](const s::file_record& r) { return s::file_view(r); });
  decode_and_render<s::team_record>(
    bytes, [](const s::team_record& r) { return s::admin_team_view(r, s::balance_record{r.id, 100, 0, {}}); });
  decode_and_render<s::balance_record>(bytes, [](const s::balance_record& r) { return s::balance_view(r, 100); });
  decode_and_render<s::api_key_record>(bytes, [](const s::api_key_record& r) { return s::api_key_view(r); });
  decode_and_render<s::lora_record>(bytes, [](const s::lora_record& r) { return s::lora_view(r); });
  decode_and_render<s::webhook_endpoint_record>(
    bytes, [](const s::webhook_endpoint_record& r) { return s::webhook_endpoint_view(r, true); });
  decode_and_render<s::delivery_record>(bytes, [](const s::delivery_record& r) { return s::delivery_view(r); });
  decode_and_render<s::credit_entry_record>(bytes,
                                            [](const s::credit_entry_record& r) { return s::credit_entry_view(r); });
  p::decode_record<s::hold_record>(bytes);
  p::decode_record<s::bucket_snapshot>(bytes);
  p::decode_record<s::idempotency_record>(bytes);
  p::decode_record<s::usage_record>(bytes);
  p::decode_record<s::event_record>(bytes);
  p::decode_record<s::delivery_task>(bytes);
  p::decode_text(bytes);
  p::expiry_entry entry;
  p::parse_expiry_key(bytes, entry);
  return 0;
}
