// After a restart, with every job ended: the blob folders of the data
// directory (persistence/FORMAT.md, "Blobs") hold exactly the bytes the
// records name. In a cluster, the records' bytes are in some node's folders;
// a shard's old copy may outlive its move there (a node restarted within the
// move's grace period keeps it, docs/cluster.md "Limits"), so orphans are
// not looked for.
#include <filesystem>
#include <map>

#include "checks.hpp"

namespace svc::chaos {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::directory_iterator(folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    out.push_back(it->path().filename().string());
  return out;
}

std::string output_name(const job_view& job, std::size_t index) {
  return job.id + "." + std::to_string(index) + (job.video ? ".mp4" : ".png");
}

} // namespace

void check_blobs(check_context& cx, const std::vector<team_view>& teams) {
  bool cluster = cx.data_dirs.size() > 1;
  std::map<std::string, const job_view*> jobs;
  std::map<std::string, bool> files; // id -> whether its blob is there
  for (auto& t : teams) {
    for (auto& [id, job] : t.jobs)
      jobs[id] = &job;
    for (auto& id : t.files)
      files[id] = false;
  }

  std::map<std::string, bool> outputs; // file name -> whether a succeeded job names it
  for (auto& [id, job] : jobs)
    if (job->status == "succeeded")
      for (std::size_t i = 0; i < job->outputs; ++i)
        outputs[output_name(*job, i)] = false;
  std::vector<std::string> output_names, file_names;
  for (auto& dir : cx.data_dirs) {
    auto root = fs::path{dir} / "blobs";
    for (auto& name : names_in(root / "outputs"))
      output_names.push_back(name);
    for (auto& name : names_in(root / "files"))
      file_names.push_back(name);
  }
  for (auto& name : output_names) {
    if (name.find(".tmp-") != std::string::npos) {
      cx.report("no-temp-blob", "outputs/" + name, "a temp file outlived the restart and the jobs");
      continue;
    }
    if (auto it = outputs.find(name); it != outputs.end()) {
      it->second = true;
      continue;
    }
    if (cluster)
      continue;
    auto job = jobs.find(name.substr(0, name.find('.')));
    cx.report("no-orphan-blob", "outputs/" + name,
              job == jobs.end() ? "no job of any team has its id"
                                : "its job is '" + job->second->status + "' with "
                                    + std::to_string(job->second->outputs) + " outputs");
  }
  for (auto& [name, there] : outputs)
    if (!there)
      cx.report("record-has-blob", "outputs/" + name, "its job succeeded, but the output's bytes are gone");

  for (auto& name : file_names) {
    if (name.find(".tmp-") != std::string::npos)
      cx.report("no-temp-blob", "files/" + name, "a temp file outlived the restart");
    else if (auto it = files.find(name); it != files.end())
      it->second = true;
    else if (!cluster)
      cx.report("no-orphan-blob", "files/" + name, "no team lists a file with this id");
  }
  for (auto& [id, there] : files)
    if (!there)
      cx.report("record-has-blob", "files/" + id, "GET /v1/files lists it, but its bytes are gone");
}

} // namespace svc::chaos
