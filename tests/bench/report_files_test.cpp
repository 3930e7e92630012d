#include "bench/load/report_files.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/load/json_text.hpp"

BOOST_AUTO_TEST_SUITE(bench_report_files)

namespace {

using namespace svc::bench;
using namespace std::chrono_literals;
namespace json = boost::json;

// A mixed open-loop run of 3 s: 2 operations, some errors, webhook deliveries.
run_record sample_run() {
  run_record r;
  r.scenario = "mixed";
  r.operations = {"create", "poll"};
  r.mix = "create=1,poll=4";
  r.target = "127.0.0.1:8080";
  r.rate = 100;
  r.connections = 8;
  r.threads = 1;
  r.keys = 2;
  r.drain_seconds = 5;
  r.started_at = "2026-11-23T10:00:00.000Z";
  r.command = "svc-bench mixed --url http://127.0.0.1:8080 --prompt 'a <cat>'";
  auto& res = r.result;
  res.seconds = 3;
  res.kinds.resize(2);
  for (int i = 0; i < 60; ++i) {
    res.kinds[0].counts.add(201);
    res.kinds[0].latency.record(std::chrono::milliseconds{2 + i % 5});
  }
  res.kinds[0].ok = 60;
  res.kinds[0].counts.add(429);
  res.kinds[1].counts.add(0);
  for (int i = 0; i < 239; ++i) {
    res.kinds[1].counts.add(200);
    res.kinds[1].latency.record(std::chrono::microseconds{300 + i});
  }
  res.kinds[1].ok = 239;
  for (auto& k : res.kinds)
    res.latency.merge(k.latency);
  res.series = {{0, 100, 1, 0.5, 4.0}, {1, 100, 0, 0.4, 3.0}, {2, 101, 1, 0.45, 6.0}};
  res.unsent = 0;
  res.max_backlog = 3;
  webhook_figures w;
  w.endpoints = 2;
  w.seen.deliveries = 7;
  w.seen.per_second = {3, 4};
  w.seen.latency.record(5ms);
  r.webhooks = w;
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

} // namespace

BOOST_AUTO_TEST_CASE(the_csv_has_a_header_and_a_row_per_second) {
  const auto lines = lines_of(timeseries_csv(sample_run()));
  BOOST_TEST_REQUIRE(lines.size() == 4U);
  BOOST_TEST(lines[0] == "second,requests,errors,p50_ms,p99_ms,webhook_deliveries");
  BOOST_TEST(lines[1] == "0,100,1,0.500,4.000,3");
  BOOST_TEST(lines[3] == "2,101,1,0.450,6.000,0");
  auto plain = sample_run();
  plain.webhooks.reset();
  BOOST_TEST(lines_of(timeseries_csv(plain))[0] == "second,requests,errors,p50_ms,p99_ms");
}

BOOST_AUTO_TEST_CASE(the_summary_holds_totals_operations_and_open_loop_figures) {
  const auto r = sample_run();
  auto v = json::parse(json_text(summary_json(r, true)));
  auto& o = v.as_object();
  BOOST_TEST(o.at("scenario").as_string() == "mixed");
  BOOST_TEST(o.at("mode").as_string() == "open");
  BOOST_TEST(o.at("requests").to_number<int>() == 301);
  BOOST_TEST(o.at("ok").to_number<int>() == 299);
  BOOST_TEST(o.at("errors").to_number<int>() == 2);
  BOOST_TEST(o.at("socket_errors").to_number<int>() == 1);
  BOOST_TEST(o.at("statuses").as_object().at("429").to_number<int>() == 1);
  for (const char* p : {"p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms"})
    BOOST_TEST(o.at("latency").as_object().contains(p), p);
  BOOST_TEST(o.at("operations").as_object().at("poll").as_object().at("ok").to_number<int>() == 239);
  BOOST_TEST(o.at("open_loop").as_object().at("max_backlog").to_number<int>() == 3);
  BOOST_TEST(o.at("webhooks").as_object().at("deliveries").to_number<int>() == 7);
  BOOST_TEST(o.at("clean").as_bool() == false);
  BOOST_TEST(o.at("histogram").as_array().size() > 1U);
  BOOST_TEST(!summary_json(r, false).contains("histogram"));
}

BOOST_AUTO_TEST_CASE(clean_means_every_answer_wanted_and_nothing_left_behind) {
  auto r = sample_run();
  BOOST_TEST(!r.clean());
  r.result.kinds[0].counts = {};
  r.result.kinds[1].counts = {};
  r.result.kinds[0].counts.by_status[201] = 60;
  r.result.kinds[1].counts.by_status[200] = 239;
  BOOST_TEST(r.clean());
  r.result.unsent = 1;
  BOOST_TEST(!r.clean());
  r.result.unsent = 0;
  r.webhooks->seen.signature_failures = 1;
  BOOST_TEST(!r.clean());
}

BOOST_AUTO_TEST_CASE(the_report_is_one_page_with_three_charts_and_nothing_from_outside) {
  const auto html = report_html(sample_run());
  BOOST_TEST(html.rfind("<!DOCTYPE html>", 0) == 0U);
  std::size_t charts = 0;
  for (auto at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1))
    ++charts;
  BOOST_TEST(charts == 3U);
  for (const char* bad : {"<script", "<link", "src=", "href=", "@import", "url("})
    BOOST_TEST(html.find(bad) == std::string::npos, bad);
  BOOST_TEST(html.find("--prompt 'a &lt;cat&gt;'") != std::string::npos);
  BOOST_TEST(html.find(">poll</td>") != std::string::npos);
  BOOST_TEST(html.find("webhook deliveries/s") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_three_files_land_in_the_directory_made_for_them) {
  const auto dir = std::filesystem::temp_directory_path() / ("svc-bench-report-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto r = sample_run();
  std::string error;
  BOOST_TEST_REQUIRE(write_run_files((dir / "nested").string(), r, error), error);
  BOOST_TEST(read_file(dir / "nested" / "timeseries.csv") == timeseries_csv(r));
  BOOST_TEST(read_file(dir / "nested" / "report.html") == report_html(r));
  BOOST_TEST(json::parse(read_file(dir / "nested" / "summary.json")).as_object().contains("histogram"));
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
