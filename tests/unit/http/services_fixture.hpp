#pragma once
// What handlers and pipeline stages run against, without a socket: real
// services over an idle runtime and an empty store in a temporary directory,
// the test's clock, and request contexts whose answers the test collects.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>

#include "actors/runtime.hpp"
#include "http/request_context.hpp"
#include "http/stages/stages.hpp"
#include "tests/support/temp_dir.hpp"

namespace svc::http::testing {

struct services_fixture {
  test::temp_dir dir;
  core::config cfg;
  std::shared_ptr<core::offset_clock> clock = std::make_shared<core::offset_clock>();
  std::unique_ptr<persistence::environment> env;
  caf::actor_system_config caf_cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::unique_ptr<actors::runtime> rt;
  boost::asio::io_context ioc;
  std::unique_ptr<services> svc;
  /// The answers given so far, in order.
  std::shared_ptr<std::vector<outgoing_response>> answers = std::make_shared<std::vector<outgoing_response>>();

  services_fixture() {
    cfg.data_dir = dir.path;
    std::string error;
    env = persistence::environment::open(dir.path, error, 64u << 20);
    BOOST_REQUIRE_MESSAGE(env, error);
    actors::configure_actor_system(caf_cfg, cfg);
    sys = std::make_unique<caf::actor_system>(caf_cfg);
    rt = actors::runtime::start(*sys, cfg, clock, *env, {}, error);
    BOOST_REQUIRE_MESSAGE(rt, error);
    svc = std::make_unique<services>(*sys, cfg, clock, *env, *rt, ioc, "http://svc.test", "admin-token-0123");
  }
  ~services_fixture() {
    svc.reset(); // its actor handles first, as svcd drops them before the runtime stops
    rt->stop();
  }

  /// A context for `method target` with `fields` and `body`, whose answer goes to `answers`.
  context_ptr request(boost::beast::http::verb method, std::string target,
                      std::vector<std::pair<std::string, std::string>> fields = {}, std::string body = {}) {
    http_request req{method, target, 11};
    for (auto& [name, value] : fields)
      req.set(name, value);
    req.body() = std::move(body);
    req.prepare_payload();
    return std::make_shared<request_context>(*svc, listener_kind::api, std::move(req), peer_info{},
                                             [out = answers](outgoing_response r) { out->push_back(std::move(r)); });
  }

  /// Runs the handlers asio has until `n` answers are in, for at most 10 s.
  bool answered(std::size_t n = 1) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{10};
    while (answers->size() < n && std::chrono::steady_clock::now() < deadline) {
      ioc.restart();
      ioc.run_for(std::chrono::milliseconds{20});
    }
    return answers->size() >= n;
  }

  /// `team_id`'s request `method target`, split and given an id as the first
  /// stage does; `id` is the path's `{id}` when not empty.
  context_ptr team_request(const std::string& team_id, boost::beast::http::verb method, std::string target,
                           std::string body = {}, const std::string& id = {},
                           std::vector<std::pair<std::string, std::string>> fields = {}) {
    fields.emplace_back("Content-Type", "application/json");
    auto ctx = request(method, std::move(target), std::move(fields), std::move(body));
    assign_request_id(*ctx);
    if (!team_id.empty()) {
      auto team = std::make_shared<schema::team_record>();
      team->id = team_id;
      ctx->team = std::move(team);
    }
    if (!id.empty())
      ctx->match.params = {{"id", id}};
    return ctx;
  }

  /// Answer `i`: its head, an empty line, its body.
  std::string answer(std::size_t i = 0) const { return answers->at(i).head + "\r\n" + answers->at(i).body; }
  /// Whether answer `i` has `status`.
  bool status_is(unsigned status, std::size_t i = 0) const {
    return answers->at(i).head.rfind("HTTP/1.1 " + std::to_string(status) + " ", 0) == 0;
  }
  /// Answer `i`'s body, a JSON object.
  boost::json::object body_of(std::size_t i = 0) const { return boost::json::parse(answers->at(i).body).as_object(); }
};

} // namespace svc::http::testing
