#pragma once
// A positional file held in memory, for callers that want the bytes
// themselves: tests, benches, a render given nowhere else to write.

#include <string>

#include "core/positional_file.hpp"

namespace svc::core {

class memory_file final : public positional_file {
public:
  /// Fails only when memory runs out.
  bool write_at(uint64_t offset, const char* data, std::size_t size, std::string& error) override;
  int64_t read_at(uint64_t offset, char* data, std::size_t size) const override;
  uint64_t size() const override { return bytes_.size(); }
  /// Moves the bytes out; the file is empty afterwards.
  std::string take() { return std::move(bytes_); }

private:
  std::string bytes_;
};

} // namespace svc::core
