#include "cluster/forwarding_table.hpp"

#include <boost/asio/post.hpp>

namespace svc::cluster {
namespace {

caf::error owner_unavailable() { return actors::make_domain_error(schema::error_code::owner_unavailable); }

} // namespace

forwarding_table::forwarding_table(boost::asio::io_context& io, clock::duration timeout, std::size_t max_in_flight)
  : io_{io}, timeout_{timeout}, max_in_flight_{max_in_flight} {}

void forwarding_table::set_own_entry(actors::node_actor entry) {
  std::lock_guard lock{mutex_};
  own_entry_ = std::move(entry);
}

void forwarding_table::set_route(const std::string& peer_id, actors::node_actor handle) {
  std::lock_guard lock{mutex_};
  auto& r = routes_[peer_id];
  if (r.handle == handle)
    return;
  fail_all_to(peer_id);
  r.handle = std::move(handle);
}

void forwarding_table::forget(const std::string& peer_id) {
  std::lock_guard lock{mutex_};
  fail_all_to(peer_id);
  routes_.erase(peer_id);
}

void forwarding_table::forward(const std::string& peer_id, actors::forwarded_request req, on_answer answer,
                               on_error error) {
  std::unique_lock lock{mutex_};
  auto it = routes_.find(peer_id);
  if (closed_ || it == routes_.end() || !it->second.handle || !own_entry_
      || it->second.in_flight >= max_in_flight_) {
    if (it != routes_.end())
      ++it->second.failed;
    lock.unlock();
    return fail_later(std::move(error));
  }
  auto& r = it->second;
  ++r.in_flight;
  ++r.forwarded;
  auto ticket = ++next_ticket_;
  waiting_.emplace(ticket,
                   waiting{peer_id, r.handle.address(), clock::now() + timeout_, std::move(answer), std::move(error)});
  r.outbox.push_back({ticket, std::move(req)});
  if (r.outbox.size() > 1)
    return; // a send is pending and takes this one along
  lock.unlock();
  // After the handlers queued before it, which may forward more.
  boost::asio::post(io_, [self = shared_from_this(), peer_id] { self->send_outbox(peer_id); });
}

void forwarding_table::send_outbox(const std::string& peer_id) {
  std::unique_lock lock{mutex_};
  auto it = routes_.find(peer_id);
  if (closed_ || it == routes_.end() || it->second.outbox.empty())
    return;
  actors::forwarded_calls calls;
  calls.calls.swap(it->second.outbox);
  auto to = it->second.handle;
  auto as = own_entry_;
  lock.unlock();
  // Sent from this thread: the message goes to the peer's proxy and from it
  // to CAF's network thread, with no actor of ours in between.
  caf::send_as(as, to, actors::forward_atom::value, std::move(calls));
}

void forwarding_table::answer(const caf::actor_addr& from, actors::forwarded_answers answers) {
  std::vector<std::pair<on_answer, actors::forwarded_response>> ready;
  ready.reserve(answers.answers.size());
  {
    std::lock_guard lock{mutex_};
    for (auto& a : answers.answers) {
      auto it = waiting_.find(a.ticket);
      // Another peer cannot settle a request it was not sent.
      if (closed_ || it == waiting_.end() || it->second.to != from)
        continue;
      if (auto r = routes_.find(it->second.peer_id); r != routes_.end())
        --r->second.in_flight;
      ready.emplace_back(std::move(it->second.answer), std::move(a.response));
      waiting_.erase(it);
    }
  }
  if (ready.empty())
    return;
  // One post for all: each post may wake an asio thread.
  boost::asio::post(io_, [ready = std::move(ready)]() mutable {
    for (auto& [resume, response] : ready)
      resume(response);
  });
}

std::size_t forwarding_table::expire(clock::time_point now) {
  std::lock_guard lock{mutex_};
  std::size_t expired = 0;
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (it->second.deadline >= now) {
      ++it;
      continue;
    }
    if (auto r = routes_.find(it->second.peer_id); r != routes_.end()) {
      --r->second.in_flight;
      ++r->second.failed;
    }
    fail_later(std::move(it->second.error));
    it = waiting_.erase(it);
    ++expired;
  }
  return expired;
}

forwarding_table::peer_counts forwarding_table::counts(const std::string& peer_id) const {
  std::lock_guard lock{mutex_};
  auto it = routes_.find(peer_id);
  if (it == routes_.end())
    return {};
  return {it->second.in_flight, it->second.forwarded, it->second.failed};
}

void forwarding_table::close() {
  std::lock_guard lock{mutex_};
  closed_ = true;
  waiting_.clear();
  routes_.clear();
  own_entry_ = nullptr;
}

void forwarding_table::fail_later(on_error error) {
  boost::asio::post(io_, [error = std::move(error)] { error(owner_unavailable()); });
}

void forwarding_table::fail_all_to(const std::string& peer_id) {
  auto r = routes_.find(peer_id);
  if (r != routes_.end())
    r->second.outbox.clear();
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    if (it->second.peer_id != peer_id) {
      ++it;
      continue;
    }
    if (r != routes_.end()) {
      --r->second.in_flight;
      ++r->second.failed;
    }
    fail_later(std::move(it->second.error));
    it = waiting_.erase(it);
  }
}

} // namespace svc::cluster
