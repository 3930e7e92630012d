#include "persistence/shard_digest.hpp"

#include <vector>

#include "core/crypto.hpp"
#include "persistence/shard_rows.hpp"

namespace svc::persistence {
namespace {

constexpr std::size_t page_bytes = std::size_t{4} << 20;
constexpr uint64_t blob_piece = uint64_t{1} << 20;

// Each field behind its length, so no two different sequences hash alike.
void add_field(core::sha256_stream& hash, std::string_view field) {
  auto n = static_cast<uint64_t>(field.size());
  char length[8];
  for (int i = 0; i < 8; ++i)
    length[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  hash.add({length, sizeof length});
  hash.add(field);
}

} // namespace

read_result<shard_digest> digest_shard(const tables& t, const blob_store& blobs, core::shard_id shard) {
  core::sha256_stream hash;
  shard_digest out;
  std::vector<std::string> owned;
  std::string cursor;
  for (bool first = true; first || !cursor.empty(); first = false) {
    auto page = read_shard_rows(t, shard, cursor, page_bytes);
    if (page.failed())
      return read_result<shard_digest>::error(page.why());
    for (auto& r : page->rows) {
      char from = static_cast<char>(r.from);
      add_field(hash, {&from, 1});
      add_field(hash, r.key);
      add_field(hash, r.value);
      out.bytes += r.key.size() + r.value.size();
      ++out.rows;
    }
    owned.insert(owned.end(), page->blobs.begin(), page->blobs.end());
    cursor = std::move(page->next);
  }
  for (auto& name : owned) {
    auto file = blobs.open(name);
    if (!file) // an output past its expiry may be named but gone already: on both nodes alike
      continue;
    add_field(hash, name);
    core::sha256_stream bytes;
    for (uint64_t offset = 0; offset < file->size();) {
      auto piece = file->read(offset, blob_piece);
      if (!piece || piece->empty())
        return read_result<shard_digest>::error("cannot read blob " + name);
      bytes.add(*piece);
      offset += piece->size();
    }
    auto d = bytes.finish();
    add_field(hash, {reinterpret_cast<const char*>(d.data()), d.size()});
    out.bytes += file->size();
    ++out.blobs;
  }
  out.sha256 = core::to_hex(hash.finish());
  return out;
}

} // namespace svc::persistence
