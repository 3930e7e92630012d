#pragma once
// The LoRA catalogue actor: adds operator LoRAs with unique slugs. The
// built-in styles are seeded once, at the first start of a data directory.

#include "actors/context.hpp"
#include "persistence/environment.hpp"

namespace svc::actors {

struct lora_catalogue_state {
  uint64_t added = 0;
  static inline const char* name = "lora_catalogue";
};

lora_catalogue_actor::behavior_type lora_catalogue(lora_catalogue_actor::stateful_pointer<lora_catalogue_state> self,
                                                   context ctx);

/// Writes the built-in LoRAs if the catalogue is empty (start-up, before any actor runs).
persistence::status seed_builtin_loras(persistence::environment& env, const persistence::tables& tables,
                                       const core::clock& clock);

} // namespace svc::actors
