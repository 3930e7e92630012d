#include "http/lora_cache.hpp"

namespace svc::http {

persistence::read_result<lora_cache::snapshot> lora_cache::get(const persistence::environment& env,
                                                               const persistence::tables& tables) {
  auto entries = env.count(persistence::table::loras);
  std::lock_guard lock{mutex_};
  if (snapshot_ && entries == entries_)
    return snapshot_;
  auto fresh = std::make_shared<std::vector<schema::lora_record>>();
  auto read = tables.loras.for_each([&](const schema::lora_record& l) {
    fresh->push_back(l);
    return true;
  });
  if (!read.ok())
    return persistence::read_result<snapshot>::error(read.message);
  entries_ = entries;
  snapshot_ = std::move(fresh);
  return snapshot_;
}

} // namespace svc::http
