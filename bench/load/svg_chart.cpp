#include "bench/load/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include "bench/load/format.hpp"
#include "schema/html_escape.hpp"

namespace svc::bench {
namespace {

// Room around the plot for tick labels, the axis labels and the title.
constexpr double pad_left = 72, pad_right = 24, pad_top = 40, pad_bottom = 48;


// Maps values of [lo, hi] (their logarithms on a log axis) to pixels [from, to].
struct scale {
  double lo, hi;
  bool log;
  double from, to;

  double at(double v) const {
    const auto t = [this](double x) { return log ? std::log10(x) : x; };
    return from + (t(v) - t(lo)) / (t(hi) - t(lo)) * (to - from);
  }
};

// The bounds an axis shows for data in [lo, hi]: from 0 (linear) or the
// decades around the data (log), to a round number.
std::pair<double, double> axis_bounds(double lo, double hi, bool log) {
  if (log) {
    lo = std::pow(10, std::floor(std::log10(lo)));
    hi = std::pow(10, std::ceil(std::log10(hi)));
    return {lo, hi > lo ? hi : lo * 10};
  }
  if (hi <= 0)
    return {0, 1};
  const auto mag = std::pow(10, std::floor(std::log10(hi)));
  for (double f : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (f * mag >= hi)
      return {0, f * mag};
  return {0, 10 * mag};
}

// Ticks at 1, 2 or 5 x 10^k steps (linear), or at decades, with 2 and 5
// between them when the axis spans few decades (log).
std::vector<double> ticks(double lo, double hi, bool log) {
  std::vector<double> out;
  if (!(lo < hi) || !std::isfinite(lo) || !std::isfinite(hi) || (log && lo <= 0))
    return out;
  if (log) {
    const bool fine = std::log10(hi / lo) <= 3;
    for (auto d = std::pow(10, std::floor(std::log10(lo))); d <= hi * 1.0001; d *= 10)
      for (double f : {1.0, 2.0, 5.0})
        if ((f == 1.0 || fine) && d * f >= lo * 0.9999 && d * f <= hi * 1.0001)
          out.push_back(d * f);
    return out;
  }
  const auto raw = (hi - lo) / 5;
  const auto mag = std::pow(10, std::floor(std::log10(raw)));
  const auto f = raw / mag;
  const auto step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
  for (auto v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(v);
  return out;
}

std::string number(double v) { return format("%g", v); }

// The chart's frame: size, title, grid, ticks and axis labels.
std::string frame(const std::string& title, int width, int height, const scale& x, const scale& y,
                  const chart_axis& xa, const chart_axis& ya) {
  auto out = format("<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\" "
                    "font-family=\"sans-serif\" font-size=\"12\">\n",
                    width, height, width, height, schema::escape_html(title).c_str());
  out += format("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, height);
  out += format("<text x=\"%g\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", pad_left,
                schema::escape_html(title).c_str());
  for (auto v : ticks(x.lo, x.hi, x.log)) {
    const auto px = x.at(v);
    out += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", px, y.to, px, y.from);
    out += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px, y.from + 16,
                  number(v).c_str());
  }
  for (auto v : ticks(y.lo, y.hi, y.log)) {
    const auto py = y.at(v);
    out += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", x.from, py, x.to, py);
    out += format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", x.from - 6, py + 4,
                  number(v).c_str());
  }
  out += format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888888\"/>\n",
                x.from, y.to, x.to - x.from, y.from - y.to);
  out += format("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", (x.from + x.to) / 2, height - 8,
                schema::escape_html(xa.label).c_str());
  out += format("<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 16 %.1f)\">%s</text>\n",
                (y.from + y.to) / 2, (y.from + y.to) / 2, schema::escape_html(ya.label).c_str());
  return out;
}

// Legend entries in a row at the top right.
std::string legend(const std::vector<std::pair<std::string, std::string>>& entries, int width) {
  std::string out;
  auto x = static_cast<double>(width) - pad_right;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    x -= 14 + 7.0 * static_cast<double>(it->first.size());
    out += format("<rect x=\"%.1f\" y=\"12\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, schema::escape_html(it->second).c_str());
    out += format("<text x=\"%.1f\" y=\"21\">%s</text>\n", x + 13, schema::escape_html(it->first).c_str());
    x -= 10;
  }
  return out;
}

} // namespace

std::string line_chart(const std::string& title, const chart_axis& x, const chart_axis& y,
                       const std::vector<chart_series>& series, double shade_from, const std::string& shade_label,
                       int width, int height) {
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = 0;
  for (auto& s : series)
    for (auto& [px, py] : s.points) {
      x_lo = std::min(x_lo, px);
      x_hi = std::max(x_hi, px);
      if (!y.log || py > 0) {
        y_lo = std::min(y_lo, py);
        y_hi = std::max(y_hi, py);
      }
    }
  if (!x.log) // a time axis starts at 0
    x_lo = std::min(x_lo, 0.0);
  if (!(x_lo < x_hi)) { // no point, or one x
    x_lo = std::isfinite(x_lo) ? x_lo : 0;
    x_hi = x_lo + 1;
  }
  if (y.log && !(y_lo > 0 && y_lo <= y_hi)) // nothing a log axis can show
    y_lo = y_hi = 1;
  const auto [ylo, yhi] = axis_bounds(y_lo, y_hi, y.log);
  const scale xs{x_lo, x_hi, x.log, pad_left, width - pad_right};
  const scale ys{ylo, yhi, y.log, height - pad_bottom, pad_top};
  auto out = frame(title, width, height, xs, ys, x, y);
  if (shade_from >= x_lo && shade_from < x_hi) {
    const auto from = xs.at(shade_from);
    out += format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#000000\" "
                  "fill-opacity=\"0.06\"/>\n<text x=\"%.1f\" y=\"%.1f\" fill=\"#666666\">%s</text>\n",
                  from, ys.to, xs.to - from, ys.from - ys.to, from + 4, ys.to + 14, schema::escape_html(shade_label).c_str());
  }
  std::vector<std::pair<std::string, std::string>> names;
  for (auto& s : series) {
    names.emplace_back(s.name, s.color);
    // A point a log axis cannot show breaks the line.
    std::string points;
    const auto flush = [&] {
      if (!points.empty())
        out += format("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n",
                      schema::escape_html(s.color).c_str(), points.c_str());
      points.clear();
    };
    for (auto& [px, py] : s.points) {
      if (y.log && py <= 0) {
        flush();
        continue;
      }
      points += format("%s%.1f,%.1f", points.empty() ? "" : " ", xs.at(px), ys.at(py));
    }
    flush();
  }
  return out + legend(names, width) + "</svg>\n";
}

