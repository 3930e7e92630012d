#include "persistence/orphan_blobs.hpp"

#include <optional>
#include <string>
#include <string_view>

#include "core/log.hpp"

namespace svc::persistence {
namespace {

enum class verdict { keep, orphan, unknown };

// A parsed output name: `<job id>.<index>.<ext>`.
struct output_name {
  std::string job_id;
  std::size_t index = 0;
  std::string_view ext;
};

std::optional<output_name> parse_output_name(std::string_view name) {
  auto last = name.rfind('.');
  if (last == std::string_view::npos)
    return std::nullopt;
  auto ext = name.substr(last + 1);
  auto rest = name.substr(0, last);
  auto dot = rest.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || (ext != "png" && ext != "mp4"))
    return std::nullopt;
  auto digits = rest.substr(dot + 1);
  if (digits.empty() || digits.size() > 3)
    return std::nullopt;
  std::size_t index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9')
      return std::nullopt;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return output_name{std::string{rest.substr(0, dot)}, index, ext};
}

verdict judge_output(const tables& t, std::string_view name) {
  auto parsed = parse_output_name(name);
  if (!parsed)
    return verdict::keep; // not a name Svc writes: not ours to judge
  auto job = t.jobs.get(parsed->job_id);
  if (job.failed())
    return verdict::unknown;
  if (job.absent())
    return verdict::orphan;
  if (!schema::is_terminal(job->status))
    return verdict::keep;
  bool named = job->status == schema::job_status::succeeded && parsed->index < job->outputs.size()
               && schema::output_blob_key(*job, parsed->index) == "outputs/" + std::string{name};
  return named ? verdict::keep : verdict::orphan;
}

verdict judge_file(const tables& t, std::string_view name) {
  auto file = t.files.get(name);
  if (file.failed())
    return verdict::unknown;
  return file.absent() ? verdict::orphan : verdict::keep;
}

} // namespace

orphan_sweep remove_orphan_blobs(const tables& t, file_blob_store& blobs, core::time_point started) {
  orphan_sweep out;
  for (std::string_view folder : {"outputs", "files"}) {
    for (auto& blob : blobs.list(folder)) {
      auto name = std::string_view{blob.key}.substr(folder.size() + 1);
      auto v = blob.written >= started ? verdict::keep
               : folder == "outputs"   ? judge_output(t, name)
                                       : judge_file(t, name);
      if (v == verdict::keep) {
        ++out.kept;
      } else if (v == verdict::unknown) {
        ++out.unreadable;
      } else if (auto st = blobs.remove(blob.key); st.ok()) {
        ++out.removed;
      } else {
        ++out.failed;
        core::log_warn("blobs", "orphan " + blob.key + " not removed: " + st.message);
      }
    }
  }
  return out;
}

} // namespace svc::persistence
