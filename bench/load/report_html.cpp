// report.html of a run: written by svc-bench alone, one self-contained page
// (inline style and SVG, no script, no outside asset) that opens offline.
#include <cmath>
#include <map>

#include "bench/load/format.hpp"
#include "bench/load/latency_summary.hpp"
#include "bench/load/report_files.hpp"
#include "bench/load/svg_chart.hpp"
#include "schema/html_escape.hpp"

namespace svc::bench {
namespace {

// Histogram bars: this many to a decade of latency (about 12% wide each).
constexpr double bars_per_decade = 20;


std::string ms_cell(double v) { return v >= 1000 ? format("%.2f s", v / 1000) : format("%.3f ms", v); }

std::string operation_row(const std::string& name, const status_counts& counts, uint64_t ok,
                          const latency_histogram& latency, double seconds) {
  const auto s = summarize(latency);
  const auto requests = counts.total();
  return format("<tr><td>%s</td><td>%llu</td><td>%.1f</td><td>%llu</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                "<td>%s</td><td>%s</td></tr>\n",
                schema::escape_html(name).c_str(), static_cast<unsigned long long>(requests),
                seconds > 0 ? static_cast<double>(ok) / seconds : 0, static_cast<unsigned long long>(requests - ok),
                schema::escape_html(counts.to_text()).c_str(), ms_cell(s.p50_ms).c_str(), ms_cell(s.p90_ms).c_str(),
                ms_cell(s.p99_ms).c_str(), ms_cell(s.p999_ms).c_str(), ms_cell(s.max_ms).c_str());
}

std::string operations_table(const run_record& r) {
  std::string out = "<table>\n<tr><th>operation</th><th>requests</th><th>good/s</th><th>not good</th><th>answers</th>"
                    "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n";
  status_counts all;
  for (std::size_t k = 0; k < r.operations.size(); ++k) {
    all.merge(r.result.kinds[k].counts);
    out += operation_row(r.operations[k], r.result.kinds[k].counts, r.result.kinds[k].ok, r.result.kinds[k].latency,
                         r.result.seconds);
  }
  if (r.operations.size() > 1)
    out += operation_row("all", all, r.result.ok(), r.result.latency, r.result.seconds);
  return out + "</table>\n";
}

// Open loop, answers still come after the window (due inside it, awaited in
// the drain): the charts shade that part instead of leaving a dip unexplained.
double drain_from(const run_record& r) { return r.rate > 0 ? r.result.seconds : -1; }

std::string throughput_chart(const run_record& r) {
  chart_series requests{"requests/s", "#4e79a7", {}}, errors{"not good/s", "#e15759", {}},
    deliveries{"webhook deliveries/s", "#59a14f", {}}, target{"target rate", "#9c9c9c", {}};
  for (auto& row : r.result.series) {
    const auto x = static_cast<double>(row.second) + 0.5;
    requests.points.emplace_back(x, static_cast<double>(row.requests));
    errors.points.emplace_back(x, static_cast<double>(row.errors));
    if (r.webhooks) {
      const auto& d = r.webhooks->seen.per_second;
      deliveries.points.emplace_back(x, row.second < d.size() ? static_cast<double>(d[row.second]) : 0.0);
    }
  }
  std::vector<chart_series> lines{requests, errors};
  if (r.webhooks)
    lines.push_back(deliveries);
  if (r.rate > 0) {
    target.points = {{0.0, r.rate}, {r.result.seconds, r.rate}};
    lines.push_back(target);
  }
  return line_chart("Throughput: exchanges completed per second", {"seconds since start", false},
                    {"per second", false}, lines, drain_from(r), "drain");
}

std::string latency_chart(const run_record& r) {
  chart_series p50{"p50", "#4e79a7", {}}, p99{"p99", "#f28e2b", {}};
  for (auto& row : r.result.series) {
    const auto x = static_cast<double>(row.second) + 0.5;
    p50.points.emplace_back(x, row.p50_ms);
    p99.points.emplace_back(x, row.p99_ms);
  }
  const auto from = r.rate > 0 ? "from the intended send time" : "from the send";
  return line_chart(std::string{"Latency per second of the good answers ("} + from + ")",
                    {"seconds since start", false}, {"milliseconds (log)", true}, {p50, p99}, drain_from(r), "drain");
}

std::string histogram_svg(const run_record& r) {
  // The histogram's fine buckets, gathered into bars of equal width on the log axis.
  std::map<long, uint64_t> bins;
  for (auto& [index, n] : r.result.latency.nonzero()) {
    const auto low = latency_histogram::bucket_low(index), high = latency_histogram::bucket_high(index);
    const auto mid_ms = std::max(1.0, static_cast<double>(low + (high - low) / 2)) / 1e6;
    bins[static_cast<long>(std::floor(std::log10(mid_ms) * bars_per_decade))] += n;
  }
  std::vector<histogram_bar> bars;
  for (auto& [bin, n] : bins)
    bars.push_back({std::pow(10, static_cast<double>(bin) / bars_per_decade),
                    std::pow(10, static_cast<double>(bin + 1) / bars_per_decade), n});
  const auto s = summarize(r.result.latency);
  return histogram_chart("Latency histogram of the good answers", {"milliseconds (log)", true}, bars,
                         {{"p50 " + ms_cell(s.p50_ms), s.p50_ms, "#4e79a7"},
                          {"p99 " + ms_cell(s.p99_ms), s.p99_ms, "#f28e2b"},
                          {"p99.9 " + ms_cell(s.p999_ms), s.p999_ms, "#e15759"}});
}

std::string notes(const run_record& r) {
  const auto& res = r.result;
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::string out;
  if (r.rate > 0)
    out += format("<p>Open loop: %llu requests due but not sent by the end of the %.1f s drain (every connection "
                  "busy), at most %llu waiting for a connection at once, %llu unanswered. Latency runs from each "
                  "request's intended send time, so waiting for a connection counts.</p>\n",
                  u(res.unsent), r.drain_seconds, u(res.max_backlog), u(res.unfinished));
  if (r.webhooks) {
    const auto& w = r.webhooks->seen;
    const auto s = summarize(w.latency);
    out += format("<p>Webhooks: %zu endpoints; %llu verified deliveries in the window (%.1f/s), latency from the "
                  "event's <code>created_at</code> p50 %s, p99 %s; signature failures %llu, malformed %llu, "
                  "duplicates %llu.</p>\n",
                  r.webhooks->endpoints, u(w.deliveries),
                  res.seconds > 0 ? static_cast<double>(w.deliveries) / res.seconds : 0, ms_cell(s.p50_ms).c_str(),
                  ms_cell(s.p99_ms).c_str(), u(w.signature_failures), u(w.malformed), u(w.duplicates));
  }
  out += format("<p>svc-bench used %.2f s of CPU (%.0f%% of one core).</p>\n", res.client_cpu_s,
                res.seconds > 0 ? 100 * res.client_cpu_s / res.seconds : 0);
  return out;
}

} // namespace

std::string report_html(const run_record& r) {
  const auto mode = r.rate > 0 ? format("open loop at %g requests/s", r.rate) : std::string{"closed loop"};
  auto out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>svc-bench " + schema::escape_html(r.scenario)
             + "</title>\n<style>body{font-family:sans-serif;margin:24px;max-width:1100px;color:#222}"
               "table{border-collapse:collapse;margin:12px 0}th,td{padding:3px 8px;border-bottom:1px solid #ddd;"
               "text-align:right;font-size:13px;white-space:nowrap}th:first-child,td:first-child{text-align:left}"
               "code{background:#f3f3f3;padding:1px 4px;word-break:break-all}svg{display:block;margin:16px 0}"
               "</style></head><body>\n";
  out += "<h1>svc-bench " + schema::escape_html(r.scenario) + ": " + schema::escape_html(mode) + "</h1>\n";
  out += format("<p>Target %s, %zu connections over %zu keys, %zu io thread%s, a %.1f s window from %s",
                schema::escape_html(r.target).c_str(), r.connections, r.keys, r.threads, r.threads == 1 ? "" : "s", r.result.seconds,
                schema::escape_html(r.started_at).c_str());
  out += (r.mix.empty() ? std::string{} : ", mix <code>" + schema::escape_html(r.mix) + "</code>") + ". "
         + (r.clean() ? "Every answer was the one wanted." : "<strong>Some answers were not the ones wanted.</strong>")
         + "</p>\n";
  out += operations_table(r) + notes(r);
  out += throughput_chart(r) + latency_chart(r) + histogram_svg(r);
  out += "<p>Reproduce: <code>" + schema::escape_html(r.command) + "</code></p>\n</body></html>\n";
  return out;
}

} // namespace svc::bench
