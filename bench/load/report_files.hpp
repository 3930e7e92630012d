#pragma once
// The files of a create, read or mixed run given `--out DIR`: summary.json
// (the SUMMARY figures plus the latency histogram's buckets), timeseries.csv
// (one row a second) and report.html (tables and inline SVG charts made here,
// no script and no outside asset).

#include <string>

#include "bench/load/run_record.hpp"

namespace svc::bench {

/// Writes the three files into `dir`, made if absent; false with the reason in `error`.
bool write_run_files(const std::string& dir, const run_record& r, std::string& error);

/// timeseries.csv: `second,requests,errors,p50_ms,p99_ms` (plus
/// `webhook_deliveries` for a run with webhooks), then a row per second.
std::string timeseries_csv(const run_record& r);

/// report.html: the figures, throughput and p50/p99 over time, the latency histogram.
std::string report_html(const run_record& r);

} // namespace svc::bench
