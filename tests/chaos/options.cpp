#include "options.hpp"

#include <algorithm>
#include <random>
#include <string_view>

namespace svc::chaos {
namespace {

constexpr std::string_view usage =
  "usage: svc-chaos [CYCLES] [--seed N] [--threads N] [--teams N] [--cluster N] [--keep] [-- SVCD-OPTIONS...]";

std::optional<std::uint64_t> number(std::string_view text) {
  if (text.empty() || text.size() > 18)
    return std::nullopt;
  std::uint64_t n = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return n;
}

} // namespace

std::optional<campaign_options> parse_options(int argc, char** argv, std::string& error) {
  campaign_options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--keep") {
      o.keep = true;
      continue;
    }
    if (arg == "--") {
      o.svcd_args.assign(argv + i + 1, argv + argc);
      break;
    }
    bool takes_value = arg == "--seed" || arg == "--threads" || arg == "--teams" || arg == "--cluster";
    auto value = takes_value && i + 1 < argc ? number(argv[++i]) : number(arg);
    if (!value) {
      error = std::string{usage} + " (bad argument '" + std::string{arg} + "')";
      return std::nullopt;
    }
    // Counts past the limits below stay past them, and fit an int.
    auto count = static_cast<int>(std::min<std::uint64_t>(*value, 1'000'000'000));
    if (arg == "--seed")
      o.seed = *value;
    else if (arg == "--threads")
      o.threads = count;
    else if (arg == "--teams")
      o.teams = count;
    else if (arg == "--cluster")
      o.cluster = count;
    else
      o.cycles = count;
  }
  if (o.cycles < 1 || o.cycles > 1'000'000 || o.threads < 1 || o.threads > 64 || o.teams < 1 || o.teams > 16 ||
      (o.cluster != 0 && (o.cluster < 2 || o.cluster > 5))) {
    error = std::string{usage} + " (CYCLES 1..1000000, --threads 1..64, --teams 1..16, --cluster 2..5)";
    return std::nullopt;
  }
  if (o.seed == 0)
    o.seed = std::random_device{}() | 1;
  return o;
}

} // namespace svc::chaos
