#include "bench/load/read_scenario.hpp"

#include "bench/load/blocking_client.hpp"
#include "bench/load/format.hpp"
#include "bench/load/json_member.hpp"
#include "bench/load/key_pacers.hpp"

namespace svc::bench {
namespace {

enum read_kind : std::size_t { image_read, team_read };

class read_source : public load_source {
public:
  read_source(const target& server, const std::vector<std::string>& keys, const std::vector<read_job>& jobs,
              const operation_mix& mix, bool paced)
    : mix_(mix), pacers_(keys.size(), paced) {
    for (auto& key : keys)
      team_requests_.push_back(get_request("/v1/team", server, key));
    for (auto& j : jobs)
      image_requests_.push_back({j.key, get_image_request(server, keys[j.key], j.id, 0)});
  }

  planned_request next(std::size_t, steady::time_point now) override {
    planned_request p;
    p.kind = mix_.next();
    const std::string* request = nullptr;
    if (p.kind == image_read) {
      auto& [key, req] = image_requests_[next_image_++ % image_requests_.size()];
      p.key = key;
      request = &req;
    } else {
      p.key = next_key_++ % team_requests_.size();
      request = &team_requests_[p.key];
    }
    p.not_before = pacers_.claim(p.key, now);
    if (p.not_before <= now)
      p.request = *request;
    return p;
  }

  bool judge(const planned_request& p, const exchange& x) override {
    pacers_.observe(p.key, x);
    return !x.error && x.response.result_int() == 200;
  }

private:
  operation_mix mix_;
  std::vector<std::string> team_requests_;                         ///< by key
  std::vector<std::pair<std::size_t, std::string>> image_requests_; ///< (key, GET) by job
  key_pacers pacers_;                                               ///< by key: `reads`
  std::size_t next_image_ = 0, next_key_ = 0;
};

} // namespace

const std::vector<std::string>& read_operations() {
  static const std::vector<std::string> names{"image", "team"};
  return names;
}

std::vector<read_job> create_read_jobs(const target& server, const std::vector<std::string>& keys,
                                       const image_spec& image, std::size_t per_key, std::string& error) {
  blocking_client api(server);
  std::vector<read_job> jobs;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const auto request = create_image_request(server, keys[k], image);
    for (std::size_t i = 0; i < per_key; ++i) {
      auto x = api.call_retrying(request);
      const auto status = x.error ? 0U : x.response.result_int();
      auto id = status == 201 ? json_string_member(x.response.body(), "id") : std::nullopt;
      if (!id) {
        error = format("POST /v1/images answered %u: %s", status,
                       x.error ? x.error.message().c_str() : x.response.body().substr(0, 300).c_str());
        return {};
      }
      jobs.push_back({k, std::move(*id)});
    }
  }
  return jobs;
}

std::unique_ptr<load_source> make_read_source(const target& server, const std::vector<std::string>& keys,
                                              const std::vector<read_job>& jobs, const operation_mix& mix,
                                              bool paced) {
  return std::make_unique<read_source>(server, keys, jobs, mix, paced);
}

} // namespace svc::bench
