#include "bench/load/blocking_client.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace svc::bench {

// A setup answer comes well within svcd's request deadline (10 s by default).
constexpr auto setup_timeout = std::chrono::seconds{30};

blocking_client::blocking_client(const target& server)
  : connection_(std::make_shared<http_connection>(io_, server.endpoint, setup_timeout)) {}

exchange blocking_client::call(std::string request) {
  exchange out;
  connection_->send(std::move(request), [&out](exchange& x) { out = std::move(x); });
  io_.restart();
  io_.run();
  return out;
}

exchange blocking_client::call_retrying(const std::string& request, int attempts) {
  for (int attempt = 1;; ++attempt) {
    auto x = call(request);
    if (x.error || x.response.result_int() != 429 || attempt >= attempts)
      return x;
    const auto wait = std::atoi(std::string(x.response[http::field::retry_after]).c_str());
    std::this_thread::sleep_for(std::chrono::seconds{std::max(1, wait)});
  }
}

} // namespace svc::bench
