#include "core/metrics.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/metric_catalogue.hpp"
#include "core/process_stats.hpp"

BOOST_AUTO_TEST_SUITE(core_metrics)

namespace {

using namespace svc::core::metrics;

} // namespace

BOOST_AUTO_TEST_CASE(a_counter_renders_help_type_and_one_line_per_label_set) {
  registry r;
  auto& f = r.add_counter("svc_things_total", "Things done.", {"kind", "outcome"});
  f.with({"image", "ok"}).inc();
  f.with({"image", "ok"}).inc(2);
  f.with({"video", "failed"}).inc();
  BOOST_TEST(r.render()
             == "# HELP svc_things_total Things done.\n"
                "# TYPE svc_things_total counter\n"
                "svc_things_total{kind=\"image\",outcome=\"ok\"} 3\n"
                "svc_things_total{kind=\"video\",outcome=\"failed\"} 1\n");
}

BOOST_AUTO_TEST_CASE(a_counter_never_goes_down) {
  counter c;
  c.inc(5);
  c.inc(-3);
  c.reach(2);
  BOOST_TEST(c.value() == 5);
  c.reach(7.5);
  BOOST_TEST(c.value() == 7.5);
}

BOOST_AUTO_TEST_CASE(a_gauge_without_labels_renders_a_bare_name_and_fractions) {
  registry r;
  auto& g = r.add_gauge("svc_ratio", "A share.");
  g.get().set(0.25);
  g.get().add(-1);
  BOOST_TEST(r.render() == "# HELP svc_ratio A share.\n# TYPE svc_ratio gauge\nsvc_ratio -0.75\n");
}

BOOST_AUTO_TEST_CASE(a_histogram_renders_cumulative_buckets_sum_and_count) {
  registry r;
  auto& f = r.add_histogram("svc_wait_seconds", "Waits.", {"route"}, {0.1, 1});
  auto& h = f.with({"/v1/images/{id}"});
  h.observe(0.05);
  h.observe(0.1); // on the bound: inside it (le)
  h.observe(0.5);
  h.observe(4);
  BOOST_TEST(r.render()
             == "# HELP svc_wait_seconds Waits.\n"
                "# TYPE svc_wait_seconds histogram\n"
                "svc_wait_seconds_bucket{route=\"/v1/images/{id}\",le=\"0.1\"} 2\n"
                "svc_wait_seconds_bucket{route=\"/v1/images/{id}\",le=\"1\"} 3\n"
                "svc_wait_seconds_bucket{route=\"/v1/images/{id}\",le=\"+Inf\"} 4\n"
                "svc_wait_seconds_sum{route=\"/v1/images/{id}\"} 4.65\n"
                "svc_wait_seconds_count{route=\"/v1/images/{id}\"} 4\n");
}

BOOST_AUTO_TEST_CASE(label_values_are_escaped) {
  registry r;
  r.add_gauge("svc_g", "G.", {"v"}).with({"a\"b\\c\nd"}).set(1);
  BOOST_TEST(r.render().find("svc_g{v=\"a\\\"b\\\\c\\nd\"} 1\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_wrong_number_of_label_values_is_a_programming_error) {
  registry r;
  auto& f = r.add_counter("svc_c_total", "C.", {"a"});
  BOOST_CHECK_THROW(f.with({}), std::logic_error);
  BOOST_CHECK_THROW(f.with({"x", "y"}), std::logic_error);
}

BOOST_AUTO_TEST_CASE(concurrent_updates_are_all_counted) {
  registry r;
  auto& c = r.add_counter("svc_c_total", "C.", {"t"});
  auto& h = r.add_histogram("svc_h_seconds", "H.", {}, {1});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) {
        c.with({"x"}).inc();
        h.get().observe(0.5);
      }
    });
  for (auto& t : threads)
    t.join();
  BOOST_TEST(c.with({"x"}).value() == 40000);
  BOOST_TEST(h.get().count() == 40000u);
  BOOST_TEST(h.get().sum() == 20000);
}

BOOST_AUTO_TEST_CASE(values_render_as_prometheus_reads_them) {
  BOOST_TEST(format_value(3) == "3");
  BOOST_TEST(format_value(0.005) == "0.005");
  BOOST_TEST(format_value(1.0 / 0.0) == "+Inf");
  BOOST_TEST(status_class(204) == "2xx");
  BOOST_TEST(status_class(429) == "4xx");
}

BOOST_AUTO_TEST_CASE(the_process_reads_its_own_figures) {
  auto s = svc::core::read_process_stats();
  BOOST_REQUIRE(s.has_value());
  BOOST_TEST(s->resident_bytes > 0);
  BOOST_TEST(s->virtual_bytes >= s->resident_bytes);
  BOOST_TEST(s->open_fds >= 3); // stdin, stdout, stderr
  BOOST_TEST(s->max_fds >= s->open_fds);
  BOOST_TEST(s->start_time_seconds > 1.7e9);
}

// Each family's row starts `| \`name\` | type | label, label |`.
BOOST_AUTO_TEST_CASE(metrics_doc_lists_every_metric_of_the_catalogue) {
  std::ifstream in{SVC_METRICS_DOC};
  std::string doc{std::istreambuf_iterator<char>{in}, {}};
  BOOST_REQUIRE(!doc.empty());
  auto shapes = svc::core::metrics::svc().all.shapes();
  for (auto& f : shapes) {
    std::string labels;
    for (auto& l : f.labels)
      labels += (labels.empty() ? "" : ", ") + l;
    auto row = "| `" + f.name + "` | " + f.type + " | " + labels + (labels.empty() ? "|" : " |");
    BOOST_TEST(doc.find(row) != std::string::npos, "docs/metrics-and-logs.md's Metrics table has no row " << row);
  }
  BOOST_TEST(shapes.size() > 30u);
}

BOOST_AUTO_TEST_SUITE_END()
