// svc-bench: our load harness for a running svcd, over plain HTTP/1.1
// keep-alive on loopback only. Two scenarios:
//
//   svc-bench create --url http://127.0.0.1:PORT --keys FILE [--connections 64]
//                    [--duration 10s] [--threads 1] [--width 256 --height 256]
//     sustained POST /v1/images throughput: creates/s (201s only), answers by
//     status, p50/p90/p99/max latency of the 201s.
//
//   svc-bench create-poll --url ... --keys FILE [--per-team 130]
//                    [--poll-interval 200ms | --wait 10s] [--poll-connections 2]
//     each key's team creates N images as fast as its rate limit allows
//     (honouring 429 Retry-After and X-RateLimit-*), every job is polled until
//     terminal: create -> terminal p50/p99, terminal statuses, wall time.
//
//   svc-bench webhook --url ... --keys FILE --ca-dir DIR [--endpoints-per-team 8]
//                    [--rate 0 | --rate 2500] [--duration 10s] [--svcd-pid PID]
//     webhook deliveries to svc-bench's own HTTPS receiver, events made by
//     cancelling queued images: verified deliveries/s, event latency
//     (receipt - created_at) p50/p99, signature failures, duplicates, missing.
//   svc-bench webhook-ca --dir DIR
//     makes the receiver's test CA first (svcd --webhook-ca-file DIR/ca.pem).
//
// FILE holds one API key per line (one team per key). Each run prints its
// figures, the command that reproduces it and a `SUMMARY {...}` JSON line.
// bench/run-create-bench and bench/run-webhook-bench start svcd, create the
// teams and drive them.
// Exit status: 0 every answer as expected, 1 some were not (the figures are
// printed but suspect), 2 bad usage or a failed setup.
#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>
#include <string>

#include "bench/load/create_poll_scenario.hpp"
#include "bench/load/create_scenario.hpp"
#include "bench/load/webhook_scenario.hpp"
#include "core/duration.hpp"

namespace {

namespace po = boost::program_options;
using namespace svc::bench;

constexpr const char* usage =
  "usage: svc-bench create|create-poll|webhook --url http://127.0.0.1:PORT --keys FILE [options]\n"
  "       svc-bench webhook-ca --dir DIR\n"
  "       svc-bench create|create-poll|webhook --help\n";

// Shell-quotes `s` when it needs it, so a printed command can be pasted back.
std::string quoted(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.:,@")
                      == std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return out + "'";
}

struct common_args {
  std::string url, keys_file, prompt;
  int width = 256, height = 256;
};

void add_common(po::options_description& d, common_args& a) {
  d.add_options()("help,h", "this text")("url", po::value(&a.url)->required(), "svcd API base URL, loopback only")(
    "keys", po::value(&a.keys_file)->required(), "file with one API key per line (one team each)")(
    "width", po::value(&a.width)->default_value(256), "image width")(
    "height", po::value(&a.height)->default_value(256), "image height")(
    "prompt", po::value(&a.prompt)->default_value("a lighthouse at dusk"), "image prompt");
}

std::string common_command(const char* argv0, const char* scenario, const common_args& a) {
  return quoted(argv0) + " " + scenario + " --url " + quoted(a.url) + " --keys " + quoted(a.keys_file) + " --width "
         + std::to_string(a.width) + " --height " + std::to_string(a.height) + " --prompt " + quoted(a.prompt);
}

// Parses `argv` (after the scenario word) into `d`'s variables; false after
// printing help or an error. `status` is the exit status to return then.
bool parse(int argc, char** argv, const po::options_description& d, int& status) {
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, d), vm);
    if (vm.count("help")) {
      std::cout << usage << d;
      status = 0;
      return false;
    }
    po::notify(vm);
    return true;
  } catch (const po::error& e) {
    std::cerr << "svc-bench: " << e.what() << "\n" << usage;
    status = 2;
    return false;
  }
}

// Resolves the URL and keys shared by both scenarios; false after printing why not.
bool load_target(const common_args& a, target& server, std::vector<std::string>& keys, image_spec& image) {
  std::string error;
  auto t = parse_loopback_url(a.url, error);
  if (t)
    keys = read_keys(a.keys_file, error);
  if (!t || keys.empty() || a.width <= 0 || a.height <= 0) {
    std::cerr << "svc-bench: " << (error.empty() ? "--width and --height must be positive" : error) << "\n";
    return false;
  }
  server = *t;
  image = {a.prompt, a.width, a.height};
  return true;
}

