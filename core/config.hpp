#pragma once
// The one configuration of svcd. Every field is an option settable as a flag
// (`--retry-schedule 5s,30s`), in a `--config FILE` (`retry-schedule = 5s`) or
// as an environment variable (`SVC_RETRY_SCHEDULE`); `config_options()` lists
// them with their defaults and drives parsing, `--help` and the table of docs/configuration.md.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/cidr.hpp"
#include "core/clock.hpp"
#include "core/duration.hpp"

namespace svc::core {

/// The LMDB map of a store when `--map-size` is not given: 64 GiB of address
/// space (the file grows only as data does).
inline constexpr uint64_t default_map_size = uint64_t{64} << 30;

struct config {
  // --- listeners and storage
  std::string data_dir = "./svc-data";       ///< LMDB, blobs, admin token, svcd.json
  std::string listen = "127.0.0.1:8080";     ///< public API HOST:PORT (port 0: ephemeral)
  std::string admin_listen = "127.0.0.1:8081"; ///< operator API HOST:PORT
  std::string base_url;                      ///< public URL; empty: http://<bound listen>
  uint64_t map_size = default_map_size;      ///< bytes the LMDB store may hold (its map)

  // --- webhooks (behaviour arrives with the webhooks issue)
  std::vector<duration> retry_schedule{std::chrono::seconds{5}, std::chrono::seconds{30},
                                       std::chrono::minutes{2}, std::chrono::minutes{10}};
  duration delivery_timeout = std::chrono::seconds{10}; ///< receiver acknowledgement deadline
  int disable_failures = 20;                      ///< consecutive failures that can disable
  duration disable_window = std::chrono::hours{24};   ///< ...with no success within this
  duration secret_grace = std::chrono::hours{24};     ///< previous webhook secret kept this long
  int max_endpoints_per_team = 50;                ///< webhook endpoints one team may have; more: 400 endpoint_limit_reached
  std::string webhook_ca_file;                    ///< extra CA bundle for receivers
  bool webhook_allow_private = false;             ///< allow loopback/private receivers
  std::string smtp;                               ///< relay URL or HOST:PORT (core/smtp_url.hpp); empty: DIR/outbox/
  std::string smtp_password_file;                 ///< file holding the relay's AUTH password; empty: no AUTH
  std::string smtp_ca_file;                       ///< CA bundle to trust for the relay; empty: system CAs
  duration smtp_timeout = std::chrono::seconds{10}; ///< one whole SMTP conversation, connect to QUIT
  std::string mail_from = "Svc <noreply@localhost>"; ///< From of e-mail to team owners

  // --- keys, jobs, files, events
  duration key_grace = std::chrono::hours{24};        ///< old API key valid after rotation
  duration output_ttl = std::chrono::hours{1};        ///< output URL and bytes lifetime
  duration file_ttl = std::chrono::hours{24};         ///< uploaded file lifetime
  duration idempotency_ttl = std::chrono::hours{24};  ///< idempotency key retention
  duration queue_ttl = std::chrono::minutes{15};      ///< queued longer than this: expired
  duration balance_low_debounce = std::chrono::hours{1}; ///< min gap between balance_low events
  duration event_retention = std::chrono::hours{24 * 30}; ///< GET /v1/events retention
  duration job_retention = std::chrono::hours{24 * 90};   ///< terminal job rows deleted this long after completion
  time_point legacy_sunset = from_unix_ms(1785801600000); ///< 2026-08-04: legacy 308 -> 410

  // --- generation
  std::string engines;                 ///< YAML file of engines and models (README "Engines"); empty: `provider` alone
  std::string provider = "procedural"; ///< procedural | remote
  std::string remote_url;              ///< remote back end base URL: http://[user:pass@]host[:port][/path]
  duration remote_timeout = std::chrono::minutes{10};         ///< per remote job, retries included
  duration remote_connect_timeout = std::chrono::seconds{10}; ///< one connect; also bounds progress polls and interrupts
  int remote_retries = 3;                                     ///< further attempts after a transport failure
  int render_attempts = 3;                                    ///< renders of a job whose engine failed, on another engine where one serves its model
  duration remote_backoff = std::chrono::seconds{1};          ///< before the first retry, doubling after each
  duration remote_poll = std::chrono::milliseconds{500};      ///< between progress polls of a remote render
  duration engine_silence = std::chrono::seconds{5};          ///< a ComfyUI socket quiet this long: its history is polled
  duration engine_probe_interval = std::chrono::seconds{5};   ///< between two health probes of an engine
  std::string engine_callback_listen = "127.0.0.1:8083"; ///< HOST:PORT where engines call back (Cog webhooks); bound with Cog engines only
  std::string engine_callback_url;                      ///< URL engines reach that listener at; empty: http://<bound address>
  int64_t engine_callback_body_limit = 128LL << 20;     ///< bytes of one call back (a webhook with data: URI outputs)
  int workers = 0;                     ///< concurrent generations; 0: number of cores
  duration render_delay{0};            ///< simulated extra back-end time per job
  std::string moderation_words;        ///< disallowed-words file; empty: the built-in list

