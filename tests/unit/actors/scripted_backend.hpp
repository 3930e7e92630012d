#pragma once
// A generation back end for job tests whose behaviour the prompt picks:
// `[fail]` fails with provider_error, `[hold]` blocks until `release()` or
// until the job's cancel token fires, `[late]` blocks until `release()` and
// then succeeds even if cancelled (a cancel that came too late to stop it);
// anything else succeeds at once with one small flat-coloured PNG per output
// (made with the providers' PNG writer).

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>

#include <algorithm>
#include <map>
#include <vector>

#include "providers/generation_backend.hpp"
#include "providers/image.hpp"
#include "providers/png_writer.hpp"

namespace svc::test {

class scripted_backend final : public providers::generation_backend {
public:
  providers::render_outcome render(const providers::render_request& req, const providers::progress_fn& progress,
                                   const providers::cancel_token& cancel) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++started_;
      prompts_.push_back(req.prompt);
      engines_used_.push_back(req.engine);
      init_image_ = req.init_image;
      most_at_once_[req.engine] = std::max(most_at_once_[req.engine], ++at_once_[req.engine]);
    }
    // Counted down however the render ends.
    struct leaving {
      scripted_backend& b;
      const std::string& engine;
      ~leaving() {
        std::lock_guard<std::mutex> lock(b.mutex_);
        --b.at_once_[engine];
      }
    } left{*this, req.engine};
    changed_.notify_all();
    if (progress)
      progress(0.5);
    if (req.prompt.find("[fail]") != std::string::npos)
      return providers::provider_error::failed("the test back end failed");
    // `[down:NAME]`: engine NAME refuses the render, as one that is unreachable or restarted.
    if (!req.engine.empty() && req.prompt.find("[down:" + req.engine + "]") != std::string::npos)
      return providers::provider_error::unavailable("engine " + req.engine + " is down");
    if (req.prompt.find("[late]") != std::string::npos) {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [this] { return released_; });
    }
    if (req.prompt.find("[hold]") != std::string::npos) {
      std::unique_lock<std::mutex> lock(mutex_);
      // The token has its own condition variable, so look at it every few ms.
      while (!released_ && !cancel.cancelled())
        changed_.wait_for(lock, std::chrono::milliseconds{5});
      if (cancel.cancelled()) {
        ++cancelled_;
        return providers::provider_error::cancelled();
      }
    }
    providers::render_result out;
    out.width = req.width;
    out.height = req.height;
    for (int i = 0; i < req.num_outputs; ++i) {
      providers::image img(req.width, req.height);
      auto shade = static_cast<float>((req.seed + static_cast<uint32_t>(i)) % 7) / 7.0f;
      for (auto& px : img.px)
        px = {shade, 0.5f, 1.0f - shade};
      std::string png, error;
      if (!providers::encode_png(img, {}, png, error))
        return providers::provider_error::failed(error);
      out.outputs.push_back(std::move(png));
    }
    return out;
  }

  std::string_view name() const override { return "scripted"; }

  /// Engines a scheduler places renders on; none unless `serve` was called.
  std::vector<providers::engine_capacity> engines() const override { return fleet_; }
  /// Declares an engine (before the directory starts).
  void serve(providers::engine_capacity e) { fleet_.push_back(std::move(e)); }

  /// The engine of each render begun so far (`render_request::engine`), in order.
  std::vector<std::string> engines_used() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return engines_used_;
  }
  /// The most renders that ran at once on `engine`.
  int most_at_once(const std::string& engine) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = most_at_once_.find(engine);
    return it == most_at_once_.end() ? 0 : it->second;
  }

  /// Lets every `[hold]` render, now and later, succeed.
  void release() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      released_ = true;
    }
    changed_.notify_all();
  }

  /// Renders begun so far.
  int started() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return started_;
  }

  /// The prompts of the renders begun so far, in the order they began.
  std::vector<std::string> prompts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return prompts_;
  }

  /// The init image bytes of the last render begun ("" for none).
  std::string init_image() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return init_image_;
  }

  /// `[hold]` renders that stopped because their token was cancelled.
  int cancelled() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return cancelled_;
  }

private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int started_ = 0;
  int cancelled_ = 0;
  bool released_ = false;
  std::string init_image_;
  std::vector<std::string> prompts_;
  std::vector<std::string> engines_used_;
  std::map<std::string, int> at_once_, most_at_once_;
  std::vector<providers::engine_capacity> fleet_;
};

} // namespace svc::test
