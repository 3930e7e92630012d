#pragma once
// JSON text for people and scripts alike: Boost.JSON writes 5091.5 as
// 5.0915E3, which is valid but hard to read in a SUMMARY line; here every
// double is written with three decimals (and non-finite ones as null).

#include <boost/json/value.hpp>

#include <string>

namespace svc::bench {

/// `v` as compact JSON text, doubles as `%.3f`.
std::string json_text(const boost::json::value& v);

} // namespace svc::bench
