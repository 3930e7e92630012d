#pragma once
// The render slots of the engines, as the job directory hands them out: a
// job leaves the fair queue only when an engine serving its model has a
// slot free, and goes to the least loaded such engine (by share of its
// slots, so a 4-slot engine takes more). So no engine's own queue fills,
// and a model whose engines are all busy holds back no other model's jobs.
// Without engines (the built-in renderer, one A1111 server) there is one
// engine, named "", with the worker pool's slots, serving every model.
//
// Each engine is `up`, `draining` (the operator's: no new renders, those
// running finish) or `down` (twice in a row its health probe failed or a
// render failed because of it, until a probe passes); only an `up` engine
// is given renders. An engine removed leaves once its last render ended.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "providers/generation_backend.hpp"

namespace svc::actors {

/// Failed health probes in a row that take an engine down: one lost probe
/// (a GC pause, a dropped packet) does not move its renders elsewhere.
inline constexpr int probe_failures_for_down = 2;

/// One engine as `engine_slots` shows it.
struct engine_view {
  providers::engine_capacity spec;
  int busy = 0;
  std::string state;      ///< `up`, `draining` or `down`
  std::string last_error; ///< of the last failed probe; empty when none failed
  int64_t renders_done = 0, renders_failed = 0;
};

class engine_slots {
public:
  /// Over `engines`; with none, one engine with `local_slots` for every model.
  engine_slots(std::vector<providers::engine_capacity> engines, int local_slots);
  /// No engines at all, until the directory knows its back end's.
  engine_slots() = default;

  /// Whether some engine serves `model`, in any state (a job of a model none
  /// serves is dispatched anyway, so that its back end fails it).
  bool serves(const std::string& model) const;

  /// Whether a job of `model` can be placed now.
  bool can_place(const std::string& model) const;

  /// Takes a slot of the least loaded `up` engine serving `model`, one not
  /// in `failed_on` where one is free: its name, or nothing when none is
  /// free (or none serves it).
  std::optional<std::string> take(const std::string& model, const std::vector<std::string>& failed_on = {});

  /// Frees a slot `take` gave on `engine`; a removed engine leaves with its last.
  void give_back(const std::string& engine);

  /// Counts a render that ended on `engine`; a success ends a run of failed probes.
  void count_render(const std::string& engine, bool succeeded);

  /// Brings in `spec`; false when an engine of its name is there.
  bool join(providers::engine_capacity spec);
  /// Takes `name` out (at once when idle, else with its last render); false when there is none.
  bool leave(const std::string& name);
  /// Drains `name` or resumes it; false when there is none.
  bool drain(const std::string& name, bool draining);
  /// What a probe changed: an engine `went_down` has renders that must go
  /// elsewhere; one `came_up` takes renders again.
  enum class health_change { none, went_down, came_up };
  /// A health probe of `name` passed (`error` empty) or failed.
  health_change probed(const std::string& name, const std::string& error);
  /// A render failed because of `name` (refused, reset, lost): as a failed
  /// probe, unless it is down already (its renders were moved off it).
  health_change render_failed(const std::string& name);

  /// Every engine but those leaving, in the order they came.
  std::vector<engine_view> view() const;

  /// Slots of the `up` engines serving `model`.
  int slots_for(const std::string& model) const;

  /// Slots in all, and those taken.
  int total() const;
  int busy() const;

private:
  struct engine {
    providers::engine_capacity spec;
    int busy = 0;
    bool draining = false, down = false, leaving = false;
    int failed_probes = 0;
    std::string last_error;
    int64_t done = 0, failed = 0;
    bool serves(const std::string& model) const;
    bool takes_work() const { return !draining && !down && !leaving; }
  };
  engine* find(const std::string& name);
  /// Its index; with `skipped`, only among engines not in it.
  std::optional<std::size_t> least_loaded(const std::string& model, const std::vector<std::string>* skipped = nullptr) const;
  void erase_if_gone(const std::string& name);

  static void publish(const engine& e); // its slots and busy slots, to /metrics
  std::vector<engine> engines_;
};

} // namespace svc::actors
