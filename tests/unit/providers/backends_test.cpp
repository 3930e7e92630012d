#include "providers/backends.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>

BOOST_AUTO_TEST_SUITE(providers_backends)

using namespace svc::providers;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_CASE(procedural_is_the_default_back_end) {
  svc::core::config cfg;
  std::string error;
  const auto backend = make_backend(cfg, error);
  BOOST_REQUIRE(backend);
  BOOST_TEST(backend->name() == "procedural");
  BOOST_TEST(error.empty());
}

BOOST_AUTO_TEST_CASE(render_delay_reaches_the_back_end) {
  svc::core::config cfg;
  cfg.render_delay = 150ms;
  std::string error;
  const auto backend = make_backend(cfg, error);
  BOOST_REQUIRE(backend);
  render_request req;
  req.prompt = "hills";
  req.width = req.height = 64;
  const auto start = std::chrono::steady_clock::now();
  BOOST_REQUIRE(backend->render(req, {}, cancel_token{}).ok());
  BOOST_TEST((std::chrono::steady_clock::now() - start >= 150ms));
}

BOOST_AUTO_TEST_CASE(an_unknown_provider_is_an_error_naming_it) {
  svc::core::config cfg;
  cfg.provider = "dream-machine";
  std::string error;
  BOOST_TEST(!make_backend(cfg, error));
  BOOST_TEST(error.find("dream-machine") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(remote_needs_a_valid_http_url) {
  svc::core::config cfg;
  cfg.provider = "remote";
  for (std::string url : {"", "gpu:7860", "https://gpu:7860", "http://gpu:99999", "http://gpu:7860/?x"}) {
    cfg.remote_url = url;
    std::string error;
    BOOST_TEST(!make_backend(cfg, error), url);
    BOOST_TEST(error.find("--remote-url") != std::string::npos, error);
  }
  cfg.remote_url = "http://127.0.0.1:7860/sd";
  std::string error;
  const auto backend = make_backend(cfg, error);
  BOOST_REQUIRE_MESSAGE(backend, error);
  BOOST_TEST(backend->name() == "remote");
}

BOOST_AUTO_TEST_CASE(remote_durations_must_be_positive) {
  svc::core::config cfg;
  cfg.provider = "remote";
  cfg.remote_url = "http://127.0.0.1:7860";
  cfg.remote_poll = 0ms;
  std::string error;
  BOOST_TEST(!make_backend(cfg, error));
  BOOST_TEST(error.find("--remote-poll") != std::string::npos, error);
}

BOOST_AUTO_TEST_CASE(workers_sets_the_pool_size) {
  svc::core::config cfg;
  cfg.workers = 3;
  BOOST_TEST(make_worker_pool(cfg.workers)->threads() == 3u);
  cfg.workers = 0;
  BOOST_TEST(make_worker_pool(cfg.workers)->threads() >= 1u);
}

BOOST_AUTO_TEST_SUITE_END()
