#pragma once
// The share of each operation in a run (`--mix create=1,poll=4`): a smooth
// weighted round robin, so the sequence is deterministic and any stretch of
// it holds each operation close to its share (weights 1 and 4 give
// p p c p p, p p c p p, ...), unlike a random draw.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace svc::bench {

class operation_mix {
public:
  /// Parses `spec`, a comma-separated list of NAME=WEIGHT with NAME one of
  /// `names` (each at most once; a name left out has weight 0) and WEIGHT a
  /// whole number 0..1000000; at least one weight must be positive. Nothing,
  /// with the reason in `error`, otherwise.
  static std::optional<operation_mix> parse(const std::string& spec, const std::vector<std::string>& names,
                                            std::string& error);

  /// The next operation's index into the names.
  std::size_t next();

  /// Each name's weight, in the names' order.
  const std::vector<uint64_t>& weights() const { return weights_; }

  /// `create=1,poll=4` (names with weight 0 left out).
  std::string to_string(const std::vector<std::string>& names) const;

private:
  std::vector<uint64_t> weights_;
  std::vector<int64_t> current_;
  int64_t total_ = 0;
};

} // namespace svc::bench
