#include "bench/load/load_commands.hpp"

#include <iostream>
#include <optional>

#include "bench/load/command_line.hpp"
#include "bench/load/create_scenario.hpp"
#include "bench/load/json_text.hpp"
#include "bench/load/mixed_scenario.hpp"
#include "bench/load/mixed_webhooks.hpp"
#include "bench/load/read_scenario.hpp"
#include "bench/load/report_files.hpp"
#include "core/time_format.hpp"

namespace svc::bench {
namespace {

// The options of every load-testers' scenario beyond the common ones.
struct load_args {
  std::size_t connections = 64, threads = 1;
  double rate = 0;
  std::string duration = "10s", drain = "5s", out;
};

void add_load_options(po::options_description& d, load_args& a) {
  d.add_options()("connections", po::value(&a.connections)->default_value(64), "keep-alive connections")(
    "threads", po::value(&a.threads)->default_value(1), "io threads (connections are spread over them)")(
    "duration", po::value(&a.duration)->default_value("10s"), "the window: requests are sent inside it")(
    "rate", po::value(&a.rate)->default_value(0),
    "open loop: requests/s, each due at a fixed time and timed from it whether or not a connection was free; "
    "0: closed loop (each connection sends when its last answer came)")(
    "drain", po::value(&a.drain)->default_value("5s"), "open loop: how long answers in flight at the window's end are awaited")(
    "out", po::value(&a.out)->default_value(""), "write summary.json, timeseries.csv and report.html into this directory");
}

// Checks the load options; false after printing why they do not fit.
bool make_load_options(const load_args& a, const target& server, std::size_t kinds, load_options& o) {
  o.server = server;
  o.kinds = kinds;
  o.connections = a.connections;
  o.threads = a.threads;
  o.rate = a.rate;
  if (!read_duration(a.duration, "--duration", o.duration) || !read_duration(a.drain, "--drain", o.drain))
    return false;
  if (o.connections == 0 || o.threads == 0 || o.threads > o.connections || o.duration.count() == 0 || !(o.rate >= 0)
      || o.rate > 1e7) {
    std::cerr << "svc-bench: need --connections >= --threads >= 1, a non-zero --duration and 0 <= --rate <= 1e7\n";
    return false;
  }
  return true;
}

run_record record_of(const char* scenario, const std::vector<std::string>& operations, const load_options& o,
                     std::size_t keys, std::string command) {
  run_record r;
  r.scenario = scenario;
  r.operations = operations;
  r.target = o.server.host_header;
  r.rate = o.rate;
  r.connections = o.connections;
  r.threads = o.threads;
  r.keys = keys;
  r.drain_seconds = std::chrono::duration<double>(o.drain).count();
  r.started_at = core::format_iso8601(std::chrono::system_clock::now());
  r.command = std::move(command);
  return r;
}

// Prints the report, the SUMMARY line, the files and the command; the exit status.
int report(const run_record& r, const std::string& out_dir) {
  std::cout << summary_text(r) << "SUMMARY " << json_text(summary_json(r, false)) << "\n";
  if (!out_dir.empty()) {
    std::string error;
    if (!write_run_files(out_dir, r, error)) {
      std::cerr << "svc-bench: " << error << "\n";
      return 2;
    }
    std::cout << "files: " << out_dir << "/summary.json, timeseries.csv, report.html\n";
  }
  std::cout << "reproduce: " << r.command << std::endl;
  return r.clean() ? 0 : 1;
}

// Parses the mix of a read or mixed run; nothing after printing why not.
std::optional<operation_mix> read_mix(const std::string& spec, const std::vector<std::string>& names) {
  std::string error;
  auto mix = operation_mix::parse(spec, names, error);
  if (!mix)
    std::cerr << "svc-bench: " << error << "\n";
  return mix;
}

} // namespace

int run_create_command(int argc, char** argv, const char* argv0) {
  common_args a;
  load_args l;
  po::options_description d("create: POST /v1/images (201 wanted)");
  add_common(d, a);
  add_allow_remote(d, a);
  add_load_options(d, l);
  po::variables_map vm;
  int status = 0;
  if (!parse(argc, argv, d, vm, status))
    return status;
  load_options o;
  std::vector<std::string> keys;
  image_spec image;
  if (!load_target(a, o.server, keys, image) || !make_load_options(l, o.server, 1, o))
    return 2;
  auto r = record_of("create", create_operations(), o, keys.size(), reproduce_command(argv0, "create", vm));
  r.result = run_load(o, [&](std::size_t) { return make_create_source(o.server, keys, image, o.rate <= 0); });
  return report(r, l.out);
}

int run_read_command(int argc, char** argv, const char* argv0) {
  common_args a;
  load_args l;
  std::string mix_spec;
  std::size_t per_key = 8;
  po::options_description d("read: GET /v1/images/{id} and GET /v1/team (200 wanted)");
  add_common(d, a);
  add_allow_remote(d, a);
  add_load_options(d, l);
  d.add_options()("mix", po::value(&mix_spec)->default_value("image=4,team=1"),
                  "shares of the reads: image=W,team=W (whole numbers)")(
    "jobs-per-key", po::value(&per_key)->default_value(8),
    "images each key creates before the run; the image reads cycle through them");
  po::variables_map vm;
  int status = 0;
  if (!parse(argc, argv, d, vm, status))
    return status;
  load_options o;
  std::vector<std::string> keys;
  image_spec image;
  if (!load_target(a, o.server, keys, image) || !make_load_options(l, o.server, read_operations().size(), o))
    return 2;
  const auto mix = read_mix(mix_spec, read_operations());
  if (!mix)
    return 2;
  if (per_key == 0 && mix->weights()[0] > 0) {
    std::cerr << "svc-bench: image reads need --jobs-per-key >= 1\n";
    return 2;
  }
  std::string error;
  const auto jobs = create_read_jobs(o.server, keys, image, per_key, error);
  if (!error.empty()) {
    std::cerr << "svc-bench: read setup: " << error << "\n";
    return 2;
  }
  auto r = record_of("read", read_operations(), o, keys.size(), reproduce_command(argv0, "read", vm));
  r.mix = mix->to_string(read_operations());
  r.result = run_load(o, [&](std::size_t) { return make_read_source(o.server, keys, jobs, *mix, o.rate <= 0); });
  return report(r, l.out);
}

int run_mixed_command(int argc, char** argv, const char* argv0) {
  common_args a;
  load_args l;
  std::string mix_spec, ca_dir;
  int upload_side = 256;
  std::size_t endpoints_per_team = 1;
  po::options_description d("mixed: creates, polls, downloads, uploads and webhook deliveries together "
                            "(201, 200, 200, 201 wanted)");
  add_common(d, a);
  add_allow_remote(d, a);
  add_load_options(d, l);
  d.add_options()("mix", po::value(&mix_spec)->default_value("create=1,poll=4,download=2,upload=1"),
                  "shares of the operations: create=W,poll=W,download=W,upload=W (whole numbers)")(
    "upload-size", po::value(&upload_side)->default_value(256), "side in pixels of the PNG each upload sends")(
    "ca-dir", po::value(&ca_dir)->default_value(""),
    "webhooks on: the receiver's test CA (made if absent; svcd trusts DIR/ca.pem through --webhook-ca-file and "
    "needs --webhook-allow-private); svcd must run on this machine")(
    "endpoints-per-team", po::value(&endpoints_per_team)->default_value(1),
    "with --ca-dir: endpoints each team registers, subscribed to every event");
  po::variables_map vm;
  int status = 0;
  if (!parse(argc, argv, d, vm, status))
    return status;
  load_options o;
  std::vector<std::string> keys;
  image_spec image;
  if (!load_target(a, o.server, keys, image) || !make_load_options(l, o.server, mixed_operations().size(), o))
    return 2;
  const auto mix = read_mix(mix_spec, mixed_operations());
  if (!mix)
    return 2;
  if (upload_side < 1 || upload_side > 4096 || (!ca_dir.empty() && endpoints_per_team == 0)) {
    std::cerr << "svc-bench: need 1 <= --upload-size <= 4096 and, with --ca-dir, --endpoints-per-team >= 1\n";
    return 2;
  }
  if (!ca_dir.empty() && !o.server.endpoint.address().is_loopback()) {
    std::cerr << "svc-bench: webhooks (--ca-dir) need svcd on this machine: the receiver listens on 127.0.0.1\n";
    return 2;
  }
  std::optional<mixed_webhooks> hooks;
  std::string png;
  try {
    png = make_upload_png(upload_side);
    if (!ca_dir.empty()) {
      hooks.emplace(ca_dir, keys.size() * endpoints_per_team);
      if (auto error = hooks->register_endpoints(o.server, keys, endpoints_per_team); !error.empty()) {
        std::cerr << "svc-bench: mixed setup: " << error << "\n";
        return 2;
      }
    }
  } catch (const std::exception& e) { // the receiver could not start (certificate, port), or no PNG
    std::cerr << "svc-bench: " << e.what() << "\n";
    return 2;
  }
  auto r = record_of("mixed", mixed_operations(), o, keys.size(), reproduce_command(argv0, "mixed", vm));
  r.mix = mix->to_string(mixed_operations());
  if (hooks)
    hooks->open_window(o.duration);
  r.result = run_load(
    o, [&](std::size_t) { return make_mixed_source(o.server, keys, image, png, *mix, o.rate <= 0); });
  if (hooks)
    r.webhooks = webhook_figures{keys.size() * endpoints_per_team, hooks->counts()};
  return report(r, l.out);
}

} // namespace svc::bench
