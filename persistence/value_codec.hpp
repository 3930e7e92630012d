#pragma once
// Value encoding: one format-version byte, then the record as compact JSON.
// Decoding never throws; bytes that do not decode are reported as absent.

#include <optional>
#include <string>
#include <string_view>

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/value.hpp>

#include "schema/credit_entry.hpp"
#include "schema/file_record.hpp"
#include "schema/job_record.hpp"
#include "schema/queued_mail.hpp"
#include "schema/records.hpp"
#include "schema/stored_json.hpp"
#include "schema/webhook_records.hpp"

namespace svc::persistence {

/// The format version written as the first byte of every value.
inline constexpr char format_version = 1;

/// Version byte + serialized JSON.
std::string encode_value(const boost::json::value& v);

/// The JSON of an encoded value, its memory from `sp` (the heap by default);
/// nullopt for an unknown version or bad JSON.
std::optional<boost::json::value> decode_value(std::string_view bytes, boost::json::storage_ptr sp = {});

/// Encodes a record's stored form.
template <class Record>
std::string encode_record(const Record& r) {
  return encode_value(schema::encode_stored(r));
}

/// Decodes a stored record; nullopt when the bytes are damaged.
template <class Record>
std::optional<Record> decode_record(std::string_view bytes) {
  // The tree lives only while the record is read out of it: its nodes come
  // from one block on the stack (and the heap past it), not an allocation each.
  unsigned char block[4096];
  boost::json::monotonic_resource arena{block, sizeof block};
  auto v = decode_value(bytes, &arena);
  Record r;
  if (!v || !schema::decode_stored(*v, r))
    return std::nullopt;
  return r;
}

/// A plain string value (index tables map a key to an id).
inline std::string encode_text(std::string_view text) {
  std::string out(1, format_version);
  out.append(text);
  return out;
}

/// The string of an index value; nullopt for an unknown version.
inline std::optional<std::string> decode_text(std::string_view bytes) {
  if (bytes.empty() || bytes[0] != format_version)
    return std::nullopt;
  return std::string{bytes.substr(1)};
}

} // namespace svc::persistence
