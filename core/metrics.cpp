#include "core/metrics.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace svc::core::metrics {
namespace {

// std::atomic<double>::fetch_add is C++20.
void atomic_add(std::atomic<double>& a, double n) {
  auto old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, old + n, std::memory_order_relaxed))
    ;
}

void append_escaped(std::string& out, const std::string& value) {
  for (char c : value) {
    if (c == '\\' || c == '"')
      out.push_back('\\');
    if (c == '\n')
      out.append("\\n");
    else
      out.push_back(c);
  }
}

// `{a="x",b="y"}` with an optional extra pair (a histogram's `le`); empty when there are no labels.
std::string label_text(const std::vector<std::string>& names, const label_values& values,
                       const std::string& extra_name = {}, const std::string& extra_value = {}) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out.append(out.empty() ? "{" : ",").append(names[i]).append("=\"");
    append_escaped(out, values[i]);
    out.push_back('"');
  }
  if (!extra_name.empty())
    out.append(out.empty() ? "{" : ",").append(extra_name).append("=\"").append(extra_value).push_back('"');
  if (!out.empty())
    out.push_back('}');
  return out;
}

const char* type_name(const counter*) { return "counter"; }
const char* type_name(const gauge*) { return "gauge"; }
const char* type_name(const histogram*) { return "histogram"; }

void render_child(std::string& out, const std::string& name, const std::vector<std::string>& labels,
                  const label_values& values, const counter& c, const std::vector<double>&) {
  out.append(name).append(label_text(labels, values)).append(" ").append(format_value(c.value())).push_back('\n');
}

void render_child(std::string& out, const std::string& name, const std::vector<std::string>& labels,
                  const label_values& values, const gauge& g, const std::vector<double>&) {
  out.append(name).append(label_text(labels, values)).append(" ").append(format_value(g.value())).push_back('\n');
}

void render_child(std::string& out, const std::string& name, const std::vector<std::string>& labels,
                  const label_values& values, const histogram& h, const std::vector<double>& bounds) {
  // Buckets are read one by one while others may observe; the clamp keeps the rendered buckets monotonic and
  // `_count` equal to the +Inf bucket, as the format requires.
  std::vector<uint64_t> cumulative(bounds.size() + 1);
  for (size_t i = 0; i <= bounds.size(); ++i)
    cumulative[i] = h.cumulative(i);
  for (size_t i = 1; i < cumulative.size(); ++i)
    cumulative[i] = std::max(cumulative[i], cumulative[i - 1]);
  for (size_t i = 0; i <= bounds.size(); ++i) {
    auto le = i < bounds.size() ? format_value(bounds[i]) : std::string{"+Inf"};
    out.append(name).append("_bucket").append(label_text(labels, values, "le", le)).append(" ");
    out.append(std::to_string(cumulative[i])).push_back('\n');
  }
  auto lt = label_text(labels, values);
  out.append(name).append("_sum").append(lt).append(" ").append(format_value(h.sum())).push_back('\n');
  out.append(name).append("_count").append(lt).append(" ").append(std::to_string(cumulative.back())).push_back('\n');
}

} // namespace

void counter::inc(double n) {
  if (n > 0)
    atomic_add(value_, n);
}

void counter::reach(double v) {
  auto old = value_.load(std::memory_order_relaxed);
  while (old < v && !value_.compare_exchange_weak(old, v, std::memory_order_relaxed))
    ;
}

void gauge::add(double n) { atomic_add(value_, n); }

histogram::histogram(const std::vector<double>& bounds)
  : bounds_{bounds}, buckets_{new std::atomic<uint64_t>[bounds.size() + 1]} {
  for (size_t i = 0; i <= bounds.size(); ++i)
    buckets_[i].store(0, std::memory_order_relaxed);
}

void histogram::observe(double v) {
  size_t i = 0;
  while (i < bounds_.size() && v > bounds_[i])
    ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  atomic_add(sum_, v);
  count_.fetch_add(1, std::memory_order_relaxed);
}

uint64_t histogram::cumulative(size_t i) const {
  uint64_t n = 0;
  for (size_t b = 0; b <= i && b <= bounds_.size(); ++b)
    n += buckets_[b].load(std::memory_order_relaxed);
  return n;
}

template <class T>
T& family<T>::with(const label_values& values) {
  if (values.size() != labels_.size())
    throw std::logic_error{"metric " + name_ + " takes " + std::to_string(labels_.size()) + " label values"};
  std::lock_guard<std::mutex> guard{mutex_};
  auto& slot = children_[values];
  if (!slot) {
    if constexpr (std::is_same_v<T, histogram>)
      slot = std::make_unique<T>(bounds_);
    else
      slot = std::make_unique<T>();
  }
  return *slot;
}

template <class T>
void family<T>::render(std::string& out) const {
  out.append("# HELP ").append(name_).append(" ").append(help_).push_back('\n');
  out.append("# TYPE ").append(name_).append(" ").append(type_name(static_cast<const T*>(nullptr))).push_back('\n');
  std::lock_guard<std::mutex> guard{mutex_};
  for (auto& [values, child] : children_)
    render_child(out, name_, labels_, values, *child, bounds_);
}

template <class T>
family_shape family<T>::shape() const {
  return {name_, type_name(static_cast<const T*>(nullptr)), labels_};
}

template class family<counter>;
template class family<gauge>;
template class family<histogram>;

template <class T>
family<T>& registry::add(std::unique_ptr<family<T>> f) {
  auto& ref = *f;
  std::lock_guard<std::mutex> guard{mutex_};
  families_.push_back(std::move(f));
  return ref;
}

family<counter>& registry::add_counter(std::string name, std::string help, std::vector<std::string> labels) {
  return add(std::make_unique<family<counter>>(std::move(name), std::move(help), std::move(labels)));
}

family<gauge>& registry::add_gauge(std::string name, std::string help, std::vector<std::string> labels) {
  return add(std::make_unique<family<gauge>>(std::move(name), std::move(help), std::move(labels)));
}

family<histogram>& registry::add_histogram(std::string name, std::string help, std::vector<std::string> labels,
                                           std::vector<double> bounds) {
  return add(
    std::make_unique<family<histogram>>(std::move(name), std::move(help), std::move(labels), std::move(bounds)));
}

std::string registry::render() const {
  std::string out;
  std::lock_guard<std::mutex> guard{mutex_};
  for (auto& f : families_)
    f->render(out);
  return out;
}

std::vector<family_shape> registry::shapes() const {
  std::vector<family_shape> out;
  std::lock_guard<std::mutex> guard{mutex_};
  for (auto& f : families_)
    out.push_back(f->shape());
  return out;
}

std::string format_value(double v) {
  if (std::isinf(v))
    return v > 0 ? "+Inf" : "-Inf";
  if (std::isnan(v))
    return "NaN";
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
    return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

} // namespace svc::core::metrics
