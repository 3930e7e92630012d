#pragma once
// The engines of a catalogue as an operator changes them while svcd runs
// (`svcctl engine add|remove`) and as a health probe sees them. Only the
// back end of an engines file (`--engines`) has a fleet: the built-in
// renderer and one A1111 server do not come and go.

#include <chrono>
#include <string>
#include <vector>

#include "providers/engines_file.hpp"
#include "providers/generation_backend.hpp"

namespace svc::providers {

/// Thread-safe: renders run beside every member.
class engine_fleet {
public:
  virtual ~engine_fleet() = default;

  /// Brings in `spec`, serving `models` (catalogue ids), after the checks an
  /// engine of the file has at start: empty when it joined, else why not
  /// (a name taken, a model unknown or not runnable on its kind, a workflow
  /// or input map the engine refuses).
  virtual std::string add(const engine_spec& spec, const std::vector<std::string>& models) = 0;

  /// Takes engine `name` out: no render starts on it any more, those running
  /// end as they would. False when there is no such engine.
  virtual bool remove(const std::string& name) = 0;

  /// Asks engine `name` whether it takes work, within `timeout` (blocking):
  /// empty when it does, else why not.
  virtual std::string probe(const std::string& name, std::chrono::milliseconds timeout) = 0;

  /// The engines there are now.
  virtual std::vector<engine_capacity> engines() const = 0;
};

} // namespace svc::providers
