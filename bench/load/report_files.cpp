#include "bench/load/report_files.hpp"

#include <filesystem>
#include <fstream>

#include "bench/load/format.hpp"
#include "bench/load/json_text.hpp"

namespace svc::bench {
namespace {

bool write_file(const std::filesystem::path& path, const std::string& text, std::string& error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    error = "cannot write " + path.string();
  return static_cast<bool>(out);
}

} // namespace

std::string timeseries_csv(const run_record& r) {
  const auto* deliveries = r.webhooks ? &r.webhooks->seen.per_second : nullptr;
  std::string out = deliveries ? "second,requests,errors,p50_ms,p99_ms,webhook_deliveries\n"
                               : "second,requests,errors,p50_ms,p99_ms\n";
  for (auto& row : r.result.series) {
    out += format("%llu,%llu,%llu,%.3f,%.3f", static_cast<unsigned long long>(row.second),
                  static_cast<unsigned long long>(row.requests), static_cast<unsigned long long>(row.errors),
                  row.p50_ms, row.p99_ms);
    if (deliveries)
      out += format(",%llu", static_cast<unsigned long long>(
                                 row.second < deliveries->size() ? (*deliveries)[row.second] : uint64_t{0}));
    out += "\n";
  }
  return out;
}

bool write_run_files(const std::string& dir, const run_record& r, std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    error = "cannot make " + dir + ": " + ec.message();
    return false;
  }
  const std::filesystem::path d(dir);
  return write_file(d / "summary.json", json_text(summary_json(r, true)) + "\n", error)
         && write_file(d / "timeseries.csv", timeseries_csv(r), error)
         && write_file(d / "report.html", report_html(r), error);
}

} // namespace svc::bench
