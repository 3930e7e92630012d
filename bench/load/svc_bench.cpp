// svc-bench: our load harness for a running svcd, over plain HTTP/1.1
// keep-alive. Scenarios (each one's --help lists its options):
//
//   create       POST /v1/images                                  } closed loop, or open loop at
//   read         GET /v1/images/{id} and GET /v1/team             } --rate N with latency from the
//   mixed        creates, polls, downloads, uploads and webhooks  } intended send time; --out DIR
//                                                                   writes summary.json,
//                                                                   timeseries.csv and report.html
//   create-poll  each team creates N images as fast as its rate limit allows
//                (honouring 429 Retry-After and X-RateLimit-*), every job is
//                polled until terminal: create -> terminal p50/p99, wall time.
//   webhook      webhook deliveries to svc-bench's own HTTPS receiver, events
//                made by cancelling queued images: verified deliveries/s,
//                event latency, signature failures, duplicates, missing.
//   webhook-ca   makes the receiver's test CA first (svcd --webhook-ca-file DIR/ca.pem).
//
// --keys FILE holds one API key per line (one team per key). Targets are
// loopback addresses; create, read and mixed take another host with
// --allow-remote. Each run prints its figures, a `SUMMARY {...}` JSON line and
// `reproduce: <the full command>`. bench/run-create-bench and
// bench/run-webhook-bench start svcd, create the teams and drive it.
// Exit status: 0 every answer as expected, 1 some were not (the figures are
// printed but suspect), 2 bad usage or a failed setup.
#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>
#include <string>

#include "bench/load/command_line.hpp"
#include "bench/load/create_poll_scenario.hpp"
#include "bench/load/load_commands.hpp"
#include "bench/load/webhook_scenario.hpp"
#include "core/duration.hpp"

namespace svc::bench {
namespace {

constexpr const char* usage =
  "usage: svc-bench create|read|mixed|create-poll|webhook --url http://127.0.0.1:PORT --keys FILE [options]\n"
  "       svc-bench webhook-ca --dir DIR\n"
  "       svc-bench SCENARIO --help     one scenario's options\n"
  "       svc-bench --help              every scenario's options\n";

int run_create_poll_command(int argc, char** argv, const char* argv0) {
  scenario_command c("create-poll: create -> terminal under the rate limits");
  create_poll_options o;
  std::string interval, wait, timeout;
  c.d.add_options()("per-team", po::value(&o.per_team)->default_value(130), "images each team creates")(
    "poll-interval", po::value(&interval)->default_value("200ms"), "between two GETs of one job")(
    "wait", po::value(&wait)->default_value("0s"), "whole seconds: GETs send Prefer: wait=N instead of sleeping")(
    "poll-connections", po::value(&o.poll_connections)->default_value(2), "GET connections per team")(
    "timeout", po::value(&timeout)->default_value("5m"), "give up on unfinished jobs after this");
  if (!c.parse(argc, argv))
    return c.status;
  svc::core::duration wait_ms{};
  if (!load_target(c.a, o.server, o.keys, o.image) || !read_duration(interval, "--poll-interval", o.poll_interval)
      || !read_duration(wait, "--wait", wait_ms) || !read_duration(timeout, "--timeout", o.timeout))
    return 2;
  if (o.per_team == 0 || o.poll_connections == 0 || wait_ms.count() % 1000 != 0)
    return refuse("need --per-team >= 1, --poll-connections >= 1 and --wait in whole seconds");
  o.wait = std::chrono::duration_cast<std::chrono::seconds>(wait_ms);
  const auto r = run_create_poll(o);
  std::cout << create_poll_report(o, r) << "reproduce: " << reproduce_command(argv0, "create-poll", c.vm) << std::endl;
  return r.complete() ? 0 : 1;
}

int run_webhook_command(int argc, char** argv, const char* argv0) {
  scenario_command c("webhook: verified webhook deliveries/s and event latency");
  webhook_options o;
  std::string warmup, duration, drain;
  c.d.add_options()("ca-dir", po::value(&o.ca_dir)->required(),
                    "the receiver's test CA (made if absent; svcd trusts DIR/ca.pem through --webhook-ca-file)")(
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
  if (!c.parse(argc, argv))
    return c.status;
  if (!load_target(c.a, o.server, o.keys, o.image) || !read_duration(warmup, "--warmup", o.warmup)
      || !read_duration(duration, "--duration", o.duration) || !read_duration(drain, "--drain", o.drain))
    return 2;
  if (o.endpoints_per_team == 0 || o.connections == 0 || o.receiver_threads == 0 || o.duration.count() == 0
      || o.rate < 0 || (o.rate == 0 && o.window < o.endpoints_per_team)
      || (o.subscribe != "all" && o.subscribe != "cancelled" && o.subscribe != "mixed"))
    return refuse("need --endpoints-per-team, --connections, --receiver-threads >= 1, a non-zero "
                  "--duration, --rate >= 0, --window >= --endpoints-per-team and --subscribe all|cancelled|mixed");
  webhook_result r;
  try {
    r = run_webhook(o);
  } catch (const std::exception& e) { // the receiver could not start (certificate, port)
    return refuse(e.what());
  }
  std::cout << webhook_report(o, r);
  if (!r.setup_error.empty())
    return 2;
  std::cout << "reproduce: " << reproduce_command(argv0, "webhook", c.vm) << std::endl;
  return r.clean() ? 0 : 1;
}

int run_webhook_ca_command(int argc, char** argv) {
  std::string dir;
  po::options_description d("webhook-ca: the receiver's test CA");
  d.add_options()("help,h", "this text")("dir", po::value(&dir)->required(),
                                         "writes ca.pem, server.pem, server.key here unless they exist");
  po::variables_map vm;
  int status = 0;
  if (!parse(argc, argv, d, vm, status))
    return status;
  try {
    prepare_webhook_ca(dir);
  } catch (const std::exception& e) {
    return refuse(e.what());
  }
  std::cout << dir << "/ca.pem\n";
  return 0;
}

using command = int (*)(int, char**, const char*);

struct scenario {
  const char* name;
  command run;
};

int webhook_ca(int argc, char** argv, const char*) { return run_webhook_ca_command(argc, argv); }

constexpr scenario scenarios[] = {{"create", run_create_command},           {"read", run_read_command},
                                  {"mixed", run_mixed_command},             {"create-poll", run_create_poll_command},
                                  {"webhook", run_webhook_command},         {"webhook-ca", webhook_ca}};

// `svc-bench --help`: the usage, then every scenario's own --help.
int print_help(const char* argv0) {
  std::cout << usage << "\n";
  for (auto& s : scenarios) {
    char help[] = "--help";
    std::string word = s.name;
    char* args[] = {word.data(), help};
    s.run(2, args, argv0);
  }
  return 0;
}

} // namespace
} // namespace svc::bench

int main(int argc, char** argv) {
  using namespace svc::bench;
  const std::string word = argc > 1 ? argv[1] : "";
  for (auto& s : scenarios)
    if (word == s.name)
      return s.run(argc - 1, argv + 1, argv[0]);
  if (word == "-h" || word == "--help")
    return print_help(argv[0]);
  std::fputs(usage, stderr);
  return 2;
}
