#include "actors/render_task.hpp"

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/crypto.hpp"
#include "core/log.hpp"
#include "core/metric_catalogue.hpp"
#include "core/positional_file.hpp"
#include "persistence/job_rows.hpp"

namespace svc::actors {
namespace {

providers::render_request render_request_of(const schema::job_record& r) {
  providers::render_request req;
  req.job_id = r.id;
  req.model = r.model;
  req.prompt = r.prompt;
  req.negative_prompt = r.negative_prompt;
  req.width = r.width;
  req.height = r.height;
  req.seed = r.seed;
  req.steps = r.steps;
  req.num_outputs = r.num_outputs;
  if (r.kind == schema::job_kind::video) {
    req.num_outputs = 1;
    req.duration_seconds = r.duration_seconds;
    req.fps = r.fps;
  }
  for (auto& l : r.loras)
    req.loras.push_back({l.slug, l.weight});
  req.correlation = r.correlation;
  return req;
}

} // namespace

providers::pool_task render_task(job_actor me, const job_services& services, schema::job_record job,
                                 std::string engine, providers::cancel_token token) {
  providers::pool_task task;
  task.cancel = token;
  task.run = [me, services, job = std::move(job), engine = std::move(engine), token] {
    auto request = render_request_of(job);
    request.engine = engine;
    if (job.init_image) {
      // Read here, on the pool thread: an upload may be 20 MiB.
      auto bytes = services.blobs->get(schema::file_blob_key(*job.init_image));
      if (!bytes) {
        caf::anon_send(me, failed_atom::value, std::string{"init_image_unavailable"},
                       "the init image " + *job.init_image + " expired and was deleted before the job started");
        return;
      }
      request.init_image = std::move(*bytes);
    }
    auto storing_failed = [&](const std::string& what, const persistence::status& st) {
      core::log_error("job", job.id + ": storing " + what + " failed: " + st.message);
      caf::anon_send(me, failed_atom::value, std::string{"provider_error"}, std::string{"storing the output failed"});
    };
    // A video goes into its blob's temp file as it is encoded, so no worker
    // holds a whole MP4; dropped uncommitted, the temp file goes with it.
    std::unique_ptr<persistence::blob_writer> video;
    if (job.kind == schema::job_kind::video) {
      if (auto st = services.blobs->create(schema::output_blob_key(job, 0), video); !st.ok())
        return storing_failed("the video", st);
      request.video_file = video.get();
    }
    // The engine's slot frees as soon as it has rendered, while its outputs download.
    request.engine_done = std::make_shared<providers::engine_done_signal>();
    request.engine_done->listen([me] { caf::anon_send(me, slot_free_atom::value); });
    caf::anon_send(me, started_atom::value);
    auto began = std::chrono::steady_clock::now();
    // A back end that throws (a bug, or a library's exception on an engine's
    // answer) still ends its job: the pool would swallow the exception and
    // leave the job processing forever.
    auto outcome = [&]() -> providers::render_outcome {
      try {
        return services.backend->render(
          request, [me](double p) { caf::anon_send(me, progress_atom::value, p); }, token);
      } catch (const std::exception& e) {
        core::log_error("job", job.id + ": the back end threw: " + e.what());
        return providers::provider_error::failed("the back end failed unexpectedly");
      }
    }();
    auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    auto& m = core::metrics::svc();
    m.render_seconds.with({std::string{schema::to_string(job.kind)}}).observe(took);
    if (outcome.ok() || outcome.error().code != "cancelled") { // a cancel or a shutdown is not the engine's doing
      auto engine_label = engine.empty() ? std::string{"local"} : engine;
      m.engine_renders.with({engine_label, outcome.ok() ? std::string{"succeeded"} : outcome.error().code}).inc();
      m.engine_render_seconds.with({engine_label}).observe(took);
    }
    if (video && !video->failure().ok()) // the disk refused the MP4, not the back end
      return storing_failed("the video", video->failure());
    if (!outcome.ok()) {
      if (outcome.error().code != "cancelled") // a shutdown's doing, not the back end's
        core::metrics::svc().backend_errors.with({outcome.error().code}).inc();
      caf::anon_send(me, failed_atom::value, outcome.error().code, outcome.error().message);
      return;
    }
    auto& result = outcome.value();
    // A render that completed although its job was cancelled: the job is
    // ending or gone and would never delete files stored now.
    if (token.cancelled())
      return;
    rendered_outputs stored;
    if (result.in_video_file) {
      // Hashed before the commit closes the file; read back from the page cache.
      auto hash = core::sha256_of(*video);
      auto st = hash ? video->commit() : persistence::status{"reading it back failed"};
      if (!st.ok())
        return storing_failed("the video", st);
      stored.outputs.push_back({result.content_type, video->size(), result.width, result.height, core::to_hex(*hash)});
    }
    for (std::size_t i = 0; i < result.outputs.size(); ++i) {
      auto& bytes = result.outputs[i];
      if (auto st = services.blobs->put(schema::output_blob_key(job, i), bytes); !st.ok()) {
        persistence::remove_job_outputs(*services.blobs, job, i, "job");
        return storing_failed("output " + std::to_string(i), st);
      }
      stored.outputs.push_back({result.content_type, bytes.size(), result.width, result.height,
                                core::to_hex(core::sha256(bytes))});
    }
    if (token.cancelled()) { // cancelled while storing
      persistence::remove_job_outputs(*services.blobs, job, stored.outputs.size(), "job");
      return;
    }
    caf::anon_send(me, finished_atom::value, std::move(stored));
  };
  return task;
}

} // namespace svc::actors
