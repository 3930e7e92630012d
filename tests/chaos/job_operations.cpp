// The load's job operations: creates of images and videos (keyed or not),
// cancels, and replays of keyed creates.
#include <algorithm>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "operations.hpp"
#include "support/json_util.hpp"

namespace svc::chaos {
namespace json = boost::json;

namespace {

// Small and quick: the campaign is about state, not pixels. A few prompts
// carry a word of the built-in moderation list, so some jobs end
// `moderation_rejected` (refunded, no event).
json::object job_body(client& c, bool video, const std::string& tag, const std::string& init_image) {
  auto prompt = (c.chance(0.03) ? "a gory scene " : "a quiet harbour, chaos ") + tag;
  json::object body{{"prompt", prompt}, {"width", 256}, {"height", 256}, {"metadata", {{"chaos", tag}}}};
  if (video) {
    body["duration_seconds"] = 1;
    body["fps"] = 8;
  } else if (c.chance(0.3)) {
    body["num_outputs"] = 2;
  }
  if (!init_image.empty())
    body["init_image"] = init_image;
  return body;
}

} // namespace

void create_job(client& c, std::size_t team, bool video) {
  bool keyed = c.chance(0.5);
  auto tag = c.next_tag();
  std::string api_key, init_image;
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    api_key = t.write_key;
    if (!video && !t.files.empty() && c.chance(0.2))
      init_image = t.files[static_cast<std::size_t>(c.uniform(0, static_cast<std::int64_t>(t.files.size()) - 1))];
  });
  keyed_create create{video ? "/v1/videos" : "/v1/images", keyed ? "chaos-" + tag : "",
                      json::serialize(job_body(c, video, tag, init_image)), 0, {}};
  auto r = keyed ? send_keyed(c.api, api_key, create)
                 : send(c.api, "POST", create.target, e2e::with_key(api_key, {{"Content-Type", "application/json"}}),
                        create.body);
  auto o = c.book.count(video ? operation::video : operation::image, r);
  if (o == outcome::acknowledged) {
    auto id = e2e::json_str(r->json(), "id");
    if (r->status != 201 || id.rfind(video ? "vid_" : "img_", 0) != 0) {
      c.found.add(c.cycle, "create-answer", id, "a create answered " + r->summary());
      return;
    }
    create.status = r->status;
    create.answer = r->body;
    c.book.with([&](ledger_state& b) {
      auto& t = b.teams[team];
      t.jobs.push_back({id, video});
      if (keyed)
        t.keyed.push_back(std::move(create));
    });
  } else if (uncertain(o) && keyed) {
    c.book.with([&](ledger_state& b) { b.teams[team].keyed_unanswered.push_back(std::move(create)); });
  }
}

void cancel_job(client& c, std::size_t team) {
  std::string api_key, id;
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    api_key = t.write_key;
    if (!t.jobs.empty()) {
      // Recent jobs: the ones still likely to be running.
      auto n = static_cast<std::int64_t>(t.jobs.size());
      id = t.jobs[static_cast<std::size_t>(c.uniform(std::max<std::int64_t>(0, n - 30), n - 1))].id;
    }
  });
  if (id.empty())
    return;
  auto r = send(c.api, "POST", "/v1/images/" + id + "/cancel", e2e::with_key(api_key));
  auto o = c.book.count(operation::cancel, r);
  if (o != outcome::acknowledged)
    return;
  if (auto status = e2e::json_str(r->json(), "status"); status != "cancelled")
    c.found.add(c.cycle, "cancel-answer", id, "an acknowledged cancel answered status '" + status + "'");
  c.book.with([&](ledger_state& b) { b.teams[team].cancelled.push_back(id); });
}

void replay_create(client& c, std::size_t team) {
  std::string api_key;
  std::optional<keyed_create> first;
  c.book.with([&](ledger_state& b) {
    auto& t = b.teams[team];
    api_key = t.write_key;
    if (!t.keyed.empty())
      first = t.keyed[static_cast<std::size_t>(c.uniform(0, static_cast<std::int64_t>(t.keyed.size()) - 1))];
  });
  if (!first)
    return;
  auto r = send_keyed(c.api, api_key, *first);
  auto o = c.book.count(operation::replay, r);
  if (o == outcome::unanswered || o == outcome::server_error || r->status == 429)
    return;
  if (auto difference = replay_difference(*first, *r); !difference.empty())
    c.found.add(c.cycle, "idempotent-replay", first->idempotency_key, difference);
}

} // namespace svc::chaos
