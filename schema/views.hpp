#pragma once
// The wire form of each record, exactly as GET answers it.

#include <string>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>

#include "schema/pricing.hpp"
#include "schema/records.hpp"

namespace svc::schema {

/// A number as the wire shows it: whole values as JSON integers (`50`, not
/// `5E1`), fractions as doubles.
boost::json::value json_number(double d);

/// `GET /v1/team`.
boost::json::value team_view(const team_record& t);

/// The same view as JSON text appended to `out`, with no tree in between:
/// byte for byte `boost::json::serialize(team_view(t))`.
void write_team_view(std::string& out, const team_record& t);

/// `GET /v1/balance`.
boost::json::value balance_view(const balance_record& b, int64_t balance_low_threshold);

/// A team as the admin listener shows it: the team's view, its balance, and
/// whether (since when, why) an operator disabled it.
boost::json::value admin_team_view(const team_record& t, const balance_record& b);

/// An API key; `plaintext` is set only in the answers to create and rotate.
boost::json::value api_key_view(const api_key_record& k, const std::string& plaintext = {});

/// One catalogue entry of `GET /v1/loras`.
boost::json::value lora_view(const lora_record& l);

/// `GET /v1/pricing` for one version.
boost::json::value pricing_view(const price_table& t);

/// The list envelope `{object: "list", data, has_more, next_cursor}`. The
/// cursor is the last item's id, or `resume_after` when given (a page that
/// ended at its scan bound, after records that were examined but not listed).
boost::json::value list_view(boost::json::array data, bool has_more, std::string_view resume_after = {});

} // namespace svc::schema
