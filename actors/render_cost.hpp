#pragma once
// A job's estimated engine seconds, which the fair queue charges its team at
// dispatch (and corrects by what the render took, when it ends). Work grows
// with the pixels a sampler steps over: an image's megapixels times its steps
// and outputs; a video's megapixels times its frames, each frame costing what
// several image steps do. The factors are rough averages (an SDXL-class
// model on one GPU); what matters for fairness is the ratio between jobs,
// and measured times correct each team's tag.

#include <algorithm>

#include "schema/job_record.hpp"

namespace svc::actors {

inline constexpr double seconds_per_megapixel_step = 0.05;
inline constexpr double seconds_per_megapixel_frame = 0.5;

inline double render_cost(const schema::job_record& r) {
  double megapixels = static_cast<double>(r.width) * static_cast<double>(r.height) / 1e6;
  double cost = r.kind == schema::job_kind::video
                  ? megapixels * r.duration_seconds * r.fps * seconds_per_megapixel_frame
                  : megapixels * std::max(r.steps, 1) * std::max(r.num_outputs, 1) * seconds_per_megapixel_step;
  return std::max(cost, 0.001); // a job is never free: its team's tag always moves
}

} // namespace svc::actors
