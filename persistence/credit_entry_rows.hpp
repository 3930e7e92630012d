#pragma once
// The key layout of a team's credit history (`credit_entries`), shared by the
// writers (ledger, team creation) and the reader (the admin list).

#include <string>
#include <string_view>

namespace svc::persistence {

/// `team_id/cre_...`: a team's entries are one key prefix, in the order they were made.
inline std::string credit_entry_key(std::string_view team_id, std::string_view entry_id) {
  std::string key{team_id};
  key += '/';
  key += entry_id;
  return key;
}

} // namespace svc::persistence
