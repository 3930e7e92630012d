// After a restart: each job settled once, and every team's credits add up.
#include <optional>
#include <unordered_map>

#include "checks.hpp"

namespace svc::chaos {
namespace {

// The event a job's terminal status publishes (none for expired and
// moderation_rejected: v1.1 events).
std::string settlement_event(const job_view& job) {
  std::string kind = job.video ? "video." : "image.";
  if (job.status == "succeeded")
    return kind + "completed";
  if (job.status == "failed" || job.status == "cancelled")
    return kind + job.status;
  return {};
}

std::string expected_cost(const std::string& status) {
  if (!is_terminal(status))
    return "held";
  return status == "succeeded" ? "charged" : "refunded";
}

bool is_settlement_type(const std::string& type) {
  for (auto suffix : {".completed", ".failed", ".cancelled"})
    if (type.size() > std::string{suffix}.size()
        && type.compare(type.size() - std::string{suffix}.size(), std::string::npos, suffix) == 0)
      return true;
  return false;
}

// Which of the unanswered grants landed: the subset adding up to `missing`.
std::optional<std::size_t> landed_grants(const std::vector<std::int64_t>& unanswered, std::int64_t missing) {
  if (unanswered.size() > 16)
    return std::nullopt;
  for (std::uint32_t mask = 0; mask < (1u << unanswered.size()); ++mask) {
    std::int64_t sum = 0;
    std::size_t count = 0;
    for (std::size_t i = 0; i < unanswered.size(); ++i)
      if (mask & (1u << i)) {
        sum += unanswered[i];
        ++count;
      }
    if (sum == missing)
      return count;
  }
  return std::nullopt;
}

} // namespace

void check_settlements(check_context& cx, const std::vector<team_view>& teams) {
  auto keys = cx.book.with([](ledger_state& b) {
    std::vector<std::string> out;
    for (auto& t : b.teams)
      out.push_back(t.full_key);
    return out;
  });
  for (std::size_t t = 0; t < teams.size(); ++t) {
    auto& events = cx.memory.events[t];
    read_new_events(cx.api, keys[t], events);
    std::unordered_map<std::string, std::vector<const event_view*>> by_job;
    for (auto& [id, e] : events)
      if (!e.job_id.empty() && is_settlement_type(e.type))
        by_job[e.job_id].push_back(&e);

    for (auto& [job_id, settlements] : by_job) {
      auto job = teams[t].jobs.find(job_id);
      if (settlements.size() > 1) {
        std::string list;
        for (auto* e : settlements)
          list += " " + e->type + " " + e->id;
        cx.report("settled-once", job_id, std::to_string(settlements.size()) + " settlement events:" + list);
      }
      if (job == teams[t].jobs.end())
        cx.report("event-has-job", settlements.front()->id, "event of " + job_id + ", a job its team does not list");
      else if (settlements.front()->type != settlement_event(job->second))
        cx.report("event-matches-status", job_id,
                  "event " + settlements.front()->type + " but the job is '" + job->second.status + "'");
    }
    for (auto& [id, job] : teams[t].jobs) {
      if (job.cost_status != expected_cost(job.status))
        cx.report("cost-matches-status", id,
                  "status '" + job.status + "' with cost '" + job.cost_status + "' (expected '"
                    + expected_cost(job.status) + "')");
      if (!is_terminal(job.status))
        continue;
      auto first = cx.memory.terminal.emplace(id, job.status).first->second;
      if (first != job.status)
        cx.report("terminal-state-stays", id, "was '" + first + "', is now '" + job.status + "'");
      if (!settlement_event(job).empty() && !by_job.count(id))
        cx.report("settled-job-has-event", id,
                  "'" + job.status + "' but GET /v1/events has no " + settlement_event(job) + " for it");
    }
  }
}

void check_credits(check_context& cx, const std::vector<team_view>& teams) {
  for (std::size_t t = 0; t < teams.size(); ++t) {
    auto& v = teams[t];
    auto team = cx.book.with([&](ledger_state& b) { return b.teams[t].id; });
    if (!v.consistent) {
      cx.report("credits-readable", team + " cycle " + std::to_string(cx.cycle),
                "jobs kept settling while the balance was read; credits not checked this cycle");
      continue;
    }
    std::int64_t held = 0, charged = 0, images = 0, videos = 0;
    for (auto& [id, job] : v.jobs) {
      if (job.cost_status == "held")
        held += job.credits;
      if (job.cost_status == "charged") {
        charged += job.credits;
        (job.video ? videos : images) += static_cast<std::int64_t>(job.outputs);
      }
    }
    auto cycle_subject = team + " cycle " + std::to_string(cx.cycle);
    if (v.held < 0 || v.available < 0)
      cx.report("balance-not-negative", cycle_subject,
                "available " + std::to_string(v.available) + ", held " + std::to_string(v.held));
    if (v.held != held)
      cx.report("held-matches-jobs", cycle_subject,
                "balance held " + std::to_string(v.held) + ", jobs holding " + std::to_string(held));
    if (v.charged != charged || v.usage_images != images || v.usage_videos != videos)
      cx.report("usage-matches-jobs", cycle_subject,
                "usage charged " + std::to_string(v.charged) + " for " + std::to_string(v.usage_images) + " images, "
                  + std::to_string(v.usage_videos) + " videos; charged jobs cost " + std::to_string(charged) + " for "
                  + std::to_string(images) + " image outputs, " + std::to_string(videos) + " videos");

    auto total = v.available + v.held + v.charged;
    cx.book.with([&](ledger_state& b) {
      auto& told = b.teams[t];
      auto landed = landed_grants(told.unanswered_grants, total - told.granted);
      if (landed) {
        b.grants_resolved_landed += *landed;
        b.grants_resolved_lost += told.unanswered_grants.size() - *landed;
      } else {
        std::string unanswered;
        for (auto g : told.unanswered_grants)
          unanswered += " " + std::to_string(g);
        cx.report("granted-equals-available-held-charged", cycle_subject,
                  "granted " + std::to_string(told.granted) + " (opening and acknowledged grants; unanswered:"
                    + (unanswered.empty() ? " none" : unanswered) + ") but available " + std::to_string(v.available)
                    + " + held " + std::to_string(v.held) + " + charged " + std::to_string(v.charged) + " = "
                    + std::to_string(total));
      }
      // From here on the books start again from what svcd shows, so one
      // drift is reported once.
      told.granted = total;
      told.unanswered_grants.clear();
    });
  }
}

} // namespace svc::chaos