bool read_duration(const std::string& text, const char* name, svc::core::duration& out) {
  auto d = svc::core::parse_duration(text);
  if (!d)
    std::cerr << "svc-bench: " << name << " '" << text << "' is not a duration (250ms, 10s, 2m)\n";
  else
    out = *d;
  return d.has_value();
}

int run_create_command(int argc, char** argv, const char* argv0) {
  common_args a;
  create_options o;
  std::string duration = "10s";
  po::options_description d("create options");
  add_common(d, a);
  d.add_options()("connections", po::value(&o.connections)->default_value(64), "keep-alive connections")(
    "duration", po::value(&duration)->default_value("10s"), "measured window")(
    "threads", po::value(&o.threads)->default_value(1), "io threads (connections are spread over them)");
  int status = 0;
  if (!parse(argc, argv, d, status))
    return status;
  if (!load_target(a, o.server, o.keys, o.image) || !read_duration(duration, "--duration", o.duration))
    return 2;
  if (o.connections == 0 || o.threads == 0 || o.threads > o.connections || o.duration.count() == 0) {
    std::cerr << "svc-bench: need --connections >= --threads >= 1 and a non-zero --duration\n";
    return 2;
  }
  const auto r = run_create(o);
  std::cout << create_report(o, r) << "reproduce: " << common_command(argv0, "create", a) << " --connections "
            << o.connections << " --duration " << svc::core::format_duration(o.duration) << " --threads "
            << o.threads << std::endl;
  return r.counts.of(201) > 0 && r.counts.other_than(201) == 0 ? 0 : 1;
}

int run_create_poll_command(int argc, char** argv, const char* argv0) {
  common_args a;
  create_poll_options o;
  std::string interval = "200ms", wait = "0s", timeout = "5m";
  po::options_description d("create-poll options");
  add_common(d, a);
  d.add_options()("per-team", po::value(&o.per_team)->default_value(130), "images each team creates")(
    "poll-interval", po::value(&interval)->default_value("200ms"), "between two GETs of one job")(
    "wait", po::value(&wait)->default_value("0s"), "whole seconds: GETs send Prefer: wait=N instead of sleeping")(
    "poll-connections", po::value(&o.poll_connections)->default_value(2), "GET connections per team")(
    "timeout", po::value(&timeout)->default_value("5m"), "give up on unfinished jobs after this");
  int status = 0;
  if (!parse(argc, argv, d, status))
    return status;
  svc::core::duration wait_ms{};
  if (!load_target(a, o.server, o.keys, o.image) || !read_duration(interval, "--poll-interval", o.poll_interval)
      || !read_duration(wait, "--wait", wait_ms) || !read_duration(timeout, "--timeout", o.timeout))
    return 2;
  if (o.per_team == 0 || o.poll_connections == 0 || wait_ms.count() % 1000 != 0) {
    std::cerr << "svc-bench: need --per-team >= 1, --poll-connections >= 1 and --wait in whole seconds\n";
    return 2;
  }
  o.wait = std::chrono::duration_cast<std::chrono::seconds>(wait_ms);
  const auto r = run_create_poll(o);
  std::cout << create_poll_report(o, r) << "reproduce: " << common_command(argv0, "create-poll", a) << " --per-team "
            << o.per_team << " --poll-interval " << svc::core::format_duration(o.poll_interval) << " --wait "
            << svc::core::format_duration(wait_ms) << " --poll-connections " << o.poll_connections << " --timeout "
            << svc::core::format_duration(o.timeout) << std::endl;
  return r.complete() ? 0 : 1;
}

