#include "bench/load/run_record.hpp"

#include <boost/json.hpp>

#include "bench/load/format.hpp"
#include "bench/load/latency_summary.hpp"

namespace svc::bench {
namespace {

namespace json = boost::json;

json::object latency_json(const latency_histogram& h) {
  const auto s = summarize(h);
  return {{"count", s.count},     {"p50_ms", s.p50_ms},   {"p90_ms", s.p90_ms},
          {"p99_ms", s.p99_ms},   {"p999_ms", s.p999_ms}, {"max_ms", s.max_ms}};
}

json::object statuses_json(const status_counts& c) {
  json::object o;
  for (auto& [status, n] : c.by_status)
    o[std::to_string(status)] = n;
  return o;
}

double per_second(uint64_t n, double seconds) { return seconds > 0 ? static_cast<double>(n) / seconds : 0; }

json::object operation_json(const kind_result& k, double seconds) {
  const auto requests = k.counts.total();
  return {{"requests", requests},
          {"ok", k.ok},
          {"ok_per_s", per_second(k.ok, seconds)},
          {"errors", requests - k.ok},
          {"socket_errors", k.counts.errors},
          {"statuses", statuses_json(k.counts)},
          {"latency", latency_json(k.latency)}};
}

status_counts all_statuses(const load_result& r) {
  status_counts all;
  for (auto& k : r.kinds)
    all.merge(k.counts);
  return all;
}

std::string mode_text(const run_record& r) {
  return r.rate > 0 ? format("open loop at %g requests/s", r.rate) : std::string{"closed loop"};
}

} // namespace

bool run_record::clean() const {
  const bool answers = result.requests() > 0 && result.ok() == result.requests() && result.unsent == 0
                       && result.unfinished == 0;
  const bool deliveries = !webhooks
                          || (webhooks->seen.signature_failures == 0 && webhooks->seen.malformed == 0
                              && webhooks->seen.duplicates == 0);
  return answers && deliveries;
}

json::object summary_json(const run_record& r, bool with_histogram) {
  const auto& res = r.result;
  const auto all = all_statuses(res);
  json::object o{{"scenario", r.scenario},
                 {"mode", r.rate > 0 ? "open" : "closed"},
                 {"rate", r.rate},
                 {"target", r.target},
                 {"connections", r.connections},
                 {"threads", r.threads},
                 {"keys", r.keys}};
  if (!r.mix.empty())
    o["mix"] = r.mix;
  o["started_at"] = r.started_at;
  o["seconds"] = res.seconds;
  o["requests"] = res.requests();
  o["ok"] = res.ok();
  o["ok_per_s"] = per_second(res.ok(), res.seconds);
  o["errors"] = res.requests() - res.ok();
  o["socket_errors"] = all.errors;
  o["statuses"] = statuses_json(all);
  o["latency"] = latency_json(res.latency);
  json::object ops;
  for (std::size_t k = 0; k < r.operations.size(); ++k)
    ops[r.operations[k]] = operation_json(res.kinds[k], res.seconds);
  o["operations"] = std::move(ops);
  if (r.rate > 0)
    o["open_loop"] = json::object{{"unsent", res.unsent},
                                  {"max_backlog", res.max_backlog},
                                  {"unfinished", res.unfinished},
                                  {"drain_s", r.drain_seconds}};
  if (r.webhooks) {
    const auto& w = r.webhooks->seen;
    json::object types;
    for (auto& [type, n] : w.types)
      types[type] = n;
    o["webhooks"] = json::object{{"endpoints", r.webhooks->endpoints},
                                 {"deliveries", w.deliveries},
                                 {"deliveries_per_s", per_second(w.deliveries, res.seconds)},
                                 {"latency", latency_json(w.latency)},
                                 {"signature_failures", w.signature_failures},
                                 {"malformed", w.malformed},
                                 {"duplicates", w.duplicates},
                                 {"received", w.received},
                                 {"types", std::move(types)}};
  }
  o["client_cpu_s"] = res.client_cpu_s;
  o["clean"] = r.clean();
  o["command"] = r.command;
  if (with_histogram) {
    json::array buckets;
    for (auto& [index, n] : res.latency.nonzero())
      buckets.push_back(json::object{{"low_ms", static_cast<double>(latency_histogram::bucket_low(index)) / 1e6},
                                     {"high_ms", static_cast<double>(latency_histogram::bucket_high(index) + 1) / 1e6},
                                     {"count", n}});
    o["histogram"] = std::move(buckets);
  }
  return o;
}

std::string summary_text(const run_record& r) {
  const auto& res = r.result;
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  auto out = format("%s: %s, %zu connections over %zu keys, %zu io thread%s, %.1f s, target %s%s\n",
                    r.scenario.c_str(), mode_text(r).c_str(), r.connections, r.keys, r.threads,
                    r.threads == 1 ? "" : "s", res.seconds, r.target.c_str(),
                    r.mix.empty() ? "" : (", mix " + r.mix).c_str());
  const auto line = [&](const std::string& name, uint64_t requests, uint64_t ok, const std::string& answers,
                        const latency_histogram& h) {
    out += format("  %-9s %llu requests, %.1f ok/s%s%s\n            latency of the good answers: %s\n",
                  name.c_str(), u(requests), per_second(ok, res.seconds), answers.empty() ? "" : "; answers: ",
                  answers.c_str(), to_text(summarize(h)).c_str());
  };
  for (std::size_t k = 0; k < r.operations.size(); ++k)
    line(r.operations[k], res.kinds[k].counts.total(), res.kinds[k].ok, res.kinds[k].counts.to_text(),
         res.kinds[k].latency);
  if (r.operations.size() > 1)
    line("all", res.requests(), res.ok(), all_statuses(res).to_text(), res.latency);
  if (r.rate > 0)
    out += format("  open loop: %llu due but not sent by the end of the %.1f s drain (every connection busy), max "
                  "backlog %llu, %llu unanswered\n",
                  u(res.unsent), r.drain_seconds, u(res.max_backlog), u(res.unfinished));
  if (r.webhooks) {
    const auto& w = r.webhooks->seen;
    out += format("  webhooks: %zu endpoints, %llu verified deliveries (%.1f/s) in the window; latency (receipt - "
                  "created_at): %s; signature failures %llu, malformed %llu, duplicates %llu\n",
                  r.webhooks->endpoints, u(w.deliveries), per_second(w.deliveries, res.seconds),
                  to_text(summarize(w.latency)).c_str(), u(w.signature_failures), u(w.malformed), u(w.duplicates));
  }
  out += format("  svc-bench CPU: %.2f s (%.0f%% of one core)\n", res.client_cpu_s,
                res.seconds > 0 ? 100 * res.client_cpu_s / res.seconds : 0);
  return out;
}

} // namespace svc::bench
