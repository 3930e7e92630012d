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
    "duration", po::value(&a.duration)->default_value("10s"),
    "the window: closed loop, requests go and answers count inside it; open loop, requests fall due inside it")(
    "rate", po::value(&a.rate)->default_value(0),
    "open loop: requests/s, each due at a fixed time and timed from it whether or not a connection was free; "
    "0: closed loop (each connection sends when its last answer came)")(
    "drain", po::value(&a.drain)->default_value("5s"),
    "open loop: after the window, requests that fell due in it still go and answers still count, this long")(
    "out", po::value(&a.out)->default_value(""),
    "write summary.json, timeseries.csv and report.html into this directory (made if absent)");
}

// Parses the mix of a read or mixed run; nothing after printing why not.
std::optional<operation_mix> read_mix(const std::string& spec, const std::vector<std::string>& names) {
  std::string error;
  auto mix = operation_mix::parse(spec, names, error);
  if (!mix)
    std::cerr << "svc-bench: " << error << "\n";
  return mix;
}

// What the three commands share beyond the command line of every scenario:
// the target and keys, the load options, the mix and the record of the run.
struct load_command : scenario_command {
  load_args l;
  load_options o;
  std::vector<std::string> keys;
  image_spec image;
  std::string mix_spec;
  std::optional<operation_mix> mix; ///< read and mixed: the shares of the operations

  explicit load_command(const char* caption) : scenario_command(caption) {
    add_allow_remote(d, a);
    add_load_options(d, l);
  }

  // Adds --mix (read and mixed), `fallback` when not given.
  void add_mix(const char* fallback, const char* what) {
    d.add_options()("mix", po::value(&mix_spec)->default_value(fallback), what);
  }

  // Parses `argv` for a scenario of `operations` (in the shares --mix gives,
  // when the command has it); false when the command ends here (help, or bad
  // usage), with its exit status in `status`.
  bool prepare(int argc, char** argv, const std::vector<std::string>& operations) {
    if (!parse(argc, argv))
      return false;
    status = 2;
    if (!load_target(a, o.server, keys, image) || !read_duration(l.duration, "--duration", o.duration)
        || !read_duration(l.drain, "--drain", o.drain))
      return false;
    o.kinds = operations.size();
    o.connections = l.connections;
    o.threads = l.threads;
    o.rate = l.rate;
    if (o.connections == 0 || o.threads == 0 || o.threads > o.connections || o.duration.count() == 0
        || !(o.rate >= 0) || o.rate > 1e7) {
      refuse("need --connections >= --threads >= 1, a non-zero --duration and 0 <= --rate <= 1e7");
      return false;
    }
    if (vm.count("mix"))
      mix = read_mix(mix_spec, operations);
    return !vm.count("mix") || mix;
  }

  // The record of a run of `scenario` starting now.
  run_record record(const char* scenario, const std::vector<std::string>& operations, const char* argv0) const {
    run_record r;
    r.scenario = scenario;
    r.operations = operations;
    if (mix)
      r.mix = mix->to_string(operations);
    r.target = o.server.host_header;
    r.rate = o.rate;
    r.connections = o.connections;
    r.threads = o.threads;
    r.keys = keys.size();
    r.drain_seconds = std::chrono::duration<double>(o.drain).count();
    r.started_at = core::format_iso8601(std::chrono::system_clock::now());
    r.command = reproduce_command(argv0, scenario, vm);
    return r;
  }

  // Closed loop, the sources honour the rate-limit headers.
  bool paced() const { return o.rate <= 0; }
};

// Prints the report, the SUMMARY line, the files and the command; the exit status.
int report(const run_record& r, const std::string& out_dir) {
  std::cout << summary_text(r) << "SUMMARY " << json_text(summary_json(r, false)) << "\n";
  if (!out_dir.empty()) {
    std::string error;
    if (!write_run_files(out_dir, r, error))
      return refuse(error);
    std::cout << "files: " << out_dir << "/summary.json, timeseries.csv, report.html\n";
  }
  std::cout << "reproduce: " << r.command << std::endl;
  return r.clean() ? 0 : 1;
}

} // namespace

