// The campaign's single svcd: the load, svcctl and the checks all go to it.
#include "deployment.hpp"

#include <chrono>

#include "checks.hpp"
#include "support/wait.hpp"

namespace svc::chaos {
namespace {

using namespace std::chrono_literals;

class one_svcd final : public deployment {
public:
  explicit one_svcd(const std::vector<std::string>& args) : svcd_{args} {}

  std::vector<load_target> targets() const override {
    return {{svcd_.api_url(), svcd_.admin_url(), svcd_.admin_token()}};
  }
  e2e::svcd_process& front() override { return svcd_; }
  std::vector<std::string> data_dirs() const override { return {svcd_.data_dir()}; }
  std::string owner_of(const std::string&) const override { return "svcd"; }
  std::string stir(std::mt19937_64&) override { return {}; }
  std::string kill_one(std::mt19937_64&) override {
    svcd_.kill9();
    return "svcd";
  }
  void restart() override {
    svcd_.start();
    if (!wait_ready(svcd_))
      throw std::runtime_error("GET /readyz did not answer 200 within 30 s\n" + svcd_.log_tail());
  }
  void check(check_context&) override {}
  std::string stop() override {
    if (!svcd_.running())
      return {};
    int status = svcd_.stop();
    return status == 0 ? std::string{} : "SIGTERM ended svcd with status " + std::to_string(status) + "\n" + svcd_.log_tail();
  }
  std::string keep() override {
    svcd_.keep_data_dir();
    return svcd_.data_dir() + " (svcd log: " + svcd_.log_path() + ")";
  }

private:
  e2e::svcd_process svcd_;
};

} // namespace

std::unique_ptr<deployment> single_node(const std::vector<std::string>& svcd_args) {
  return std::make_unique<one_svcd>(svcd_args);
}

bool wait_ready(const e2e::svcd_process& svcd) {
  e2e::http_client admin{svcd.admin_url()};
  return e2e::wait_until(
    [&] {
      try {
        return admin.get("/readyz").status == 200;
      } catch (const std::exception&) {
        admin.close();
        return false;
      }
    },
    30s, 50ms);
}

} // namespace svc::chaos
