#pragma once
// One change of a team's credit balance, as the team's credit history keeps
// it: who moved how many credits, why, and what the balance was afterwards.
// `stored_json.hpp` gives its stored form, `credit_entry_view.hpp` its wire form
// (derived as `record_view.hpp` says).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/describe/enum.hpp>

#include "core/clock.hpp"
#include "core/described.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// Largest credit amount or balance accepted: far past any real use, far from overflow.
inline constexpr int64_t max_credits = int64_t{1} << 50;

/// Longest operator reason, in bytes of UTF-8.
inline constexpr std::size_t max_credit_reason_bytes = 500;

/// What moved the credits: an operator's grant (or removal, when negative), a
/// job's hold, its charge or its release (the hold given back when the job did
/// not succeed), or an operator's refund of a succeeded job's charge.
enum class credit_entry_kind : uint8_t { grant, hold, charge, release, refund };
BOOST_DESCRIBE_ENUM(credit_entry_kind, grant, hold, charge, release, refund)

/// The wire name (`grant`).
std::string_view to_string(credit_entry_kind k);
/// The kind with this wire name, if any.
std::optional<credit_entry_kind> credit_entry_kind_from_name(std::string_view name);

struct credit_entry_record {
  std::string id;      ///< `cre_...`: key order is the order of the changes
  std::string team_id;
  credit_entry_kind kind = credit_entry_kind::grant;
  /// Credits moved, signed as the team sees them: a hold takes them from
  /// `available` (negative), a charge spends held ones (negative), a release
  /// or refund gives them back (positive), a grant adds or removes.
  int64_t amount = 0;
  int64_t available_after = 0; ///< the balance once the change was applied
  int64_t held_after = 0;
  std::string job_id; ///< the job behind a hold, charge, release or refund; empty for a grant
  std::string reason; ///< the operator's reason (grant, refund); may be empty
  core::time_point created_at;
};
SVC_DESCRIBE(credit_entry_record, (id, team_id, kind, amount, available_after, held_after, job_id, reason, created_at))
SVC_VIEW_OBJECT(credit_entry_record, "credit_entry")
SVC_VIEW_IN(credit_entry_record, available_after, "balance")
SVC_VIEW_KEY(credit_entry_record, available_after, "available")
SVC_VIEW_IN(credit_entry_record, held_after, "balance")
SVC_VIEW_KEY(credit_entry_record, held_after, "held")
SVC_VIEW_FORMAT(credit_entry_record, job_id, null_if_empty) // none for a grant
SVC_VIEW_FORMAT(credit_entry_record, reason, null_if_empty)

/// False for an amount beyond ±`max_credits` or a balance outside 0..`max_credits`:
/// a damaged entry must not reach a reader's balance arithmetic.
bool valid(const credit_entry_record& e);

} // namespace svc::schema
