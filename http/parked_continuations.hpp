#pragma once
// Continuations of the HTTP side that wait for an actor's answer: parked
// under a ticket that travels in the actor messages (so no std::function is
// ever inside a message, and every message stays serialisable), resumed on
// an asio thread with the answer or the error, at most once.

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <caf/error.hpp>

namespace svc::http {

template <class Answer>
class parked_continuations {
public:
  using on_answer = std::function<void(Answer&)>;
  using on_error = std::function<void(const caf::error&)>;

  explicit parked_continuations(boost::asio::io_context& io) : io_{io} {}

  /// Parks a continuation; the ticket settles it.
  uint64_t park(on_answer answer, on_error error) {
    std::lock_guard lock{mutex_};
    auto ticket = next_++;
    parked_.emplace(ticket, entry{std::move(answer), std::move(error)});
    return ticket;
  }

  /// Resumes `ticket` with its answer; nothing if it was settled already.
  void answer(uint64_t ticket, Answer a) {
    if (auto e = unpark(ticket))
      boost::asio::post(io_, [answer = std::move(e->answer), a = std::move(a)]() mutable { answer(a); });
  }

  /// Resumes `ticket` with a failure; nothing if it was settled already.
  void fail(uint64_t ticket, caf::error err) {
    if (auto e = unpark(ticket))
      boost::asio::post(io_, [error = std::move(e->error), err = std::move(err)] { error(err); });
  }

  /// After this, nothing is resumed: the asio side is going away.
  void close() {
    std::lock_guard lock{mutex_};
    closed_ = true;
    parked_.clear();
  }

private:
  struct entry {
    on_answer answer;
    on_error error;
  };

  std::optional<entry> unpark(uint64_t ticket) {
    std::lock_guard lock{mutex_};
    auto it = parked_.find(ticket);
    if (closed_ || it == parked_.end())
      return std::nullopt;
    auto e = std::move(it->second);
    parked_.erase(it);
    return e;
  }

  boost::asio::io_context& io_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, entry> parked_;
  uint64_t next_ = 0;
  bool closed_ = false;
};

} // namespace svc::http
