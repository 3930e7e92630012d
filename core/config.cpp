#include "core/config.hpp"

#include <algorithm>
#include <cctype>
#include <thread>

#include "core/byte_size.hpp"
#include "core/comma_list.hpp"
#include "core/smtp_url.hpp"
#include "core/shard.hpp"
#include "core/time_format.hpp"

namespace svc::core {
namespace {

std::optional<std::string> checked_node_id(std::string_view v) {
  return is_node_id(v) ? std::optional<std::string>{std::string{v}} : std::nullopt;
}

// `HOST:PORT` with a port 1-65535.
std::optional<std::string> checked_host_port(std::string_view v) {
  auto colon = v.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == v.size() || v.size() - colon > 6)
    return std::nullopt;
  auto port = v.substr(colon + 1);
  if (!std::all_of(port.begin(), port.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
    return std::nullopt;
  auto n = std::stoi(std::string{port});
  return n >= 1 && n <= 65535 ? std::optional<std::string>{std::string{v}} : std::nullopt;
}

config_option text_option(std::string name, std::string help, std::string config::*field) {
  config defaults;
  return {std::move(name), std::move(help), defaults.*field, false,
          [field](config& c, const std::string& v) { c.*field = v; return true; }};
}

// `parse` gives the field's value for a text, or nothing when the text is malformed.
template <class T, class Parse>
config_option parsed_option(std::string name, std::string help, std::string default_text, T config::*field,
                            Parse parse, bool repeatable = false) {
  return {std::move(name), std::move(help), std::move(default_text), false,
          [field, parse](config& c, const std::string& v) {
            auto parsed = parse(v);
            if (parsed)
              c.*field = std::move(*parsed);
            return parsed.has_value();
          },
          repeatable};
}

config_option duration_option(std::string name, std::string help, duration config::*field) {
  config defaults;
  return parsed_option(std::move(name), std::move(help), format_duration(defaults.*field), field,
                       [](const std::string& v) { return parse_duration(v); });
}

// A text that must be one of `choices`.
config_option choice_option(std::string name, std::string help, std::string config::*field,
                            std::vector<std::string> choices) {
  config defaults;
  return {std::move(name), std::move(help), defaults.*field, false,
          [field, choices = std::move(choices)](config& c, const std::string& v) {
            if (std::find(choices.begin(), choices.end(), v) == choices.end())
              return false;
            c.*field = v;
            return true;
          }};
}

// `is_switch`: the bare flag means on (`--webhook-allow-private`); otherwise a value is required.
config_option on_off_option(std::string name, std::string help, bool config::*field, bool is_switch) {
  config defaults;
  return {std::move(name), std::move(help), defaults.*field ? "on" : "off", is_switch,
          [field](config& c, const std::string& v) {
            if (v == "true" || v == "1" || v == "on" || v == "yes")
              c.*field = true;
            else if (v == "false" || v == "0" || v == "off" || v == "no")
              c.*field = false;
            else
              return false;
            return true;
          }};
}

template <class Int>
config_option int_option(std::string name, std::string help, Int config::*field, long long min,
                         long long max) {
  config defaults;
  return {std::move(name), std::move(help), std::to_string(defaults.*field), false,
          [field, min, max](config& c, const std::string& v) {
            if (v.empty() || v.size() > 18
                || !std::all_of(v.begin(), v.end(), [](unsigned char ch) { return std::isdigit(ch); }))
              return false;
            auto n = std::stoll(v);
            if (n < min || n > max)
              return false;
            c.*field = static_cast<Int>(n);
            return true;
          }};
}

std::vector<config_option> make_options() {
  std::vector<config_option> o;
  o.push_back(text_option("data-dir", "LMDB, blobs, admin token and svcd.json", &config::data_dir));
  o.push_back(text_option("listen", "public API HOST:PORT (port 0 binds an ephemeral port)", &config::listen));
  o.push_back(text_option("admin-listen", "operator API HOST:PORT", &config::admin_listen));
  o.push_back(text_option("base-url", "public base URL (default http://<bound listen address>)", &config::base_url));
  o.push_back(parsed_option("map-size", "most bytes the LMDB store may hold (`512MiB`, `64GiB`; at least 1MiB); writes that would grow it past this less a reserve answer 507 insufficient_storage; the data file grows only as data does", format_byte_size(default_map_size), &config::map_size,
                            [](const std::string& v) {
                              auto bytes = parse_byte_size(v);
                              return bytes && *bytes >= (uint64_t{1} << 20) && *bytes <= (uint64_t{64} << 40) ? bytes : std::nullopt;
                            }));
  o.push_back(parsed_option("retry-schedule", "delays before webhook attempts 2..5", "5s,30s,2m,10m", &config::retry_schedule,
                            [](const std::string& v) {
                              auto list = parse_duration_list(v);
                              return list && list->size() == 4 ? list : std::nullopt;
                            }));
  o.push_back(duration_option("delivery-timeout", "webhook receiver acknowledgement deadline", &config::delivery_timeout));
  o.push_back(int_option("disable-failures", "consecutive failures that can disable an endpoint", &config::disable_failures, 1, 1000000));
  o.push_back(duration_option("disable-window", "...when no delivery succeeded within this window", &config::disable_window));
  o.push_back(duration_option("key-grace", "old API key stays valid this long after rotation", &config::key_grace));
  o.push_back(int_option("max-endpoints-per-team", "webhook endpoints one team may have (each a fan-out of every event); a create past it answers 400 endpoint_limit_reached", &config::max_endpoints_per_team, 1, 100000));
  o.push_back(duration_option("secret-grace", "previous webhook secret kept this long after rotation", &config::secret_grace));
  o.push_back(duration_option("output-ttl", "lifetime of output URLs and output bytes", &config::output_ttl));
  o.push_back(duration_option("file-ttl", "lifetime of uploaded files", &config::file_ttl));
  o.push_back(duration_option("idempotency-ttl", "retention of idempotency keys", &config::idempotency_ttl));
  o.push_back(duration_option("queue-ttl", "a job still queued after this is expired", &config::queue_ttl));
  o.push_back(duration_option("balance-low-debounce", "at most one usage.balance_low per team per this", &config::balance_low_debounce));
  o.push_back(duration_option("event-retention", "how long GET /v1/events keeps events", &config::event_retention));
  o.push_back(duration_option("job-retention", "terminal jobs (images, videos) are deleted this long after they ended; usage rows stay", &config::job_retention));
  o.push_back(parsed_option("legacy-sunset", "legacy paths redirect before this date, answer 410 from it on", "2026-08-04", &config::legacy_sunset,
                            [](const std::string& v) { return parse_date(v); }));
  o.push_back(text_option("webhook-ca-file", "extra CA bundle to trust for receivers (default: system CAs only)", &config::webhook_ca_file));
  o.push_back(on_off_option("webhook-allow-private", "allow receivers on loopback/private addresses", &config::webhook_allow_private, true));
  o.push_back({"smtp", "SMTP relay: `smtp://[user@]host[:port]` (STARTTLS required), `smtps://[user@]host[:port]` (implicit TLS) or `HOST:PORT` (plain, no TLS, no AUTH); without it mail goes to DIR/outbox/", "", false,
               [](config& c, const std::string& v) {
                 if (!v.empty() && !parse_smtp_url(v))
                   return false;
                 c.smtp = v;
                 return true;
               }});
  o.push_back(text_option("smtp-password-file", "file holding the AUTH password for the user of the --smtp URL, read at start; refused when others may read it; one trailing newline ignored", &config::smtp_password_file));
  o.push_back(text_option("smtp-ca-file", "CA bundle trusted for the SMTP relay's certificate instead of the system CAs (default: system CAs)", &config::smtp_ca_file));
  o.push_back(duration_option("smtp-timeout", "deadline of one whole SMTP conversation with the relay, connect to QUIT (then the mail is retried)", &config::smtp_timeout));
  o.push_back(text_option("mail-from", "From address of e-mail to team owners (`Name <addr>` or `addr`)", &config::mail_from));
  o.push_back(text_option("engines", "YAML file declaring the engines (ComfyUI, Cog, A1111, built-in) and the models they serve (README \"Engines\"); --provider and --remote-url are then unused", &config::engines));
  o.push_back(choice_option("provider", "procedural (built-in renderer) or remote", &config::provider, {"procedural", "remote"}));
  o.push_back(text_option("remote-url", "base URL of the remote generation back end (`http://[user:password@]host[:port][/path]`)", &config::remote_url));
  o.push_back(duration_option("remote-timeout", "deadline of one job on the remote back end, retries included (then provider_timeout)", &config::remote_timeout));
  o.push_back(duration_option("remote-connect-timeout", "connecting to the remote back end; also bounds each progress poll and interrupt", &config::remote_connect_timeout));
  o.push_back(int_option("render-attempts", "renders of a job at most, when its engine fails (refused, reset, restarted, busy): each runs on another engine where one serves the model", &config::render_attempts, 1, 10));
  o.push_back(int_option("remote-retries", "further attempts after a transport failure of the remote back end (then provider_unavailable)", &config::remote_retries, 0, 20));
  o.push_back(duration_option("remote-backoff", "wait before the first retry of the remote back end, doubling for each next one", &config::remote_backoff));
  o.push_back(duration_option("remote-poll", "interval of progress polls while the remote back end renders", &config::remote_poll));
  o.push_back(duration_option("engine-silence", "a ComfyUI render whose websocket sent nothing for this long (or dropped) is checked through /history", &config::engine_silence));
  o.push_back(duration_option("engine-probe-interval", "each engine's health probe (ComfyUI /system_stats, Cog /health-check, A1111 /sdapi/v1/progress) runs this often; two failed in a row take it down (no new renders, its running ones go elsewhere) until one passes", &config::engine_probe_interval));
  o.push_back(text_option("engine-callback-listen", "HOST:PORT of the listener engines call back on (Cog's webhooks; bound only when --engines has a Cog engine; not the API, so API clients cannot reach it; keep its port fixed: a container posts to the URL it was given, also after svcd restarted)", &config::engine_callback_listen));
  o.push_back(text_option("engine-callback-url", "URL the engines reach that listener at (default http://<bound engine-callback address>)", &config::engine_callback_url));
  o.push_back(int_option("engine-callback-body-limit", "bytes of one call from an engine (a Cog webhook carrying its outputs as data: URIs; 413 past it)", &config::engine_callback_body_limit, 1 << 20, 1LL << 32));
  o.push_back(int_option("workers", "concurrent generations (0: number of cores; with --engines, twice the sum of their slots, so an engine starts its next render while the last one's outputs are fetched)", &config::workers, 0, 1024));
  o.back().default_text = "cores";
  o.push_back(duration_option("render-delay", "extra time per generation (simulates slower back ends)", &config::render_delay));
  o.push_back(text_option("moderation-words", "file of disallowed words and phrases, one per line (default: a built-in list)", &config::moderation_words));
  o.back().default_text = "built-in";
  o.push_back(int_option("header-limit", "bytes of request line and headers (431 past it)", &config::header_limit, 1024, 1 << 20));
  o.push_back(int_option("body-limit", "bytes of a JSON request body (413 past it)", &config::body_limit, 1024, 64 << 20));
  o.push_back(duration_option("read-timeout", "time to receive a whole request (an upload's body: see --upload-deadline); idle keep-alive connections close after it", &config::read_timeout));
  o.push_back(int_option("pipeline-limit", "pipelined requests queued per connection", &config::pipeline_limit, 1, 1024));
  o.push_back(int_option("queued-response-bytes", "bytes of answers a connection may hold unwritten (a client not reading) before it reads no further request", &config::queued_response_bytes, 64 * 1024, 1LL << 32));
  o.push_back(int_option("queued-response-total", "bytes of unwritten answers over all connections past which none reads a further request", &config::queued_response_total, 1 << 20, 1LL << 40));
  o.push_back(int_option("max-connections", "open client connections; further ones wait in the backlog", &config::max_connections, 1, 1 << 20));
  o.push_back(int_option("max-connections-per-address", "open connections of one client address (IPv6: one /64; trusted proxies exempt); more are closed at once", &config::max_connections_per_address, 1, 1 << 20));
  o.push_back(duration_option("busy-idle-timeout", "while over 75% of max-connections are open, connections waiting this long for a request close", &config::busy_idle_timeout));
  o.push_back(parsed_option("trusted-proxy", "CIDR of a reverse proxy whose --trusted-proxy-header names the client (repeatable; a comma list in a file or SVC_TRUSTED_PROXY)", "", &config::trusted_proxies,
                            [](const std::string& v) { return parse_cidr_list(v); }, true));
  o.push_back(choice_option("trusted-proxy-header", "the header the trusted proxies record the client in: x-forwarded-for or forwarded (only that one is read; proxies pass the other through as the client wrote it)", &config::trusted_proxy_header, {"x-forwarded-for", "forwarded"}));
  o.push_back(int_option("max-uploads", "POST /v1/files bodies held in memory at once (each up to 20 MiB); more answer 503; one team may hold half (429 past it)", &config::max_uploads, 1, 1024));
  o.push_back(int_option("upload-min-bytes", "an upload body must bring at least this many bytes per --upload-rate-window (after the first), else 408", &config::upload_min_bytes, 1, 1 << 30));
  o.push_back(duration_option("upload-rate-window", "the window of --upload-min-bytes; the first window of an upload is free", &config::upload_rate_window));
  o.push_back(duration_option("upload-deadline", "a whole upload body must arrive within this of its first read, else 408", &config::upload_deadline));
  o.push_back(int_option("max-upload-pixels", "width x height an uploaded image may have (also the init-image decoder's limit); more answer 400 with param file", &config::max_upload_pixels, 1, 40000000));
  o.push_back(int_option("list-scan-limit", "records one list request examines (a filter that matches rarely); past it the page ends early with has_more and a next_cursor that resumes the scan", &config::list_scan_limit, 1, 1000000));
  o.push_back(duration_option("drain-timeout", "after SIGTERM, how long open API connections may take to finish (long polls answer at once; /readyz is 503 meanwhile)", &config::drain_timeout));
  o.push_back(duration_option("request-deadline", "internal answer deadline; 503 unavailable past it (a cancel waits for its refund instead)", &config::request_deadline));
  // At most the longest `Prefer: wait`, which a cluster's forwarding deadline is sized for.
  o.push_back(parsed_option("openai-wait", "how long POST /v1/images/generations and /v1/images/edits wait for their job to end (more than 0, at most 60s); then 504 generation_timeout, and the job runs on", "60s", &config::openai_wait,
                            [](const std::string& v) {
                              auto d = parse_duration(v);
                              return d && *d > duration::zero() && *d <= std::chrono::seconds{60} ? d : std::nullopt;
                            }));
  o.push_back(int_option("http-threads", "asio threads serving both listeners", &config::http_threads, 1, 64));
  o.push_back(int_option("actor-threads", "actor scheduler worker threads", &config::actor_threads, 1, 64));
  o.push_back(choice_option("actor-policy", "actor scheduler: stealing (idle workers poll, then back off) or sharing (they sleep)", &config::actor_policy, {"sharing", "stealing"}));
  o.push_back(on_off_option("group-commit", "on: concurrent writes share one synced LMDB transaction; off: one each (a benchmark baseline)", &config::group_commit, false));
  o.push_back(duration_option("bucket-snapshot-interval", "how often rate-limit buckets are persisted", &config::bucket_snapshot_interval));
  o.push_back(parsed_option("etcd", "etcd endpoints `HOST:PORT[,HOST:PORT...]` holding the cluster's membership and shard map; without it svcd is a single node holding every team", "", &config::etcd,
                            [](const std::string& v) { return parse_comma_list(v, checked_host_port); }));
  o.push_back(text_option("etcd-ca", "PEM file of the CA that signed etcd's server certificate: svcd then speaks HTTPS to etcd and checks that the certificate names the endpoint's host; without it, plain HTTP", &config::etcd_ca));
  o.push_back(text_option("etcd-cert", "PEM file of the client certificate svcd shows etcd (for etcd's --client-cert-auth; etcd 3.4's gateway refuses one with a CommonName); needs --etcd-ca and --etcd-key", &config::etcd_cert));
  o.push_back(text_option("etcd-key", "PEM file of the private key of --etcd-cert", &config::etcd_key));
  o.push_back(text_option("etcd-user", "etcd RBAC user svcd logs in as (it needs readwrite on the prefix /svc/); needs --etcd-ca and --etcd-password-file", &config::etcd_user));
  o.push_back(text_option("etcd-password-file", "file holding the password of --etcd-user, read at start; refused when others may read it; one trailing newline ignored", &config::etcd_password_file));
  o.push_back(parsed_option("node-id", "this node's name in the cluster (1-32 of a-z, 0-9, -); required with --etcd", "", &config::node_id,
                            [](const std::string& v) { return checked_node_id(v); }));
  o.push_back(text_option("cluster-listen", "HOST:PORT where the other nodes reach this one over mutual TLS (port 0: ephemeral, advertised as bound)", &config::cluster_listen));
  o.push_back(text_option("cluster-ca", "PEM file of the CA that signs every node's certificate; required with --etcd", &config::cluster_ca));
  o.push_back(text_option("cluster-cert", "PEM file of this node's certificate, signed by --cluster-ca and naming this node in a subjectAltName URI urn:svc:node:<node id>; required with --etcd", &config::cluster_cert));
  o.push_back(text_option("cluster-key", "PEM file of this node's private key; required with --etcd", &config::cluster_key));
  o.push_back(parsed_option("cluster-bootstrap", "node ids that share the 256 shards round-robin when etcd holds no shard map yet (the first start of a cluster)", "", &config::cluster_bootstrap,
                            [](const std::string& v) { return parse_comma_list(v, checked_node_id); }));
  o.push_back(duration_option("cluster-heartbeat", "how often a node pings each linked node (at least 10ms)", &config::cluster_heartbeat));
  o.push_back(duration_option("cluster-timeout", "a node that leaves a ping unanswered this long is down (its teams answer 503 owner_unavailable until it answers again); also bounds each connection attempt", &config::cluster_timeout));
  o.push_back(duration_option("cluster-lease", "TTL of this node's membership lease in etcd (renewed every third of it)", &config::cluster_lease));
  o.push_back(on_off_option("fault-injection", "lets POST /admin/faults make every store read fail, to test how failures are answered; never for production", &config::fault_injection, true));
  o.push_back(parsed_option("clock-start", "svcd's clock reads this UTC time (ISO 8601) at start and runs on from it, to serve a stored data directory as of then without its deadlines passing; never for production", "-", &config::clock_start,
                            [](const std::string& v) { return parse_iso8601(v); }));
  o.push_back(choice_option("log-level", "debug, info, warn or error", &config::log_level, {"debug", "info", "warn", "error"}));
  o.push_back(choice_option("log-format", "text (one readable line per event) or json (one JSON object per line)", &config::log_format, {"text", "json"}));
  return o;
}

} // namespace

const std::vector<config_option>& config_options() {
  static const auto options = make_options();
  return options;
}

std::string env_name(const std::string& option) {
  std::string out = "SVC_";
  for (char ch : option)
    out.push_back(ch == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  return out;
}

std::string config_markdown_table() {
  std::string out = "| option | environment | default | meaning |\n|---|---|---|---|\n";
  for (auto& o : config_options())
    out += "| `--" + o.name + "` | `" + env_name(o.name) + "` | `" + (o.default_text.empty() ? "-" : o.default_text)
           + "` | " + o.help + " |\n";
  return out;
}

std::string config_example_file() {
  std::string out = "# svcd configuration: `svcd --config FILE`. Each option below is commented out and shows\n"
                    "# its default; flags and SVC_* environment variables override this file.\n";
  for (auto& o : config_options())
    out += "\n# " + o.help + "\n# " + o.name + " = " + o.default_text + "\n";
  return out;
}

} // namespace svc::core
