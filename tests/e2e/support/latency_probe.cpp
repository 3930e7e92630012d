#include "support/latency_probe.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "support/http_client.hpp"

namespace svc::e2e {
namespace {

using steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A read slower than this is recorded as a failure rather than waited out.
constexpr milliseconds read_timeout{30000};

} // namespace

std::ostream& operator<<(std::ostream& os, const read_figures& f) {
  os << "reads=" << f.reads << " failures=" << f.failures << " median=" << f.median.count()
     << "ms slowest=" << f.slowest.count() << "ms";
  if (!f.slowest_target.empty())
    os << " (" << f.slowest_target << ")";
  if (!f.first_failure.empty())
    os << " first failure: " << f.first_failure;
  return os;
}

struct latency_probe::impl {
  impl(std::string base_url, std::string key, std::vector<std::string> targets, milliseconds pause)
      : client(std::move(base_url)), key(std::move(key)), targets(std::move(targets)), pause(pause) {
    client.set_timeout(read_timeout);
  }

  void run() {
    for (std::size_t i = 0; !stopping; ++i) {
      const auto& target = targets[i % targets.size()];
      auto started = steady::now();
      std::string failure;
      try {
        auto r = client.get(target, with_key(key));
        if (r.status != 200)
          failure = r.summary();
      } catch (const std::exception& e) {
        failure = e.what();
      }
      auto took = std::chrono::duration_cast<milliseconds>(steady::now() - started);
      {
        std::lock_guard lock(mutex);
        times.push_back(took);
        if (took >= figures.slowest) {
          figures.slowest = took;
          figures.slowest_target = target;
        }
        if (failure.empty()) {
          ++figures.reads;
        } else {
          ++figures.failures;
          if (figures.first_failure.empty())
            figures.first_failure = target + ": " + failure.substr(0, 200);
        }
      }
      std::this_thread::sleep_for(pause);
    }
  }

  http_client client;
  std::string key;
  std::vector<std::string> targets;
  milliseconds pause;
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::vector<milliseconds> times;
  read_figures figures;
  std::thread thread;
};

latency_probe::latency_probe(std::string base_url, std::string key, std::vector<std::string> targets,
                             milliseconds pause)
    : impl_(std::make_unique<impl>(std::move(base_url), std::move(key), std::move(targets), pause)) {
  impl_->thread = std::thread([i = impl_.get()] { i->run(); });
}

latency_probe::~latency_probe() { stop(); }

read_figures latency_probe::stop() {
  impl_->stopping = true;
  if (impl_->thread.joinable())
    impl_->thread.join();
  std::lock_guard lock(impl_->mutex);
  auto f = impl_->figures;
  auto times = impl_->times;
  if (!times.empty()) {
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    f.median = times[times.size() / 2];
  }
  return f;
}

} // namespace svc::e2e
