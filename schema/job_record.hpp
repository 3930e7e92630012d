#pragma once
// A generation job (an image or a video) as Svc stores it: the validated
// request, the resolved adapters, the price, where it stands and what it
// produced. `stored_json.hpp` gives its stored form, `job_view.hpp` its wire form
// (derived as `record_view.hpp` says, with the markers after the struct).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe/enum.hpp>

#include "core/clock.hpp"
#include "schema/correlation.hpp"
#include "schema/lora_resolution.hpp"
#include "schema/records.hpp"
#include "core/described.hpp"
#include "schema/stored_field.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// Images and videos share one state machine and one record.
enum class job_kind : uint8_t { image, video };
BOOST_DESCRIBE_ENUM(job_kind, image, video)

/// `image` or `video` (the record's `object`).
std::string_view to_string(job_kind k);
/// The id prefix of a kind: `img` or `vid`.
std::string_view id_prefix(job_kind k);
/// The kind an id names by its prefix, if any.
std::optional<job_kind> job_kind_of_id(std::string_view id);

/// The statuses of decisions.md; the last five are terminal.
enum class job_status : uint8_t { queued, processing, succeeded, failed, cancelled, expired, moderation_rejected };
BOOST_DESCRIBE_ENUM(job_status, queued, processing, succeeded, failed, cancelled, expired, moderation_rejected)

/// The wire name (`moderation_rejected`).
std::string_view to_string(job_status s);
/// The status with this wire name, if any.
std::optional<job_status> job_status_from_name(std::string_view name);
/// True for every status polling stops at.
bool is_terminal(job_status s);

/// One stored output file.
struct job_output {
  std::string content_type; ///< `image/png`, `video/mp4`
  uint64_t bytes = 0;
  int width = 0;
  int height = 0;
  std::string sha256;       ///< lowercase hex of the bytes; also the ETag
};
SVC_DESCRIBE(job_output, (content_type, bytes, width, height, sha256))

/// Why a job failed.
struct job_failure {
  std::string code;    ///< `provider_error`, `provider_timeout`, `provider_unavailable`, `moderation`, `queue_expired`, ...
  std::string message;
};
SVC_DESCRIBE(job_failure, (code, message))

struct job_record {
  std::string id;        ///< `img_...` or `vid_...`
  std::string team_id;
  job_kind kind = job_kind::image;
  job_status status = job_status::queued;

  // The request, validated.
  std::string prompt;
  std::string negative_prompt;
  int width = 0;
  int height = 0;
  int num_outputs = 1;      ///< images; always 1 for a video
  uint32_t seed = 0;        ///< given or drawn at create, echoed back
  int steps = 30;           ///< images
  int duration_seconds = 0; ///< videos
  int fps = 0;              ///< videos
  std::vector<resolved_lora> loras;
  lora_selection selection = lora_selection::none;
  std::optional<std::string> init_image; ///< a `file_` id
  std::map<std::string, std::string> metadata;
  std::string api_version;  ///< pins the price table and the rendering of events
  std::string model;        ///< the catalogue model that renders it (resolved at create; empty in rows stored before models)

  // The money.
  int64_t credits = 0;                      ///< the price held at create
  hold_status cost_status = hold_status::held;

  // Progress and results.
  double progress = 0;                      ///< 0..1
  std::vector<job_output> outputs;          ///< index i is output URL i
  std::optional<core::time_point> outputs_expire_at;
  std::optional<job_failure> failure;

  core::time_point created_at;
  std::optional<core::time_point> started_at;
  std::optional<core::time_point> completed_at;
  /// The queue deadline a restart gave this job when it found it
  /// `processing` (its render died with the process): set once, the first
  /// time, and kept by later restarts. Absent: `created_at` + `--queue-ttl`.
  std::optional<core::time_point> requeue_deadline;
  /// The create request, sent on with the job's back-end calls and its events'
  /// deliveries. None for jobs stored before it was kept.
  schema::correlation correlation;
  /// The engines its renders failed on, in order ("" for the local back
  /// end): each failure re-queued it, up to `--render-attempts` renders.
  std::vector<std::string> engine_failures;
};
SVC_DESCRIBE(job_record, (id, team_id, kind, status, prompt, negative_prompt, width, height, num_outputs, seed, steps, duration_seconds, fps, loras, selection, init_image, metadata, api_version, model, credits, cost_status, progress, outputs, outputs_expire_at, failure, created_at, started_at, completed_at, requeue_deadline, correlation, engine_failures))
SVC_STORED_KEY(job_record, selection, "lora_selection")
SVC_STORED_SINCE(job_record, requeue_deadline)
SVC_STORED_SINCE(job_record, correlation)
SVC_STORED_WHEN_SET(job_record, model)
SVC_STORED_WHEN_SET(job_record, engine_failures)
SVC_VIEW_HIDDEN(job_record, team_id)
SVC_VIEW_KEY(job_record, kind, "object")
SVC_VIEW_WHEN(job_record, duration_seconds, is_video)
SVC_VIEW_WHEN(job_record, fps, is_video)
SVC_VIEW_WHEN(job_record, model, has_model)
SVC_VIEW_KEY(job_record, selection, "lora_selection")
SVC_VIEW_OWN(job_record, outputs) // with `output_urls` before it, signed by job_view.cpp
SVC_VIEW_OWN(job_record, outputs_expire_at) // null until the job succeeded (job_view.cpp)
SVC_VIEW_IN(job_record, credits, "cost")
SVC_VIEW_IN(job_record, cost_status, "cost")
SVC_VIEW_KEY(job_record, cost_status, "status")
SVC_VIEW_HIDDEN(job_record, requeue_deadline)
SVC_VIEW_HIDDEN(job_record, correlation)
SVC_VIEW_HIDDEN(job_record, engine_failures)
SVC_VIEW_ORDER(job_record, (id, kind, status, model, prompt, negative_prompt, width, height, duration_seconds, fps, num_outputs, seed, steps, loras, selection, init_image, progress, outputs, outputs_expire_at, credits, cost_status, failure, metadata, api_version, created_at, started_at, completed_at))

/// True for a video job: only videos show `duration_seconds` and `fps`.
inline bool is_video(const job_record& r) { return r.kind == job_kind::video; }
/// True once a model is resolved: rows stored before models show none.
inline bool has_model(const job_record& r) { return !r.model.empty(); }

/// The blob-store key of output `index` of a job (`outputs/img_....0.png`).
std::string output_blob_key(const job_record& job, std::size_t index);

} // namespace svc::schema
