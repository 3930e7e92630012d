#pragma once
// Charts for report.html as inline SVG: lines over time and a histogram on a
// logarithmic value axis, drawn with SVG elements and presentation
// attributes only (no script, no stylesheet, no outside asset), so the
// report opens anywhere, offline.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace svc::bench {

/// One line: its legend name, an SVG colour and (x, y) points in x order.
struct chart_series {
  std::string name;
  std::string color;
  std::vector<std::pair<double, double>> points;
};

/// An axis: its label and whether it is logarithmic (then values <= 0 are not drawn).
struct chart_axis {
  std::string label;
  bool log = false;
};

/// A line chart of `series`, `width` x `height` pixels; the value axis starts
/// at 0 unless logarithmic. From x = `shade_from` on (when >= 0) the plot is
/// shaded and labelled `shade_label` (a run's drain after its window).
std::string line_chart(const std::string& title, const chart_axis& x, const chart_axis& y,
                       const std::vector<chart_series>& series, double shade_from = -1,
                       const std::string& shade_label = "", int width = 960, int height = 300);

/// A bar of a histogram: samples with values in [low, high).
struct histogram_bar {
  double low = 0;
  double high = 0;
  uint64_t count = 0;
};

/// A labelled vertical line (a percentile).
struct chart_marker {
  std::string name;
  double value = 0;
  std::string color;
};

/// Bars (values > 0) on a logarithmic x axis, counts on a linear y axis.
std::string histogram_chart(const std::string& title, const chart_axis& x, const std::vector<histogram_bar>& bars,
                            const std::vector<chart_marker>& markers, int width = 960, int height = 300);

} // namespace svc::bench
