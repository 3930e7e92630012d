#include "bench/load/mixed_scenario.hpp"

#include <boost/json.hpp>

#include <deque>
#include <stdexcept>

#include "bench/load/key_pacers.hpp"
#include "bench/load/json_member.hpp"
#include "providers/png_writer.hpp"

namespace svc::bench {
namespace {

enum mixed_kind : std::size_t { create_op, poll_op, download_op, upload_op };

// Jobs waiting for their next poll: beyond this the oldest are forgotten, so
// a queue that grows faster than svcd renders does not grow svc-bench.
constexpr std::size_t max_jobs = 4096;
// Output URLs kept for downloads (the newest replace the oldest).
constexpr std::size_t max_outputs = 256;

// The path and query of an output URL (svcd signs them with its own base URL;
// the download goes to the target whatever host that names).
std::string path_of(const std::string& url) {
  const auto scheme = url.find("://");
  const auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? std::string{} : url.substr(slash);
}

// A poll's answer: the job's status and, on success, its first output's path.
struct polled_job {
  std::string status;
  std::string output;
};

polled_job read_polled(const std::string& body) {
  polled_job out;
  boost::system::error_code ec;
  auto v = boost::json::parse(body, ec);
  if (ec || !v.is_object())
    return out;
  const auto& o = v.as_object();
  if (const auto* status = o.if_contains("status"); status && status->is_string())
    out.status = std::string{status->as_string()};
  const auto* urls = o.if_contains("output_urls");
  if (urls && urls->is_array() && !urls->as_array().empty() && urls->as_array()[0].is_string())
    out.output = path_of(std::string{urls->as_array()[0].as_string()});
  return out;
}

struct created_job {
  std::size_t key;
  std::string id;
};

class mixed_source : public load_source {
public:
  mixed_source(const target& server, const std::vector<std::string>& keys, const image_spec& image,
               const std::string& upload_png, const operation_mix& mix, bool paced)
    : server_(server), keys_(keys), mix_(mix), images_post_(keys.size(), paced), reads_(keys.size(), paced),
      files_post_(keys.size(), paced), anonymous_(1, true) {
    for (auto& key : keys) {
      create_requests_.push_back(create_image_request(server, key, image));
      upload_requests_.push_back(upload_file_request(server, key, upload_png));
    }
  }

  planned_request next(std::size_t, steady::time_point now) override {
    planned_request p;
    p.kind = mix_.next();
    if (p.kind == download_op && (outputs_.empty() || anonymous_.claim(0, now) > now))
      p.kind = poll_op;
    if (p.kind == poll_op && jobs_.empty())
      p.kind = create_op;
    switch (p.kind) {
    case create_op:
      p.key = next_key_++ % keys_.size();
      if ((p.not_before = images_post_.claim(p.key, now)) <= now)
        p.request = create_requests_[p.key];
      break;
    case poll_op:
      p.key = jobs_.front().key;
      if ((p.not_before = reads_.claim(p.key, now)) <= now) {
        p.subject = std::move(jobs_.front().id);
        jobs_.pop_front();
        p.request = get_image_request(server_, keys_[p.key], p.subject, 0);
      }
      break;
    case download_op:
      p.subject = outputs_[next_output_++ % outputs_.size()];
      p.request = get_request(p.subject, server_, "");
      break;
    default:
      p.key = next_key_++ % keys_.size();
      if ((p.not_before = files_post_.claim(p.key, now)) <= now)
        p.request = upload_requests_[p.key];
    }
    return p;
  }

  bool judge(const planned_request& p, const exchange& x) override {
    const auto status = x.error ? 0U : x.response.result_int();
    switch (p.kind) {
    case create_op:
      images_post_.observe(p.key, x);
      if (status != 201)
        return false;
      if (auto id = json_string_member(x.response.body(), "id"))
        keep_job({p.key, std::move(*id)});
      return true;
    case poll_op:
      reads_.observe(p.key, x);
      return on_polled(p, x, status);
    case download_op:
      anonymous_.observe(0, x);
      return status == 200;
    default:
      files_post_.observe(p.key, x);
      return status == 201;
    }
  }

private:
  bool on_polled(const planned_request& p, const exchange& x, unsigned status) {
    if (status != 200) {
      if (status != 404) // a refusal or a failure now: the job is polled again later
        keep_job({p.key, p.subject});
      return false;
    }
    auto polled = read_polled(x.response.body());
    if (!is_terminal_status(polled.status))
      keep_job({p.key, p.subject});
    else if (!polled.output.empty())
      keep_output(std::move(polled.output));
    return true;
  }

  void keep_job(created_job j) {
    if (jobs_.size() >= max_jobs)
      jobs_.pop_front();
    jobs_.push_back(std::move(j));
  }

  void keep_output(std::string path) {
    if (outputs_.size() < max_outputs)
      outputs_.push_back(std::move(path));
    else
      outputs_[next_kept_output_++ % max_outputs] = std::move(path);
  }

  const target& server_;
  const std::vector<std::string>& keys_;
  operation_mix mix_;
  std::vector<std::string> create_requests_, upload_requests_; ///< by key
  key_pacers images_post_, reads_, files_post_;                ///< by key
  key_pacers anonymous_;                                       ///< output URLs: one bucket per client address
  std::deque<created_job> jobs_;                                       ///< created, not seen terminal, not in flight
  std::vector<std::string> outputs_;                           ///< paths of output URLs
  std::size_t next_key_ = 0, next_output_ = 0, next_kept_output_ = 0;
};

} // namespace

const std::vector<std::string>& mixed_operations() {
  static const std::vector<std::string> names{"create", "poll", "download", "upload"};
  return names;
}

std::string make_upload_png(int side) {
  providers::image img(side, side);
  const auto s = static_cast<float>(side);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      img.at(x, y) = {static_cast<float>(x) / s, static_cast<float>(y) / s,
                      static_cast<float>((x * 7 + y * 13) % 32) / 32};
  std::string png, error;
  if (!providers::encode_png(img, {}, png, error))
    throw std::runtime_error("cannot make the upload PNG: " + error);
  return png;
}

std::unique_ptr<load_source> make_mixed_source(const target& server, const std::vector<std::string>& keys,
                                               const image_spec& image, const std::string& upload_png,
                                               const operation_mix& mix, bool paced) {
  return std::make_unique<mixed_source>(server, keys, image, upload_png, mix, paced);
}

} // namespace svc::bench
