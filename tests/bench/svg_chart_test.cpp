#include "bench/load/svg_chart.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(bench_svg_chart)

namespace {

using namespace svc::bench;

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

// Nothing a page would fetch or run.
void self_contained(const std::string& svg) {
  for (const char* bad : {"<script", "href", "src=", "url(", "<image", "<foreignObject"})
    BOOST_TEST(svg.find(bad) == std::string::npos, bad);
}

} // namespace

BOOST_AUTO_TEST_CASE(a_line_chart_draws_each_series_and_escapes_its_text) {
  const auto svg = line_chart("a <b> & \"c\"", {"seconds", false}, {"per second", false},
                              {{"requests/s", "#4e79a7", {{0.5, 10}, {1.5, 20}, {2.5, 15}}},
                               {"errors/s", "#e15759", {{0.5, 0}, {1.5, 1}, {2.5, 0}}}});
  BOOST_TEST(svg.rfind("<svg ", 0) == 0U);
  BOOST_TEST(svg.find("</svg>") != std::string::npos);
  BOOST_TEST(occurrences(svg, "<polyline") == 2U);
  BOOST_TEST(svg.find("a &lt;b&gt; &amp; &quot;c&quot;") != std::string::npos);
  BOOST_TEST(svg.find("<b>") == std::string::npos);
  BOOST_TEST(svg.find(">requests/s</text>") != std::string::npos);
  self_contained(svg);
}

BOOST_AUTO_TEST_CASE(the_part_after_the_window_is_shaded_and_named) {
  const std::vector<chart_series> lines{{"requests/s", "#4e79a7", {{0.5, 10}, {1.5, 20}, {2.5, 3}}}};
  const auto shaded = line_chart("t", {"s", false}, {"n", false}, lines, 2.0, "drain");
  BOOST_TEST(shaded.find(">drain</text>") != std::string::npos);
  BOOST_TEST(shaded.find("fill-opacity") != std::string::npos);
  const auto plain = line_chart("t", {"s", false}, {"n", false}, lines);
  BOOST_TEST(plain.find("fill-opacity") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_log_axis_breaks_the_line_where_a_value_is_zero) {
  const auto svg = line_chart("p99", {"seconds", false}, {"ms", true},
                              {{"p99", "#f28e2b", {{0.5, 1.5}, {1.5, 0}, {2.5, 120}, {3.5, 2}}}});
  BOOST_TEST(occurrences(svg, "<polyline") == 2U);
  BOOST_TEST(svg.find(">1000</text>") != std::string::npos); // the axis reaches the decade above 120
  self_contained(svg);
}

BOOST_AUTO_TEST_CASE(a_histogram_draws_a_bar_per_filled_bin_and_its_markers) {
  const auto svg = histogram_chart("latency", {"ms", true},
                                   {{0.1, 0.2, 5}, {0.2, 0.4, 0}, {1, 2, 40}, {10, 20, 1}},
                                   {{"p50 1.5 ms", 1.5, "#111111"}, {"p99 15 ms", 15, "#222222"}});
  BOOST_TEST(occurrences(svg, "fill=\"#4e79a7\"") == 3U);
  BOOST_TEST(occurrences(svg, "stroke-dasharray") == 2U);
  BOOST_TEST(svg.find(">p99 15 ms</text>") != std::string::npos);
  self_contained(svg);
}

BOOST_AUTO_TEST_CASE(empty_charts_still_draw_a_frame) {
  const auto lines = line_chart("nothing yet", {"s", false}, {"ms", true}, {{"p50", "#000000", {}}});
  const auto bars = histogram_chart("nothing yet", {"ms", true}, {}, {});
  BOOST_TEST(lines.find("</svg>") != std::string::npos);
  BOOST_TEST(bars.find("</svg>") != std::string::npos);
  BOOST_TEST(lines.find("nan") == std::string::npos);
  BOOST_TEST(bars.find("nan") == std::string::npos);
  BOOST_TEST(lines.find("inf") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
