#include "providers/backends.hpp"

#define BOOST_TEST_MODULE providers_backends
#include <boost/test/unit_test.hpp>

#include <chrono>

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

BOOST_AUTO_TEST_CASE(workers_sets_the_pool_size) {
  svc::core::config cfg;
  cfg.workers = 3;
  BOOST_TEST(make_worker_pool(cfg)->threads() == 3u);
  cfg.workers = 0;
  BOOST_TEST(make_worker_pool(cfg)->threads() >= 1u);
}
