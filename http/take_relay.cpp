#include "http/take_relay.hpp"

#include "http/parked_continuations.hpp"

namespace svc::http {

class take_relay::waiting : public parked_continuations<actors::rate_decision> {
public:
  using parked_continuations::parked_continuations;
};

namespace {

// Asks `target` for a take and settles `ticket` with what it answers.
template <class Handle, class Key>
void relay_take(take_relay_actor::pointer self, const std::shared_ptr<take_relay::waiting>& waiting,
                caf::duration timeout, const Handle& target, Key key, uint64_t ticket) {
  self->request(target, timeout, actors::take_atom::value, std::move(key))
    .then([waiting, ticket](actors::rate_decision& d) { waiting->answer(ticket, std::move(d)); },
          [waiting, ticket](caf::error& err) { waiting->fail(ticket, std::move(err)); });
}

take_relay_actor::behavior_type relay(take_relay_actor::pointer self, std::shared_ptr<take_relay::waiting> waiting,
                                      caf::duration timeout) {
  return {
    [=](actors::take_atom, const actors::bucket_actor& bucket, schema::bucket_class cls, uint64_t ticket) {
      relay_take(self, waiting, timeout, bucket, cls, ticket);
    },
    [=](actors::take_atom, const actors::anonymous_bucket_actor& buckets, std::string& address, uint64_t ticket) {
      relay_take(self, waiting, timeout, buckets, std::move(address), ticket);
    },
  };
}

} // namespace

take_relay::take_relay(caf::actor_system& system, boost::asio::io_context& io, caf::duration timeout)
  : waiting_{std::make_shared<waiting>(io)}, relay_{system.spawn(relay, waiting_, timeout)} {}

take_relay::~take_relay() {
  waiting_->close();
  caf::anon_send_exit(relay_, caf::exit_reason::user_shutdown);
}

void take_relay::take(const actors::bucket_actor& bucket, schema::bucket_class cls, on_verdict verdict,
                      on_error error) {
  auto ticket = waiting_->park(std::move(verdict), std::move(error));
  caf::anon_send(relay_, actors::take_atom::value, bucket, cls, ticket);
}

void take_relay::take(const actors::anonymous_bucket_actor& buckets, std::string address, on_verdict verdict,
                      on_error error) {
  auto ticket = waiting_->park(std::move(verdict), std::move(error));
  caf::anon_send(relay_, actors::take_atom::value, buckets, std::move(address), ticket);
}

} // namespace svc::http
