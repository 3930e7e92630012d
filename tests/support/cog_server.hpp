#pragma once
// A Cog stand-in for the Cog back end's tests, faithful to the brief's
// section 4.2 (../shared/design/engines.md): real HTTP on 127.0.0.1, the
// health states, async predictions only for `Prefer: respond-async`, one
// slot and no queue (409), 422 for a missing required input, unknown inputs
// dropped, webhooks (start, throttled logs, output, one retried completed)
// with an optional Bearer token, cancel, PUT idempotent only while its run
// lasts, no GET /predictions/{id}, an /openapi.json Input schema, outputs as
// data: URIs or as URLs it serves itself. Two profiles answer as coglet
// (0.17+) and as the Python server (0.16) do.

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

namespace svc::test {

/// Which server's answers it gives (the brief's table 2.3).
enum class cog_profile {
  coglet, ///< 202 {"id","status":"starting"}; 409 {"error","status":"failed"}; 503 before ready
  python, ///< 202 with the full object, status processing; 409 {"detail":...} also during setup
};

/// What its model makes.
enum class cog_model_kind { image, video };

/// How it is set up.
struct cog_options {
  cog_profile profile = cog_profile::coglet;
  cog_model_kind kind = cog_model_kind::image;
  std::chrono::milliseconds render_time{50};  ///< from start to completed
  std::chrono::milliseconds setup_time{0};    ///< STARTING this long after construction (and after restart)
  bool url_outputs = false;                   ///< outputs as http URLs it serves, not data: URIs
  bool webm_video = false;                    ///< a video model makes VP9 WebM, not H.264 MP4
  std::string webhook_token;                  ///< sent as `Authorization: Bearer <token>` when set
};

/// Faults the next predictions meet.
struct cog_faults {
  bool busy = false;            ///< every create is 409, as if a foreign prediction held the slot
  bool setup_failed = false;    ///< /health-check SETUP_FAILED; creates 503 (coglet) or 409 (python)
  bool fail_prediction = false; ///< the model raises: a terminal status failed with an error
  bool hang = false;            ///< never completes (until cancelled)
  std::size_t oversized_output = 0; ///< when set, the output is this many bytes (a PNG padded out)
  int missing_frames = 0;           ///< a video has this many frames fewer than asked
  bool defunct = false;         ///< /health-check DEFUNCT (the worker crashed); creates refused as during setup
  std::string user_healthcheck_error; ///< when set and idle, /health-check UNHEALTHY with this message
};

/// One request as received.
struct cog_request {
  std::string method;
  std::string path; ///< without the query
  std::string body;
  std::string prefer;
};

/// One webhook it sent (or tried to).
struct cog_webhook {
  std::string prediction_id;
  std::string event;  ///< start, logs, output, completed
  std::string status; ///< the payload's status
  int answer = 0;     ///< the receiver's HTTP status; 0 when it could not be reached
};

/// Runs on its own threads from construction to destruction.
class cog_server {
public:
  explicit cog_server(cog_options options = {});
  ~cog_server();
  cog_server(const cog_server&) = delete;
  cog_server& operator=(const cog_server&) = delete;

  /// `http://127.0.0.1:PORT`.
  std::string url() const;

  /// Sets the faults for what happens from now on.
  void set_faults(cog_faults f);
  /// Forgets its running prediction without a webhook, and sets up again
  /// (STARTING for `setup_time`), as a restarted container does.
  void restart();

  /// Every request so far.
  std::vector<cog_request> requests() const;
  /// The body of each create that started a run, in order (`input`, `webhook`, ...).
  std::vector<boost::json::object> predictions() const;
  /// Requests to `path` with `method` (`/predictions/<id>/cancel`...; a path
  /// ending in `*` matches by prefix).
  std::size_t count(const std::string& method, const std::string& path) const;
  /// The id of the prediction running now, or empty.
  std::string running() const;
  /// Seconds each ended run took, from its create to its `completed`
  /// webhook (what svcd's time over a job is measured against).
  std::vector<double> render_seconds() const;
  /// Every webhook sent so far, in order; one entry per try, so a retried `completed` appears once per try.
  std::vector<cog_webhook> webhooks() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::test
