#include "bench/load/operation_mix.hpp"

#include <algorithm>
#include <sstream>

namespace svc::bench {

std::optional<operation_mix> operation_mix::parse(const std::string& spec, const std::vector<std::string>& names,
                                                  std::string& error) {
  operation_mix m;
  m.weights_.assign(names.size(), 0);
  m.current_.assign(names.size(), 0);
  std::vector<bool> given(names.size(), false);
  std::istringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    const auto eq = item.find('=');
    const auto name = item.substr(0, eq);
    const auto at = std::find(names.begin(), names.end(), name) - names.begin();
    const auto digits = eq == std::string::npos ? std::string{} : item.substr(eq + 1);
    if (static_cast<std::size_t>(at) == names.size() || given[at] || digits.empty() || digits.size() > 7
        || digits.find_first_not_of("0123456789") != std::string::npos || std::stoull(digits) > 1'000'000) {
      std::string known;
      for (auto& n : names)
        known += (known.empty() ? "" : ", ") + n;
      error = "--mix '" + spec + "': each item is NAME=WEIGHT (NAME one of " + known
              + ", at most once; WEIGHT 0..1000000), near '" + item + "'";
      return std::nullopt;
    }
    given[at] = true;
    m.weights_[at] = std::stoull(digits);
    m.total_ += static_cast<int64_t>(m.weights_[at]);
  }
  if (m.total_ == 0) {
    error = "--mix '" + spec + "' gives no operation a positive weight";
    return std::nullopt;
  }
  return m;
}

std::size_t operation_mix::next() {
  // Each step every operation gains its weight; the one furthest ahead goes
  // and pays the total back (nginx's smooth weighted round robin).
  std::size_t best = 0;
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    current_[i] += static_cast<int64_t>(weights_[i]);
    if (current_[i] > current_[best])
      best = i;
  }
  current_[best] -= total_;
  return best;
}

std::string operation_mix::to_string(const std::vector<std::string>& names) const {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (weights_[i] > 0)
      out += (out.empty() ? "" : ",") + names[i] + "=" + std::to_string(weights_[i]);
  return out;
}

} // namespace svc::bench
