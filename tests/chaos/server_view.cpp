#include "server_view.hpp"

#include <algorithm>
#include <stdexcept>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/list_pages.hpp"
#include "support/server_fixture.hpp"

namespace svc::chaos {
namespace json = boost::json;

namespace {

json::value get_ok(e2e::http_client& c, const std::string& key, const std::string& target) {
  auto r = c.get(target, e2e::with_key(key));
  if (r.status != 200)
    throw std::runtime_error("GET " + target + " -> " + r.summary());
  return r.json();
}

void read_jobs(e2e::http_client& c, const std::string& key, bool video, team_view& v) {
  for (auto& item : e2e::all_pages(c, key, video ? "/v1/videos" : "/v1/images")) {
    job_view j;
    j.id = e2e::json_str(item, "id");
    j.video = video;
    j.status = e2e::json_str(item, "status");
    j.cost_status = e2e::json_str(item, "cost.status");
    j.credits = e2e::json_int(item, "cost.credits").value_or(-1);
    j.outputs = static_cast<std::size_t>(std::max(0L, e2e::json_size(item, "outputs")));
    v.jobs[j.id] = std::move(j);
  }
}

} // namespace

bool is_terminal(const std::string& status) { return e2e::is_terminal_status(status); }

team_view read_team(e2e::http_client& c, const std::string& key) {
  team_view v;
  auto before = get_ok(c, key, "/v1/balance");
  read_jobs(c, key, false, v);
  read_jobs(c, key, true, v);
  for (auto& item : e2e::all_pages(c, key, "/v1/files"))
    v.files.insert(e2e::json_str(item, "id"));
  for (auto& item : e2e::all_pages(c, key, "/v1/webhook_endpoints"))
    v.endpoints[e2e::json_str(item, "id")] = e2e::json_bool(item, "is_active").value_or(false);
  auto usage = get_ok(c, key, "/v1/usage?start=" + e2e::utc_date(-1) + "&end=" + e2e::utc_date(1));
  auto after = get_ok(c, key, "/v1/balance");
  v.available = e2e::json_int(after, "available").value_or(-1);
  v.held = e2e::json_int(after, "held").value_or(-1);
  v.charged = e2e::json_int(usage, "total.credits_charged").value_or(-1);
  v.usage_images = e2e::json_int(usage, "total.images").value_or(-1);
  v.usage_videos = e2e::json_int(usage, "total.videos").value_or(-1);
  // Held credits only shrink while no client writes: an equal balance before
  // and after means no job settled in between.
  v.consistent = before == after;
  return v;
}

void read_new_events(e2e::http_client& c, const std::string& key, std::map<std::string, event_view>& known) {
  std::string cursor;
  for (;;) {
    auto page = get_ok(c, key, "/v1/events?limit=100" + (cursor.empty() ? "" : "&starting_after=" + cursor));
    auto* data = e2e::json_at(page, "data");
    if (!data || !data->is_array())
      throw std::runtime_error("GET /v1/events answered no list");
    for (auto& item : data->as_array()) {
      event_view e;
      e.id = e2e::json_str(item, "id");
      if (known.count(e.id))
        return;
      e.type = e2e::json_str(item, "type");
      e.created_ms = e2e::parse_iso8601_ms(e2e::json_str(item, "created_at"));
      auto subject = e2e::json_str(item, "data.id");
      if (subject.rfind("img_", 0) == 0 || subject.rfind("vid_", 0) == 0)
        e.job_id = subject;
      known[e.id] = std::move(e);
    }
    cursor = e2e::json_str(page, "next_cursor");
    if (e2e::json_bool(page, "has_more") != true || cursor.empty())
      return;
  }
}

} // namespace svc::chaos
