#pragma once
// Numbers out of a parsed JSON value, read alike by both readers of JSON:
// request bodies (`field_reader`) and stored records (`stored_json`).

#include <cstdint>
#include <optional>

#include <boost/json/value.hpp>

namespace svc::schema {

/// `v` as an int64: a JSON integer that fits; never a double.
std::optional<int64_t> exact_int64(const boost::json::value& v);

/// `v` as a finite double: a JSON double or integer. Not infinity, which
/// Boost.JSON makes of text such as 1e400 and no view can write back as JSON.
std::optional<double> finite_number(const boost::json::value& v);

} // namespace svc::schema
