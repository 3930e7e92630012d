#include "apps/svcd/server.hpp"

#include <csignal>
#include <thread>

#include <boost/asio/signal_set.hpp>
#include <boost/json.hpp>
#include <unistd.h>

#include "actors/runtime.hpp"
#include "core/byte_size.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "persistence/data_dir.hpp"
#include "providers/backends.hpp"
#include "cluster/cluster_node.hpp"
#include "http/listener.hpp"
#include "clients/mail_senders.hpp"
#include "clients/webhook_client.hpp"
#include "http/pipeline.hpp"
#include "http/stages/stages.hpp"

namespace svc::svcd {
// The assembly wires every layer: http's listener, pipeline and stages, the
// outbound clients and the cluster node.
namespace beast = boost::beast;
namespace net = boost::asio;
using clients::make_mail_fallback;
using clients::make_mail_sender;
using clients::webhook_client;
using clients::webhook_client_options;
using cluster::cluster_config_error;
using cluster::cluster_node;
using cluster::cluster_table;
using cluster::configure_cluster_transport;
using http::admin_pipeline;
using http::api_pipeline;
using http::engine_callback_pipeline;
using http::exchange_handler;
using http::listener;
using http::response_budget;
using http::services;
using http::tcp;
using http::transport_limits;
namespace {

transport_limits limits_of(const core::config& cfg) {
  transport_limits l;
  l.header_limit = cfg.header_limit;
  l.body_limit = cfg.body_limit;
  l.read_timeout = cfg.read_timeout;
  l.body_rate_bytes = cfg.upload_min_bytes;
  l.body_rate_window = cfg.upload_rate_window;
  l.body_deadline = cfg.upload_deadline;
  l.pipeline_limit = cfg.pipeline_limit;
  l.response_queue_limit = cfg.queued_response_bytes;
  l.max_connections = cfg.max_connections;
  l.max_connections_per_address = cfg.max_connections_per_address;
  l.busy_idle_timeout = cfg.busy_idle_timeout;
  l.trusted_proxies = cfg.trusted_proxies;
  l.io_threads = cfg.http_threads;
  return l;
}

std::string url_of(const tcp::endpoint& ep) {
  auto host = ep.address().is_v6() ? "[" + ep.address().to_string() + "]" : ep.address().to_string();
  return "http://" + host + ":" + std::to_string(ep.port());
}

// Waits for the API's open connections to finish (at most until `deadline`),
// then stops asio; the admin listener serves (`/readyz` says 503) until then.
void stop_when_idle(net::io_context& ioc, std::shared_ptr<net::steady_timer> timer, std::shared_ptr<listener> api,
                    std::chrono::steady_clock::time_point deadline) {
  auto open = api->connections();
  if (open == 0 || std::chrono::steady_clock::now() >= deadline) {
    if (open > 0)
      core::log_warn("svcd", std::to_string(open) + " connections still open at the drain deadline");
    ioc.stop();
    return;
  }
  timer->expires_after(std::chrono::milliseconds{20});
  timer->async_wait([&ioc, timer, api, deadline](beast::error_code) { stop_when_idle(ioc, timer, api, deadline); });
}

// Where the store stands at start: its map (LMDB raises a map smaller than
// the data file to the file's size) and how much of it is used.
void log_store_room(const core::config& cfg, const persistence::environment& env) {
  auto use = env.usage();
  std::string line = "map " + core::human_bytes(use.map_bytes) + ", "
                     + std::to_string(static_cast<int>(use.ratio() * 100)) + "% used, "
                     + core::human_bytes(use.reserve_bytes) + " kept for deletes";
  if (use.map_bytes > cfg.map_size)
    line += " (--map-size is below the data file's size, so the file's size applies)";
  core::log_info("store", line);
}

} // namespace

int run_server(const core::config& cfg) {
  // A file size limit (ulimit -f) must fail writes (EFBIG, answered like a
  // full disk), not kill the process, as SIGXFSZ does by default.
  ::signal(SIGXFSZ, SIG_IGN);
  std::string error;
  bool clustered = !cfg.etcd.empty();
  if (clustered)
    if (auto why = cluster_config_error(cfg); !why.empty()) {
      core::log_error("svcd", why);
      return 1;
    }
  persistence::data_dir_lock lock{cfg.data_dir, error};
  if (!error.empty()) {
    core::log_error("svcd", error);
    return 1;
  }
  auto admin_token = persistence::ensure_admin_token(cfg.data_dir, error);
  auto url_secret = admin_token ? persistence::ensure_url_secret(cfg.data_dir, error) : std::nullopt;
  auto env = url_secret ? persistence::environment::open(cfg.data_dir, error, cfg.map_size) : nullptr;
  if (!env) {
    core::log_error("svcd", error);
    return 1;
  }
  log_store_room(cfg, *env);
  // Outlive the runtime: endpoint actors post through the client, the mailer sends through these.
  std::unique_ptr<webhook_client> webhooks;
  try {
    webhook_client_options options;
    options.ca_file = cfg.webhook_ca_file;
    options.allow_private = cfg.webhook_allow_private;
    options.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(cfg.delivery_timeout);
    webhooks = std::make_unique<webhook_client>(std::move(options));
  } catch (const std::exception& e) {
    core::log_error("svcd", std::string{"webhook client: "} + e.what());
    return 1;
  }
  auto mail = make_mail_sender(cfg, error);
  if (!mail) {
    core::log_error("svcd", error);
    return 1;
  }
  auto mail_fallback = make_mail_fallback(cfg);
  // Outlives the runtime: renders on the worker pool wait on it until the pool stops.
  core::callback_inbox engine_inbox{64, 2 * static_cast<std::size_t>(cfg.engine_callback_body_limit)};
  caf::actor_system_config caf_cfg;
  actors::configure_actor_system(caf_cfg, cfg);
  if (clustered)
    configure_cluster_transport(caf_cfg);
  // The teams this node holds: all of them, unless it is one node of a cluster.
  auto table = clustered ? std::make_unique<cluster_table>(cfg.node_id) : nullptr;
  caf::actor_system sys{caf_cfg};
  std::unique_ptr<actors::runtime> rt;
  int exit_code = 0;
  {
    // Declared after the actor system: destroyed first, releasing actor handles in queued handlers.
    net::io_context ioc{cfg.http_threads};
    // Bound before the runtime starts: events minted by recovered jobs need the base URL.
    std::vector<std::shared_ptr<listener>> listeners;
    auto budget = std::make_shared<response_budget>(cfg.queued_response_total);
    try {
      listeners.push_back(std::make_shared<listener>(ioc, cfg.listen, limits_of(cfg), budget));
      listeners.push_back(std::make_shared<listener>(ioc, cfg.admin_listen, limits_of(cfg), budget));
      listeners[0]->count_connections_in(core::metrics::svc().http_connections.with({"api"}));
      listeners[1]->count_connections_in(core::metrics::svc().http_connections.with({"admin"}));
      if (providers::engines_call_back(cfg)) {
        // Engines post whole outputs back (Cog's data: URIs): a body limit of its own.
        auto limits = limits_of(cfg);
        limits.body_limit = static_cast<std::size_t>(cfg.engine_callback_body_limit);
        listeners.push_back(std::make_shared<listener>(ioc, cfg.engine_callback_listen, limits, budget));
        listeners[2]->count_connections_in(core::metrics::svc().http_connections.with({"engine"}));
      }
    } catch (const std::exception& e) {
      core::log_error("svcd", e.what());
      return 1;
    }
    auto api_url = url_of(listeners[0]->local_endpoint());
    auto admin_url = url_of(listeners[1]->local_endpoint());
    auto base_url = cfg.base_url.empty() ? api_url : cfg.base_url;
    actors::runtime_links links;
    links.urls = {base_url, *url_secret};
    links.webhooks = webhooks.get();
    links.mail = mail.get();
    links.mail_fallback = mail_fallback.get();
    if (listeners.size() > 2) {
      // A container cannot post to 0.0.0.0: the address it reaches svcd at must be said.
      if (cfg.engine_callback_url.empty() && listeners[2]->local_endpoint().address().is_unspecified()) {
        core::log_error("svcd", "--engine-callback-listen binds every address; set --engine-callback-url to the "
                                "URL the Cog containers reach it at");
        return 1;
      }
      auto bound = url_of(listeners[2]->local_endpoint());
      links.engine_callbacks = {cfg.engine_callback_url.empty() ? bound : cfg.engine_callback_url, *url_secret,
                                &engine_inbox};
    }
    if (table)
      links.owns_team = [t = table.get()](const std::string& team_id) { return t->holds_team(team_id); };
    auto clock = cfg.clock_start ? core::make_clock_starting_at(*cfg.clock_start) : core::make_system_clock();
    rt = actors::runtime::start(sys, cfg, clock, *env, std::move(links), error);
    if (!rt) {
      core::log_error("svcd", error);
      return 1;
    }
    services svc{sys, cfg, clock, *env, *rt, ioc, base_url, *admin_token};
    svc.url_secret = *url_secret;
    svc.engine_callbacks = &engine_inbox;
    api_pipeline api{svc};
    admin_pipeline admin{svc};
    engine_callback_pipeline engine_calls{svc};
    std::unique_ptr<cluster_node> cluster;
    if (table) {
      cluster = cluster_node::start(cfg, svc, *rt, api, admin, base_url, admin_url, *table, error);
      if (!cluster) {
        core::log_error("svcd", error);
        return 1;
      }
    }
    listeners[0]->start(cluster ? cluster->api_front() : static_cast<exchange_handler&>(api));
    listeners[1]->start(cluster ? cluster->admin_front() : static_cast<exchange_handler&>(admin));
    if (listeners.size() > 2)
      listeners[2]->start(engine_calls);
    // Before svcd.json says we are up: whoever reads it may stop us at once, and
    // a SIGTERM with no handler yet would end the process undrained (status 143).
    net::signal_set signals{ioc, SIGTERM, SIGINT};
    auto drain_timer = std::make_shared<net::steady_timer>(ioc);
    signals.async_wait([&](beast::error_code ec, int signo) {
      if (ec)
        return;
      core::log_info("svcd", std::string{"signal "} + (signo == SIGTERM ? "SIGTERM" : "SIGINT") + ": draining");
      svc.draining = true;
      listeners[0]->drain();
      svc.waits.answer_all();
      stop_when_idle(ioc, drain_timer, listeners[0], std::chrono::steady_clock::now() + cfg.drain_timeout);
    });

    auto info = boost::json::serialize(
      boost::json::object{{"api_url", api_url}, {"admin_url", admin_url}, {"pid", static_cast<int64_t>(::getpid())}});
    if (!persistence::write_file_atomically(cfg.data_dir + "/svcd.json", info + "\n", 0644, error)) {
      core::log_error("svcd", error);
      exit_code = 1;
      ioc.stop();
    }
    core::log_info("svcd", info);

    std::vector<std::thread> threads;
    for (int i = 1; i < cfg.http_threads; ++i)
      threads.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : threads)
      t.join();
    charge_buckets(svc); // before the runtime's stop saves the bucket levels
    core::flush_log_buffer(); // the access lines of the last answers
    ::unlink((cfg.data_dir + "/svcd.json").c_str());
  }
  rt->stop();
  webhooks->stop();
  core::log_info("svcd", "stopped");
  return exit_code;
}

} // namespace svc::svcd
