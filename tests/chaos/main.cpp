// svc-chaos: the crash campaign (see campaign.hpp; scripts/chaos builds and
// runs it). `svc-chaos [CYCLES] [--seed N] [--threads N] [--teams N]
// [--cluster N] [--keep] [-- SVCD-OPTIONS...]`; a run is reproduced, as far as thread timing allows,
// by its printed seed (and the same svcd options).
#include <csignal>
#include <exception>
#include <iostream>

#include "campaign.hpp"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  std::string error;
  auto options = svc::chaos::parse_options(argc, argv, error);
  if (!options) {
    std::cerr << error << "\n";
    return 2;
  }
  try {
    return svc::chaos::run_campaign(*options);
  } catch (const std::exception& e) {
    std::cerr << "svc-chaos: " << e.what() << "\n";
    return 1;
  }
}