int run_webhook_command(int argc, char** argv, const char* argv0) {
  common_args a;
  webhook_options o;
  std::string warmup = "1s", duration = "10s", drain = "15s";
  po::options_description d("webhook options");
  add_common(d, a);
  d.add_options()("ca-dir", po::value(&o.ca_dir)->required(), "the receiver's test CA (made if absent; svcd trusts "
                                                              "DIR/ca.pem through --webhook-ca-file)")(
    "endpoints-per-team", po::value(&o.endpoints_per_team)->default_value(8), "endpoints each team registers")(
    "subscribe", po::value(&o.subscribe)->default_value("mixed"),
    "all: events [\"*\"]; cancelled: [\"image.cancelled\"]; mixed: alternating")(
    "rate", po::value(&o.rate)->default_value(0), "deliveries/s to pace events at; 0: closed loop, max throughput")(
    "window", po::value(&o.window)->default_value(512), "closed loop: deliveries owed at most")(
    "connections", po::value(&o.connections)->default_value(16), "API connections sending cancels")(
    "receiver-threads", po::value(&o.receiver_threads)->default_value(1), "the HTTPS receiver's threads")(
    "pool", po::value(&o.pool)->default_value(0), "queued images made per team first (0: sized for the run)")(
    "warmup", po::value(&warmup)->default_value("1s"), "unmeasured time before the window")(
    "duration", po::value(&duration)->default_value("10s"), "measured window")(
    "drain", po::value(&drain)->default_value("15s"), "longest wait for owed deliveries after the window")(
    "svcd-pid", po::value(&o.svcd_pid)->default_value(0), "report this process's CPU per thread in the window");
  int status = 0;
  if (!parse(argc, argv, d, status))
    return status;
  if (!load_target(a, o.server, o.keys, o.image) || !read_duration(warmup, "--warmup", o.warmup)
      || !read_duration(duration, "--duration", o.duration) || !read_duration(drain, "--drain", o.drain))
    return 2;
  if (o.endpoints_per_team == 0 || o.connections == 0 || o.receiver_threads == 0 || o.duration.count() == 0
      || o.rate < 0 || (o.rate == 0 && o.window < o.endpoints_per_team)
      || (o.subscribe != "all" && o.subscribe != "cancelled" && o.subscribe != "mixed")) {
    std::cerr << "svc-bench: need --endpoints-per-team, --connections, --receiver-threads >= 1, a non-zero "
                 "--duration, --rate >= 0, --window >= --endpoints-per-team and --subscribe all|cancelled|mixed\n";
    return 2;
  }
  webhook_result r;
  try {
    r = run_webhook(o);
  } catch (const std::exception& e) { // the receiver could not start (certificate, port)
    std::cerr << "svc-bench: " << e.what() << "\n";
    return 2;
  }
  std::cout << webhook_report(o, r);
  if (!r.setup_error.empty())
    return 2;
  std::cout << "reproduce: " << common_command(argv0, "webhook", a) << " --ca-dir " << quoted(o.ca_dir)
            << " --endpoints-per-team " << o.endpoints_per_team << " --subscribe " << o.subscribe << " --rate "
            << o.rate << " --window " << o.window << " --connections " << o.connections << " --receiver-threads "
            << o.receiver_threads << " --pool " << o.pool << " --warmup " << svc::core::format_duration(o.warmup)
            << " --duration " << svc::core::format_duration(o.duration) << " --drain "
            << svc::core::format_duration(o.drain)
            << (o.svcd_pid > 0 ? " --svcd-pid " + std::to_string(o.svcd_pid) : "") << std::endl;
  return r.clean() ? 0 : 1;
}

int run_webhook_ca_command(int argc, char** argv) {
  std::string dir;
  po::options_description d("webhook-ca options");
  d.add_options()("help,h", "this text")("dir", po::value(&dir)->required(),
                                         "writes ca.pem, server.pem, server.key here unless they exist");
  int status = 0;
  if (!parse(argc, argv, d, status))
    return status;
  try {
    prepare_webhook_ca(dir);
  } catch (const std::exception& e) {
    std::cerr << "svc-bench: " << e.what() << "\n";
    return 2;
  }
  std::cout << dir << "/ca.pem\n";
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  const std::string scenario = argc > 1 ? argv[1] : "";
  if (scenario == "create")
    return run_create_command(argc - 1, argv + 1, argv[0]);
  if (scenario == "create-poll")
    return run_create_poll_command(argc - 1, argv + 1, argv[0]);
  if (scenario == "webhook")
    return run_webhook_command(argc - 1, argv + 1, argv[0]);
  if (scenario == "webhook-ca")
    return run_webhook_ca_command(argc - 1, argv + 1);
  std::fputs(usage, scenario == "-h" || scenario == "--help" ? stdout : stderr);
  return scenario == "-h" || scenario == "--help" ? 0 : 2;
}
