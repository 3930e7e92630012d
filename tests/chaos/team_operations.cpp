// The load's team operations: uploads, rotations of the write key, and
// credit grants through the admin listener.
#include <array>

#include "operations.hpp"
#include "support/file_uploads.hpp"
#include "support/json_util.hpp"

namespace svc::chaos {

void upload_file(client& c, std::size_t team) {
  static const std::array<std::string, 3> images{e2e::test_image("tiny.png"), e2e::test_image("tiny.jpg"),
                                                 e2e::test_image("tiny.webp")};
  auto api_key = c.book.with([&](ledger_state& b) { return b.teams[team].write_key; });
  auto& bytes = images[static_cast<std::size_t>(c.uniform(0, static_cast<std::int64_t>(images.size()) - 1))];
  auto body = e2e::multipart_body({{"file", bytes, std::string{"upload.bin"}, std::nullopt},
                                   {"purpose", "init_image", std::nullopt, std::nullopt}});
  auto r = send(c.api, "POST", "/v1/files", e2e::form_headers(api_key), body);
  auto o = c.book.count(operation::upload, r);
  if (o != outcome::acknowledged)
    return;
  auto id = e2e::json_str(r->json(), "id");
  if (r->status != 201 || id.rfind("file_", 0) != 0)
    return c.found.add(c.cycle, "upload-answer", id, "an upload answered " + r->summary());
  c.book.with([&](ledger_state& b) { b.teams[team].files.push_back(id); });
}

void rotate_write_key(client& c, std::size_t team) {
  std::string full_key, old_key, old_id;
  bool go = c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    if (t.rotation_in_flight || t.rotation_unanswered)
      return false;
    t.rotation_in_flight = true;
    full_key = t.full_key;
    old_key = t.write_key;
    old_id = t.write_key_id;
    return true;
  });
  if (!go)
    return;
  auto r = send(c.api, "POST", "/v1/api_keys/" + old_id + "/rotate", e2e::with_key(full_key));
  auto o = c.book.count(operation::rotate_key, r);
  auto answer = o == outcome::acknowledged ? r->json() : boost::json::value{};
  auto new_key = e2e::json_str(answer, "key"), new_id = e2e::json_str(answer, "id");
  if (o == outcome::acknowledged && (new_key.rfind("svc_live_", 0) != 0 || new_id.rfind("key_", 0) != 0))
    c.found.add(c.cycle, "rotate-key-answer", old_id, "an acknowledged rotation answered " + r->summary());
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    t.rotation_in_flight = false;
    if (uncertain(o))
      t.rotation_unanswered = true;
    if (o == outcome::acknowledged && !new_key.empty()) {
      t.rotations.push_back({old_key, new_key});
      t.write_key = new_key;
      t.write_key_id = new_id;
    }
  });
}

void grant_credits(client& c, std::size_t team) {
  std::string team_id;
  bool go = c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    if (t.grant_in_flight)
      return false;
    t.grant_in_flight = true;
    team_id = t.id;
    return true;
  });
  if (!go)
    return;
  auto amount = c.uniform(100, 999);
  auto r = send(c.admin, "POST", "/admin/teams/" + team_id + "/credits",
                {{"Authorization", "Bearer " + c.admin_token}, {"Content-Type", "application/json"}},
                "{\"amount\":" + std::to_string(amount) + "}");
  auto o = c.book.count(operation::grant, r);
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    t.grant_in_flight = false;
    if (o == outcome::acknowledged)
      t.granted += amount;
    else if (uncertain(o))
      t.unanswered_grants.push_back(amount);
  });
}

} // namespace svc::chaos
