// The load's webhook operations: endpoints created (always with an
// Idempotency-Key, so an unanswered create can be resolved and its secret
// learnt), deleted, and their secrets rotated.
#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "operations.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"

namespace svc::chaos {
namespace json = boost::json;

namespace {

// Endpoints a team keeps; past it the load deletes one, so creates go on.
constexpr std::size_t endpoints_per_team = 4;

json::array subscription(client& c) {
  switch (c.uniform(0, 3)) {
  case 0: return {"*"};
  case 1: return {"image.completed", "image.failed", "image.cancelled"};
  case 2: return {"video.completed", "video.failed", "video.cancelled"};
  default: return {"image.completed", "video.completed", "image.cancelled", "video.cancelled"};
  }
}

std::size_t live_endpoints(const team_ledger& t) {
  return static_cast<std::size_t>(
    std::count_if(t.endpoints.begin(), t.endpoints.end(), [](const endpoint_entry& e) { return !e.deleted; }));
}

void create_endpoint(client& c, std::size_t team, const std::string& api_key, const std::string& path) {
  json::object body{{"url", c.hooks.url(path)}, {"events", subscription(c)}};
  keyed_create create{"/v1/webhook_endpoints", "chaos-" + c.next_tag(), json::serialize(body), 0, {}};
  auto r = send_keyed(c.api, api_key, create);
  auto o = c.book.count(operation::endpoint, r);
  if (uncertain(o)) {
    c.book.with([&](ledger_state& b) { b.teams[team].keyed_unanswered.push_back(std::move(create)); });
    return;
  }
  if (o != outcome::acknowledged)
    return;
  create.status = r->status;
  create.answer = r->body;
  if (!remember_endpoint(c.book, c.hooks, team, create, now_ms()))
    c.found.add(c.cycle, "endpoint-answer", path, "an endpoint create answered " + r->summary());
}

void delete_endpoint(client& c, std::size_t team, const std::string& api_key, const std::string& id) {
  auto r = send(c.api, "DELETE", "/v1/webhook_endpoints/" + id, e2e::with_key(api_key));
  auto o = c.book.count(operation::endpoint_delete, r);
  if (o == outcome::acknowledged)
    c.book.with([&](ledger_state& b) {
      for (auto& e : b.teams[team].endpoints)
        if (e.id == id)
          e.delete_acknowledged = true;
    });
}

} // namespace

bool remember_endpoint(ledger& book, delivery_recorder& hooks, std::size_t team, keyed_create& create,
                       std::int64_t answered_at_ms) {
  boost::system::error_code ec;
  auto answer = boost::json::parse(create.answer, ec);
  if (ec)
    return false;
  endpoint_entry e;
  e.id = e2e::json_str(answer, "id");
  e.path = e2e::target_of(e2e::json_str(answer, "url"));
  e.subscribed_at_ms = answered_at_ms;
  auto secret = e2e::json_str(answer, "secret");
  if (auto* events = e2e::json_at(answer, "events"); events && events->is_array())
    for (auto& type : events->as_array())
      if (type.is_string())
        e.events.insert(std::string{type.as_string()});
  if (e.id.rfind("we_", 0) != 0 || secret.rfind("whsec_", 0) != 0 || e.events.empty())
    return false;
  hooks.learn_secret(e.path, secret);
  book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    t.endpoints.push_back(std::move(e));
    t.keyed.push_back(std::move(create));
  });
  return true;
}

void create_or_delete_endpoint(client& c, std::size_t team) {
  std::string api_key, path, doomed;
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    api_key = t.write_key;
    if (live_endpoints(t) < endpoints_per_team) {
      path = "/hooks/t" + std::to_string(team) + "/e" + std::to_string(++t.endpoints_made);
      return;
    }
    // Nothing is owed to an endpoint from the moment its delete is sent:
    // deliveries still pending then may rightly be dropped.
    for (auto& e : t.endpoints)
      if (!e.deleted) {
        e.deleted = true;
        doomed = e.id;
        return;
      }
  });
  if (!path.empty())
    create_endpoint(c, team, api_key, path);
  else if (!doomed.empty())
    delete_endpoint(c, team, api_key, doomed);
}

void rotate_secret(client& c, std::size_t team) {
  std::string api_key, id, path;
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    api_key = t.write_key;
    std::vector<const endpoint_entry*> live;
    for (auto& e : t.endpoints)
      if (!e.deleted)
        live.push_back(&e);
    if (live.empty())
      return;
    auto& e = *live[static_cast<std::size_t>(c.uniform(0, static_cast<std::int64_t>(live.size()) - 1))];
    id = e.id;
    path = e.path;
  });
  if (id.empty())
    return;
  auto r = send(c.api, "POST", "/v1/webhook_endpoints/" + id + "/rotate_secret", e2e::with_key(api_key));
  auto o = c.book.count(operation::rotate_secret, r);
  if (uncertain(o)) {
    // svcd may sign with a secret nobody was told from now on.
    c.hooks.forget_secrets(path);
    return;
  }
  if (o != outcome::acknowledged)
    return;
  auto secret = e2e::json_str(r->json(), "secret");
  if (secret.rfind("whsec_", 0) != 0)
    c.found.add(c.cycle, "rotate-answer", id, "an acknowledged rotation answered " + r->summary());
  else
    c.hooks.learn_secret(path, secret);
}

} // namespace svc::chaos