std::string histogram_chart(const std::string& title, const chart_axis& x, const std::vector<histogram_bar>& bars,
                            const std::vector<chart_marker>& markers, int width, int height) {
  double lo = INFINITY, hi = 0;
  uint64_t top = 0;
  for (auto& b : bars)
    if (b.low > 0 && b.count > 0) {
      lo = std::min(lo, b.low);
      hi = std::max(hi, b.high);
      top = std::max(top, b.count);
    }
  if (!(lo < hi))
    lo = 1, hi = 10;
  const auto [xlo, xhi] = axis_bounds(lo, hi, true);
  const auto [ylo, yhi] = axis_bounds(0, static_cast<double>(top), false);
  const scale xs{xlo, xhi, true, pad_left, width - pad_right};
  const scale ys{ylo, yhi, false, height - pad_bottom, pad_top};
  auto out = frame(title, width, height, xs, ys, {x.label, true}, {"requests", false});
  for (auto& b : bars) {
    if (b.low <= 0 || b.count == 0)
      continue;
    const auto x0 = xs.at(b.low), x1 = std::max(xs.at(b.high), x0 + 1);
    const auto y0 = ys.at(static_cast<double>(b.count));
    out += format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#4e79a7\"/>\n", x0, y0, x1 - x0,
                  ys.from - y0);
  }
  std::vector<std::pair<std::string, std::string>> names;
  for (auto& m : markers) {
    if (m.value <= 0)
      continue;
    const auto px = xs.at(m.value);
    out += format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>\n",
                  px, ys.to, px, ys.from, schema::escape_html(m.color).c_str());
    names.emplace_back(m.name, m.color);
  }
  return out + legend(names, width) + "</svg>\n";
}

} // namespace svc::bench
