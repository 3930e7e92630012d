#pragma once
// The render slots of the engines, as the job directory hands them out: a
// job leaves the fair queue only when an engine serving its model has a
// slot free, and goes to the least loaded such engine (by share of its
// slots, so a 4-slot engine takes more). So no engine's own queue fills,
// and a model whose engines are all busy holds back no other model's jobs.
// Without engines (the built-in renderer, one A1111 server) there is one
// engine, named "", with the worker pool's slots, serving every model.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "providers/generation_backend.hpp"

namespace svc::actors {

class engine_slots {
public:
  /// Over `engines`; with none, one engine with `local_slots` for every model.
  engine_slots(std::vector<providers::engine_capacity> engines, int local_slots);
  /// No engines at all, until the directory knows its back end's.
  engine_slots() = default;

  /// Whether some engine serves `model` (a job of a model none serves is
  /// dispatched anyway, so that its back end fails it).
  bool serves(const std::string& model) const;

  /// Whether a job of `model` can be placed now.
  bool can_place(const std::string& model) const;

  /// Takes a slot of the least loaded engine serving `model`, one not in
  /// `failed_on` where one is free: its name, or nothing when none is free
  /// (or none serves it).
  std::optional<std::string> take(const std::string& model, const std::vector<std::string>& failed_on = {});

  /// Frees a slot `take` gave on `engine`.
  void give_back(const std::string& engine);

  /// Each engine: its name, slots and models (busy slots are the caller's to tell).
  std::vector<providers::engine_capacity> capacities() const;

  /// Slots in all, and those taken.
  int total() const;
  int busy() const;

private:
  struct engine {
    providers::engine_capacity spec;
    int busy = 0;
    bool serves(const std::string& model) const;
  };
  /// Its index; with `skipped`, only among engines not in it.
  std::optional<std::size_t> least_loaded(const std::string& model, const std::vector<std::string>* skipped = nullptr) const;



  static void publish(const engine& e); // its busy slots, to /metrics
  std::vector<engine> engines_;
};

} // namespace svc::actors
