// After a restart: what the kill left unanswered is resolved, and every
// acknowledged write is asked for again.
#include <algorithm>

#include "checks.hpp"
#include "operations.hpp"
#include "support/json_util.hpp"
#include "support/list_pages.hpp"
#include "support/svcctl_runner.hpp"

namespace svc::chaos {
namespace {

std::size_t team_count(ledger& book) {
  return book.with([](ledger_state& b) { return b.teams.size(); });
}

std::string answer_of(const std::optional<e2e::response>& r) { return r ? r->summary() : "no answer"; }

} // namespace

void resolve_unanswered_creates(check_context& cx) {
  for (std::size_t t = 0; t < team_count(cx.book); ++t) {
    std::vector<keyed_create> pending;
    std::string api_key;
    cx.book.with([&](ledger_state& b) {
      pending.swap(b.teams[t].keyed_unanswered);
      api_key = b.teams[t].write_key;
    });
    for (auto& create : pending) {
      auto r = send_keyed(cx.api, api_key, create);
      if (r && r->status == 507) { // not made then, and a full store refuses it now
        cx.book.with([&](ledger_state& b) { ++b.keyed_resolved_refused; });
        continue;
      }
      if (!r || r->status != 201) {
        cx.report("unanswered-create-retry", create.idempotency_key,
                  "a keyed create the kill left unanswered, sent again after the restart, answered " + answer_of(r));
        continue;
      }
      bool replayed = r->header_or_empty("Idempotent-Replayed") == "true";
      create.status = r->status;
      create.answer = r->body;
      cx.book.with([&](ledger_state& b) { ++(replayed ? b.keyed_resolved_replayed : b.keyed_resolved_fresh); });
      if (create.target == "/v1/webhook_endpoints") {
        if (!remember_endpoint(cx.book, cx.hooks, t, create, now_ms()))
          cx.report("unanswered-create-retry", create.idempotency_key, "answered no endpoint: " + r->summary());
        continue;
      }
      auto id = e2e::json_str(r->json(), "id");
      cx.book.with([&](ledger_state& b) {
        b.teams[t].jobs.push_back({id, create.target == "/v1/videos"});
        b.teams[t].keyed.push_back(std::move(create));
      });
    }
  }
}

void recheck_keyed_creates(check_context& cx) {
  // Every create acknowledged since the last restart, and this many older ones.
  constexpr std::size_t older_sample = 20;
  for (std::size_t t = 0; t < team_count(cx.book); ++t) {
    std::vector<keyed_create> again;
    std::string api_key;
    cx.book.with([&](ledger_state& b) {
      auto& team = b.teams[t];
      api_key = team.write_key;
      for (std::size_t i = 0; i < std::min(older_sample, team.keyed_rechecked); ++i)
        again.push_back(team.keyed[std::uniform_int_distribution<std::size_t>{0, team.keyed_rechecked - 1}(cx.rng)]);
      again.insert(again.end(), team.keyed.begin() + static_cast<std::ptrdiff_t>(team.keyed_rechecked),
                   team.keyed.end());
      team.keyed_rechecked = team.keyed.size();
    });
    for (auto& first : again) {
      auto r = send_keyed(cx.api, api_key, first);
      auto difference = r ? replay_difference(first, *r) : "no answer";
      if (!difference.empty())
        cx.report("idempotent-retry", first.idempotency_key,
                  "an acknowledged keyed create sent again after the restart: " + difference);
    }
  }
}

void check_key_rotations(check_context& cx) {
  for (std::size_t t = 0; t < team_count(cx.book); ++t) {
    auto team = cx.book.with([&](ledger_state& b) { return b.teams[t]; });
    auto works = [&](const std::string& key, const std::string& what) {
      auto r = send(cx.api, "GET", "/v1/team", e2e::with_key(key));
      if (status_of(r) != 200)
        cx.report("rotated-key-works", team.id + " " + what + " " + key.substr(key.size() - 4),
                  "GET /v1/team with it answered " + answer_of(r));
    };
    for (auto i = team.rotations_checked; i < team.rotations.size(); ++i) {
      works(team.rotations[i].new_key, "new key");
      works(team.rotations[i].old_key, "old key in grace");
    }
    works(team.write_key, "write key");

    bool rotated = false;
    if (team.rotation_unanswered)
      for (auto& k : e2e::all_pages(cx.api, team.full_key, "/v1/api_keys"))
        if (e2e::json_str(k, "id") == team.write_key_id && !e2e::json_is_null(k, "deactivate_at"))
          rotated = true;
    // A rotation that happened unanswered left a key nobody knows; the old
    // one lasts its grace, but the load carries on with a new one.
    std::string new_key, new_id;
    if (rotated) {
      auto k = e2e::run_svcctl_ok(cx.svcd.data_dir(), {"key", "create", "--team", team.id, "--scope", "write"});
      new_key = e2e::json_str(k, "key");
      new_id = e2e::json_str(k, "id");
    }
    cx.book.with([&](ledger_state& b) {
      auto& live = b.teams[t];
      live.rotations_checked = live.rotations.size();
      live.rotation_unanswered = false;
      if (rotated) {
        ++b.rotations_resolved_lost;
        live.write_key = new_key;
        live.write_key_id = new_id;
      }
    });
  }
}

void check_acknowledged_writes(check_context& cx, const std::vector<team_view>& teams) {
  auto book_copy = cx.book.with([](ledger_state& b) { return b.teams; });
  for (std::size_t t = 0; t < teams.size(); ++t) {
    auto& seen = teams[t];
    auto& told = book_copy[t];
    for (auto& job : told.jobs) {
      auto it = seen.jobs.find(job.id);
      if (it == seen.jobs.end() || it->second.video != job.video)
        cx.report("acknowledged-job-exists", job.id,
                  std::string{"a create answered 201; GET /v1/"} + (job.video ? "videos" : "images")
                    + " of its team does not list it");
    }
    for (auto& id : told.cancelled) {
      auto it = seen.jobs.find(id);
      if (it != seen.jobs.end() && it->second.status != "cancelled")
        cx.report("acknowledged-cancel-holds", id, "a cancel answered 200; the job is now '" + it->second.status + "'");
    }
    for (auto& id : told.files)
      if (!seen.files.count(id))
        cx.report("acknowledged-upload-exists", id, "an upload answered 201; GET /v1/files does not list it");
    for (auto& e : told.endpoints) {
      auto it = seen.endpoints.find(e.id);
      if (e.delete_acknowledged && it != seen.endpoints.end())
        cx.report("acknowledged-delete-holds", e.id, "a delete answered 200; the endpoint is listed again");
      if (!e.deleted && it == seen.endpoints.end())
        cx.report("acknowledged-endpoint-exists", e.id,
                  "a create answered 201; GET /v1/webhook_endpoints does not list it");
      if (!e.deleted && it != seen.endpoints.end() && !it->second)
        cx.report("endpoint-stays-active", e.id, "its receiver acknowledges every retry, yet it was disabled");
    }
  }
}

} // namespace svc::chaos
