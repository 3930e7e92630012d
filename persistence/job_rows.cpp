#include "persistence/job_rows.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

#include "core/log.hpp"

namespace svc::persistence {
namespace {

constexpr std::array<std::pair<expiry_kind, std::string_view>, 5> kind_names{
  {{expiry_kind::outputs, "outputs"},
   {expiry_kind::idempotency, "idempotency"},
   {expiry_kind::event, "event"},
   {expiry_kind::delivery, "delivery"},
   {expiry_kind::file, "file"}}};

std::string_view kind_name(expiry_kind k) {
  for (auto& [kind, name] : kind_names)
    if (kind == k)
      return name;
  return "outputs";
}

} // namespace

void put_job(const tables& t, write_batch& batch, const schema::job_record& job) {
  t.jobs.put(batch, job.id, job);
  t.jobs_by_team.put(batch, job.team_id + "/" + job.id, job.id);
  if (schema::is_terminal(job.status))
    t.live_jobs.erase(batch, job.id);
  else
    t.live_jobs.put(batch, job.id, job.id);
  if (job.status == schema::job_status::succeeded && job.outputs_expire_at)
    t.expiries.put(batch, expiry_key(*job.outputs_expire_at, expiry_kind::outputs, job.id), job.id);
}

void erase_job(const tables& t, write_batch& batch, const schema::job_record& job) {
  t.jobs.erase(batch, job.id);
  t.jobs_by_team.erase(batch, job.team_id + "/" + job.id);
  t.live_jobs.erase(batch, job.id);
  if (job.outputs_expire_at)
    t.expiries.erase(batch, expiry_key(*job.outputs_expire_at, expiry_kind::outputs, job.id));
}

void remove_job_outputs(blob_store& blobs, const schema::job_record& job, std::size_t count,
                        std::string_view component) {
  for (std::size_t i = 0; i < count; ++i)
    if (auto st = blobs.remove(schema::output_blob_key(job, i)); !st.ok())
      core::log_warn(component, "deleting output " + std::to_string(i) + " of " + job.id + ": " + st.message);
}

std::string idempotency_key(std::string_view team_id, std::string_view route, std::string_view key) {
  std::string k;
  k.reserve(team_id.size() + route.size() + key.size() + 2);
  k.append(team_id).append("/").append(route).append("/").append(key);
  return k;
}

void put_idempotency(const tables& t, write_batch& batch, const schema::idempotency_record& r) {
  auto key = idempotency_key(r.team_id, r.route, r.key);
  t.expiries.put(batch, expiry_key(r.expires_at, expiry_kind::idempotency, key), key);
  t.idempotency.put(batch, std::move(key), r);
}

std::string expiry_key(core::time_point deadline, expiry_kind kind, std::string_view subject) {
  auto ms = core::to_unix_ms(deadline);
  char digits[24];
  std::snprintf(digits, sizeof digits, "%016lld", static_cast<long long>(ms < 0 ? 0 : ms));
  std::string k{digits};
  k.append("/").append(kind_name(kind)).append("/").append(subject);
  return k;
}

bool parse_expiry_key(std::string_view key, expiry_entry& out) {
  if (key.size() < 18 || key[16] != '/')
    return false;
  int64_t ms = 0;
  auto [end, ec] = std::from_chars(key.data(), key.data() + 16, ms);
  if (ec != std::errc{} || end != key.data() + 16)
    return false;
  auto rest = key.substr(17);
  auto slash = rest.find('/');
  if (slash == std::string_view::npos || slash + 1 >= rest.size())
    return false;
  auto kind = rest.substr(0, slash);
  auto named = std::find_if(kind_names.begin(), kind_names.end(), [&](auto& n) { return n.second == kind; });
  if (named == kind_names.end())
    return false;
  out.kind = named->first;
  out.deadline_ms = ms;
  out.subject = std::string{rest.substr(slash + 1)};
  return true;
}

} // namespace svc::persistence
