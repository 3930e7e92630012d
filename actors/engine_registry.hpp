#pragma once
// The engine registry: the operator's changes to the engines while svcd
// runs (`svcctl engine add|drain|resume|remove`), each committed to the
// `engines` table before it is answered and applied again at every start
// after the `--engines` file, and a health probe of every engine each
// `--engine-probe-interval`, whose results the job directory turns into
// `up` and `down`. It blocks on the engines (an add's checks, the probes),
// so it runs detached, on a thread of its own.

#include <cstdint>
#include <string>
#include <vector>

#include "actors/context.hpp"
#include "providers/engine_fleet.hpp"
#include "providers/worker_pool.hpp"

namespace svc::actors {

struct engine_registry_services {
  providers::engine_fleet* fleet = nullptr; ///< none without an engines file: nothing to add or probe
  providers::worker_pool* pool = nullptr;   ///< grows by an added engine's slots, unless `--workers` is set
  job_directory_actor jobs;                 ///< told of every change and probe
};

struct engine_registry_state {
  uint64_t changes = 0, probe_rounds = 0;
  std::vector<std::string> unprobed; ///< engines the current round of probes has still to ask
  static inline const char* name = "engine_registry";
};

engine_registry_actor::behavior_type engine_registry(engine_registry_actor::stateful_pointer<engine_registry_state> self,
                                                     context ctx, engine_registry_services services);

/// At start, before any actor runs: applies the stored changes to `fleet`
/// (engines removed, engines added, whose checks may fail: logged, and the
/// engine left out). Drained engines are the job directory's to read.
void apply_stored_engines(const persistence::tables& tables, providers::engine_fleet& fleet);

} // namespace svc::actors