  // --- HTTP server hardening
  std::size_t header_limit = 16 * 1024;   ///< bytes of request line + headers
  std::size_t body_limit = 1024 * 1024;   ///< bytes of a JSON request body
  duration read_timeout = std::chrono::seconds{30}; ///< to receive a whole request but an upload's body (also keep-alive idle)
  std::size_t pipeline_limit = 16;        ///< requests queued per connection
  std::size_t queued_response_bytes = 1024 * 1024; ///< unwritten answer bytes past which a connection reads no more requests
  std::size_t queued_response_total = 256 * 1024 * 1024; ///< ...past which no connection does (the sum over all)
  std::size_t max_connections = 4096;     ///< open client connections; more wait in the backlog
  std::size_t max_connections_per_address = 256; ///< open connections of one client address (IPv6: one /64); more are closed at once
  duration busy_idle_timeout = std::chrono::seconds{5}; ///< idle wait for a request while over 75% of max_connections are open
  std::vector<cidr> trusted_proxies;      ///< peers whose forwarding header names the client
  std::string trusted_proxy_header = "x-forwarded-for"; ///< the header they write: x-forwarded-for or forwarded
  std::size_t max_uploads = 8;            ///< `POST /v1/files` bodies in memory at once (each up to 20 MiB); more: 503; one team: half
  std::size_t upload_min_bytes = 64 * 1024; ///< an upload body must bring this many bytes per window...
  duration upload_rate_window = std::chrono::seconds{10}; ///< ...after the first window of this (else 408)
  duration upload_deadline = std::chrono::minutes{5};     ///< a whole upload body, from its first read (else 408)
  int64_t max_upload_pixels = 4096 * 4096; ///< width x height of an uploaded image; more: 400 (the decoder's limit too)
  std::size_t list_scan_limit = 1000;     ///< records one list request examines; past it the page ends early with a resuming cursor
  duration request_deadline = std::chrono::seconds{10}; ///< internal actor answer deadline: 503 past it
  duration openai_wait = std::chrono::seconds{60};      ///< POST /v1/images/generations and /edits wait this long for their job (at most 60 s), then 504
  duration drain_timeout = std::chrono::seconds{10};    ///< SIGTERM: how long open API connections may take to finish

  // --- runtime
  int http_threads = 1;                   ///< asio threads for both listeners
  int actor_threads = 2;                  ///< CAF scheduler workers
  std::string actor_policy = "stealing";  ///< CAF scheduler: stealing (idle workers poll, then back off) | sharing (they sleep)
  bool group_commit = true;               ///< false: one synced transaction per write (benchmark baseline)
  duration bucket_snapshot_interval = std::chrono::seconds{5}; ///< rate-bucket persistence period
  std::string log_level = "info";         ///< debug | info | warn | error
  std::string log_format = "text";        ///< text | json
  // A cluster (docs/cluster.md); without `etcd` svcd is one node holding every team.
  std::vector<std::string> etcd;          ///< etcd endpoints HOST:PORT; empty: no cluster
  std::string etcd_ca;                    ///< PEM CA of etcd's server certificate; empty: plain HTTP
  std::string etcd_cert;                  ///< svcd's client certificate toward etcd (PEM)
  std::string etcd_key;                   ///< its private key (PEM)
  std::string etcd_user;                  ///< etcd RBAC user svcd logs in as; empty: no login
  std::string etcd_password_file;         ///< file holding that user's password
  std::string node_id;                    ///< this node's name in the cluster
  std::string cluster_listen = "127.0.0.1:8082"; ///< HOST:PORT where other nodes reach this one (mutual TLS)
  std::string cluster_ca;                 ///< PEM CA that signs every node's certificate
  std::string cluster_cert;               ///< this node's certificate (PEM)
  std::string cluster_key;                ///< its private key (PEM)
  std::vector<std::string> cluster_bootstrap; ///< node ids sharing the shards when etcd holds no map yet
  duration cluster_heartbeat = std::chrono::seconds{1}; ///< heartbeat between nodes
  duration cluster_timeout = std::chrono::seconds{3};   ///< a node silent this long is down
  duration cluster_lease = std::chrono::seconds{5};     ///< TTL of this node's membership in etcd
  bool fault_injection = false;           ///< POST /admin/faults may make store reads fail (tests only)
  std::optional<time_point> clock_start;  ///< the wall clock reads this at start and runs on (tests of stored data); empty: the system clock
};

/// One option: its name (flag, file key, env suffix), help, default and setter.
struct config_option {
  std::string name;        ///< e.g. "retry-schedule"
  std::string help;        ///< one line for --help and docs/configuration.md
  std::string default_text;///< the default as text
  bool is_switch = false;  ///< a flag without value (`--webhook-allow-private`)
  /// Sets the field from text; returns false if the text is malformed.
  std::function<bool(config&, const std::string&)> apply;
  bool repeatable = false; ///< may be given several times; `apply` gets the values joined by commas
};

/// Every option of `config`, in documentation order.
const std::vector<config_option>& config_options();

/// Markdown table of every option (the table of docs/configuration.md).
std::string config_markdown_table();

/// A config file (`--config`) naming every option on a commented `# name = default`
/// line under its help: the example config that `cmake --install` ships.
std::string config_example_file();

/// The environment variable for an option: `retry-schedule` -> `SVC_RETRY_SCHEDULE`.
std::string env_name(const std::string& option);

} // namespace svc::core
