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

/// Sends `args...` to `target` with a `timeout`; `on_result` or `on_error`
/// (a timeout is `caf::sec::request_timeout`) runs on an asio thread. Returns
/// the asking actor: an exit sent to it abandons the request (a drain does).
// The asking actor gets what it needs as a spawn argument, never only as
// captures: CAF 0.17 binds a reference to null (undefined behaviour, which
// UBSan reports) when it spawns a function-based actor without arguments.
template <class Result, class Handle, class... Args>
caf::actor ask_within(const context_ptr& ctx, const Handle& target, caf::duration timeout,
                      std::function<void(Result&)> on_result, std::function<void(const caf::error&)> on_error,
                      Args... args) {
  return ctx->svc.system.spawn(
    [target, timeout, on_result = std::move(on_result), on_error = std::move(on_error),
     msg = std::make_tuple(std::move(args)...)](caf::event_based_actor* self, context_ptr ctx) mutable {
      auto req = std::apply([&](auto&... xs) { return self->request(target, timeout, std::move(xs)...); }, msg);
      std::move(req).then(
        [ctx, on_result](Result& r) {
          boost::asio::post(ctx->svc.io, [ctx, on_result, r = std::move(r)]() mutable { on_result(r); });
        },
        [ctx, on_error](caf::error& err) { boost::asio::post(ctx->svc.io, [on_error, err] { on_error(err); }); });
    },
    ctx);
}

/// Sends `args...` to `target`; `on_result` runs on an asio thread with the answer.
/// Errors and timeouts (`request_deadline`) answer the request directly.
template <class Result, class Handle, class... Args>
void ask(const context_ptr& ctx, const Handle& target, std::function<void(Result&)> on_result, Args... args) {
  ask_within<Result>(
    ctx, target, caf::duration{ctx->svc.cfg.request_deadline}, std::move(on_result),
    [ctx](const caf::error& err) { reply_actor_error(ctx, err); }, std::move(args)...);
}

} // namespace svc::http
