#pragma once
// A webhook transport for endpoint tests: it records every post (URL, headers,
// body) with its `done` callback and sends nothing; the test answers a post
// when it chooses. Under the testing scheduler the endpoint actors post on the
// test thread, and the test answers there too, so no lock is needed.

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "actors/webhook_transport.hpp"

namespace svc::test {

class scripted_transport final : public actors::webhook_transport {
public:
  /// One recorded post and whether the test answered it.
  struct call {
    actors::webhook_post post;
    std::function<void(actors::webhook_answer)> done;
    bool answered = false;

    /// The value of the header `name` (exact spelling); empty when absent.
    std::string header(std::string_view name) const {
      for (auto& [k, v] : post.headers)
        if (k == name)
          return v;
      return {};
    }
    /// How often the header `name` occurs.
    std::size_t header_count(std::string_view name) const {
      std::size_t n = 0;
      for (auto& h : post.headers)
        n += h.first == name ? 1 : 0;
      return n;
    }
  };

  void post(actors::webhook_post request, std::function<void(actors::webhook_answer)> done) override {
    calls_.push_back({std::move(request), std::move(done), false});
  }

  /// Every post so far, in the order made.
  const std::vector<call>& calls() const { return calls_; }
  /// Post `i`.
  const call& at(std::size_t i) const { return calls_.at(i); }
  /// Posts made so far.
  std::size_t size() const { return calls_.size(); }

  /// Posts not answered yet (in flight at the receiver).
  std::size_t unanswered() const {
    std::size_t n = 0;
    for (auto& c : calls_)
      n += c.answered ? 0 : 1;
    return n;
  }

  /// The index of the oldest unanswered post, if any.
  std::optional<std::size_t> first_unanswered() const {
    for (std::size_t i = 0; i < calls_.size(); ++i)
      if (!calls_[i].answered)
        return i;
    return std::nullopt;
  }

  /// Calls post `i`'s `done` with `a` (once); the caller then runs the actors.
  void answer(std::size_t i, actors::webhook_answer a) {
    auto& c = calls_.at(i);
    if (c.answered)
      throw std::logic_error("post answered twice");
    c.answered = true;
    c.done(std::move(a));
  }

private:
  std::vector<call> calls_;
};

/// A receiver's 2xx.
inline actors::webhook_answer ok_answer(int status = 200,
                                        std::chrono::milliseconds took = std::chrono::milliseconds{42}) {
  actors::webhook_answer a;
  a.status = status;
  a.body = "ok";
  a.duration = took;
  return a;
}

/// A failed attempt: an error class, the status if the receiver answered, and its body.
inline actors::webhook_answer failed_answer(schema::delivery_error error, std::optional<int> status = std::nullopt,
                                            std::string body = {}, std::string detail = "it failed") {
  actors::webhook_answer a;
  a.status = status;
  a.error = error;
  a.detail = std::move(detail);
  a.body = std::move(body);
  a.duration = std::chrono::milliseconds{7};
  return a;
}

/// A receiver that answers 500.
inline actors::webhook_answer server_error(std::string body = "boom") {
  return failed_answer(schema::delivery_error::http_5xx, 500, std::move(body), "the receiver answered 500");
}

} // namespace svc::test
