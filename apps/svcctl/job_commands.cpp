// job show | cancel
#include "apps/svcctl/admin_client.hpp"
#include "apps/svcctl/command.hpp"
#include "apps/svcctl/url_text.hpp"

namespace svc::ctl {
namespace {

void declare_job(po::options_description& d) {
  d.add_options()("job", po::value<std::string>()->required(), "the image's or video's id (img_... or vid_...)");
}

std::string job_path(const po::variables_map& vm) { return "/admin/jobs/" + percent_encode(text_of(vm, "job")); }

} // namespace

std::vector<command> job_commands() {
  return {
    {"job show", "--job JOB_ID", "any team's image or video, with its team_id", declare_job,
     [](const po::variables_map& vm, const global_options& g) { return send_admin_request(g, "GET", job_path(vm)); }},
    {"job cancel", "--job JOB_ID", "cancel a queued or rendering job; its held credits go back to its team",
     declare_job,
     [](const po::variables_map& vm, const global_options& g) {
       return send_admin_request(g, "POST", job_path(vm) + "/cancel");
     }},
  };
}

} // namespace svc::ctl
