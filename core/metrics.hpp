#pragma once
// A small thread-safe metrics registry rendered as Prometheus text (format
// 0.0.4): counters, gauges and fixed-bucket histograms, each a family of
// children keyed by label values. Updates are atomics; finding a child takes
// the family's mutex, so hot paths keep the reference they found.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace svc::core::metrics {

using label_values = std::vector<std::string>;

/// The one number of a counter or gauge, changed by any thread and read by
/// the scrape without a lock.
class single_value {
public:
  double value() const { return value_.load(std::memory_order_relaxed); }

protected:
  std::atomic<double> value_{0};
};

/// Only ever goes up (by non-negative amounts).
class counter : public single_value {
public:
  /// Adds `n` (>= 0).
  void inc(double n = 1);
  /// Raises the value to `v` if it is below: a counter sampled from a source that counts by itself.
  void reach(double v);
};

/// Goes up and down, or is set to what was sampled.
class gauge : public single_value {
public:
  void set(double v) { value_.store(v, std::memory_order_relaxed); }
  /// Adds `n` (negative to subtract).
  void add(double n);
};

/// Counts observations into buckets with fixed upper bounds (plus +Inf).
class histogram {
public:
  /// `bounds` ascending; they outlive the histogram (its family owns them).
  explicit histogram(const std::vector<double>& bounds);
  void observe(double v);
  /// Cumulative count of observations <= bounds[i]; i == bounds.size() is +Inf (all of them).
  uint64_t cumulative(size_t i) const;
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  double sum() const { return sum_.load(std::memory_order_relaxed); }

private:
  const std::vector<double>& bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_; ///< per bound, not cumulative; last is +Inf
  std::atomic<uint64_t> count_{0};
  std::atomic<double> sum_{0};
};

/// A family as documented: its name, type (`counter`, `gauge`, `histogram`) and label names.
struct family_shape {
  std::string name, type;
  std::vector<std::string> labels;
};

/// What the registry keeps of a family: something that renders itself.
class family_base {
public:
  virtual ~family_base() = default;
  /// Appends `# HELP`, `# TYPE` and one sample line per child (per bucket for histograms).
  virtual void render(std::string& out) const = 0;
  virtual family_shape shape() const = 0;
};

/// One metric name: its help, type, label names and children.
template <class T>
class family final : public family_base {
public:
  family(std::string name, std::string help, std::vector<std::string> labels, std::vector<double> bounds = {})
    : name_{std::move(name)}, help_{std::move(help)}, labels_{std::move(labels)}, bounds_{std::move(bounds)} {}

  /// The child for these label values (as many as label names), made on first use.
  T& with(const label_values& values);
  /// Calls `fn` on every child made so far (to zero gauges that sampled nothing this time).
  template <class F>
  void for_each(F fn) {
    std::lock_guard<std::mutex> guard{mutex_};
    for (auto& [values, child] : children_)
      fn(values, *child);
  }
  /// The only child of a family without labels.
  T& get() { return with({}); }
  void render(std::string& out) const override;
  family_shape shape() const override;

private:
  std::string name_, help_;
  std::vector<std::string> labels_;
  std::vector<double> bounds_;
  mutable std::mutex mutex_;
  std::map<label_values, std::unique_ptr<T>> children_;
};

/// Owns families in registration order and renders them all.
class registry {
public:
  family<counter>& add_counter(std::string name, std::string help, std::vector<std::string> labels = {});
  family<gauge>& add_gauge(std::string name, std::string help, std::vector<std::string> labels = {});
  family<histogram>& add_histogram(std::string name, std::string help, std::vector<std::string> labels,
                                   std::vector<double> bounds);
  /// The exposition text of every family.
  std::string render() const;
  /// Every family's shape, in registration order (docs/metrics-and-logs.md's table is checked against it).
  std::vector<family_shape> shapes() const;

private:
  template <class T>
  family<T>& add(std::unique_ptr<family<T>> f);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<family_base>> families_;
};

/// A sample value as Prometheus text writes it (`1`, `0.25`, `+Inf`).
std::string format_value(double v);

} // namespace svc::core::metrics