int run_create_command(int argc, char** argv, const char* argv0) {
  load_command c("create: POST /v1/images (201 wanted)");
  if (!c.prepare(argc, argv, create_operations()))
    return c.status;
  auto r = c.record("create", create_operations(), argv0);
  r.result = run_load(c.o, [&](std::size_t) { return make_create_source(c.o.server, c.keys, c.image, c.paced()); });
  return report(r, c.l.out);
}

int run_read_command(int argc, char** argv, const char* argv0) {
  load_command c("read: GET /v1/images/{id} and GET /v1/team (200 wanted)");
  std::size_t per_key = 8;
  c.add_mix("image=4,team=1", "shares of the reads: image=W,team=W (whole numbers)");
  c.d.add_options()("jobs-per-key", po::value(&per_key)->default_value(8),
                    "images each key creates before the run; the image reads cycle through them");
  if (!c.prepare(argc, argv, read_operations()))
    return c.status;
  if (per_key == 0 && c.mix->weights()[0] > 0)
    return refuse("image reads need --jobs-per-key >= 1");
  std::string error;
  const auto jobs = create_read_jobs(c.o.server, c.keys, c.image, per_key, error);
  if (!error.empty())
    return refuse("read setup: " + error);
  auto r = c.record("read", read_operations(), argv0);
  r.result = run_load(c.o, [&](std::size_t) { return make_read_source(c.o.server, c.keys, jobs, *c.mix, c.paced()); });
  return report(r, c.l.out);
}

int run_mixed_command(int argc, char** argv, const char* argv0) {
  load_command c("mixed: creates, polls, downloads, uploads and webhook deliveries together "
                 "(201, 200, 200, 201 wanted)");
  std::string ca_dir;
  int upload_side = 256;
  std::size_t endpoints_per_team = 1;
  c.add_mix("create=1,poll=4,download=2,upload=1",
            "shares of the operations: create=W,poll=W,download=W,upload=W (whole numbers)");
  c.d.add_options()("upload-size", po::value(&upload_side)->default_value(256),
                    "side in pixels of the PNG each upload sends")(
    "ca-dir", po::value(&ca_dir)->default_value(""),
    "webhooks on: the receiver's test CA (made if absent; svcd trusts DIR/ca.pem through --webhook-ca-file and "
    "needs --webhook-allow-private); svcd must run on this machine")(
    "endpoints-per-team", po::value(&endpoints_per_team)->default_value(1),
    "with --ca-dir: endpoints each team registers, subscribed to every event");
  if (!c.prepare(argc, argv, mixed_operations()))
    return c.status;
  if (upload_side < 1 || upload_side > 4096 || (!ca_dir.empty() && endpoints_per_team == 0))
    return refuse("need 1 <= --upload-size <= 4096 and, with --ca-dir, --endpoints-per-team >= 1");
  if (!ca_dir.empty() && !c.o.server.endpoint.address().is_loopback())
    return refuse("webhooks (--ca-dir) need svcd on this machine: the receiver listens on 127.0.0.1");
  const auto endpoints = c.keys.size() * endpoints_per_team;
  std::optional<mixed_webhooks> hooks;
  std::string png;
  try {
    png = make_upload_png(upload_side);
    if (!ca_dir.empty()) {
      hooks.emplace(ca_dir, endpoints);
      if (auto error = hooks->register_endpoints(c.o.server, c.keys, endpoints_per_team); !error.empty())
        return refuse("mixed setup: " + error);
    }
  } catch (const std::exception& e) { // the receiver could not start (certificate, port), or no PNG
    return refuse(e.what());
  }
  auto r = c.record("mixed", mixed_operations(), argv0);
  if (hooks)
    hooks->open_window(c.o.duration);
  r.result = run_load(
    c.o, [&](std::size_t) { return make_mixed_source(c.o.server, c.keys, c.image, png, *c.mix, c.paced()); });
  if (hooks)
    r.webhooks = webhook_figures{endpoints, hooks->counts()};
  return report(r, c.l.out);
}

} // namespace svc::bench
