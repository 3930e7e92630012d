#pragma once
// Asking an actor from a request handler without blocking an asio thread: a
// short-lived actor makes the request and hands the answer (or the error, as
// a catalogue error response) back to asio.

#include <functional>
#include <tuple>
#include <utility>

#include <boost/asio/post.hpp>

#include "http/respond.hpp"

namespace svc::http {

/// Sends `args...` to `target`; `on_result` runs on an asio thread with the answer.
/// Errors and timeouts (`request_deadline`) answer the request directly.
template <class Result, class Handle, class... Args>
void ask(const context_ptr& ctx, const Handle& target, std::function<void(Result&)> on_result, Args... args) {
  auto deadline = ctx->svc.cfg.request_deadline;
  ctx->svc.system.spawn([ctx, target, on_result = std::move(on_result), deadline,
                         msg = std::make_tuple(std::move(args)...)](caf::event_based_actor* self) mutable {
    auto req = std::apply([&](auto&... xs) { return self->request(target, deadline, std::move(xs)...); }, msg);
    std::move(req).then(
      [ctx, on_result](Result& r) {
        boost::asio::post(ctx->svc.io, [ctx, on_result, r = std::move(r)]() mutable { on_result(r); });
      },
      [ctx](caf::error& err) { boost::asio::post(ctx->svc.io, [ctx, err] { reply_actor_error(ctx, err); }); });
  });
}

} // namespace svc::http
