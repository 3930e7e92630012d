#pragma once
// The stored (LMDB) form of every record, derived from its SVC_DESCRIBE list:
// a JSON object with one key per member, in the order described. Strings,
// booleans and numbers as themselves; enums by their wire name (`to_string`,
// the enum's BOOST_DESCRIBE_ENUM list for reading back); times as Unix
// milliseconds; `std::optional` as null when empty; vectors as arrays; maps by
// string as objects; described structs as nested objects. A member whose stored
// form differs says so after its struct (`stored_field.hpp`); a type with a
// stored form of its own says so with `own_stored_form`.
//
// Decoding never throws: stored bytes are untrusted after a crash. A record
// is rejected when a member is missing (unless `may_be_absent`) or mistyped,
// an integer does not fit its member, a double is not finite, an enum name is
// unknown, or the record's `valid(const T&)`, where it has one, says no.

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>

#include "core/clock.hpp"
#include "core/enum_names.hpp"
#include "schema/json_numbers.hpp"
#include "schema/stored_field.hpp"

namespace svc::schema {
namespace stored_detail {

/// A JSON string of `s`.
boost::json::value text(std::string_view s);

template <class T>
using members = boost::describe::describe_members<T, boost::describe::mod_public>;

template <class T, class = void>
struct has_valid : std::false_type {};
template <class T>
struct has_valid<T, std::void_t<decltype(valid(std::declval<const T&>()))>> : std::true_type {};

template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_map : std::false_type {};
template <class T> struct is_map<std::map<std::string, T>> : std::true_type {};

template <class D>
constexpr std::string_view key() {
  constexpr auto k = stored_field<D::pointer>::key;
  return k.empty() ? std::string_view{D::name} : k;
}

template <class T>
boost::json::value put(const T& x);

template <class T>
void put_members(boost::json::object& o, const T& x) {
  boost::mp11::mp_for_each<members<T>>([&](auto d) {
    using D = decltype(d);
    using F = stored_field<D::pointer>;
    auto& member = x.*D::pointer;
    if constexpr (F::inlined) {
      put_members(o, member);
    } else if constexpr (F::omitted_when_empty) {
      if (!member.empty())
        o.emplace(key<D>(), put(member));
    } else {
      o.emplace(key<D>(), put(member));
    }
  });
}

template <class T>
boost::json::value put(const T& x) {
  if constexpr (own_stored_form<T>::value) {
    return encode(x);
  } else if constexpr (boost::describe::has_describe_members<T>::value) {
    boost::json::object o;
    put_members(o, x);
    return o;
  } else if constexpr (is_optional<T>::value) {
    return x ? put(*x) : boost::json::value(nullptr);
  } else if constexpr (is_vector<T>::value) {
    boost::json::array a;
    a.reserve(x.size());
    for (auto& item : x)
      a.push_back(put(item));
    return a;
  } else if constexpr (is_map<T>::value) {
    boost::json::object o;
    for (auto& [k, item] : x)
      o.emplace(k, put(item));
    return o;
  } else if constexpr (std::is_same_v<T, core::time_point>) {
    return core::to_unix_ms(x);
  } else if constexpr (std::is_enum_v<T>) {
    return text(to_string(x));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return text(x);
  } else if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>) {
    return x;
  } else {
    static_assert(std::is_integral_v<T>, "no stored form for this member type");
    if constexpr (std::is_signed_v<T>)
      return static_cast<int64_t>(x);
    else
      return static_cast<uint64_t>(x);
  }
}

template <class T>
bool get(const boost::json::value& v, T& x);

template <class T>
bool get_members(const boost::json::object& o, T& x) {
  bool ok = true;
  boost::mp11::mp_for_each<members<T>>([&](auto d) {
    using D = decltype(d);
    using F = stored_field<D::pointer>;
    auto& member = x.*D::pointer;
    if (!ok)
      return;
    if constexpr (F::inlined) {
      ok = get_members(o, member);
    } else {
      auto* v = o.if_contains(key<D>());
      if (F::may_be_absent && (!v || v->is_null()))
        member = std::decay_t<decltype(member)>{};
      else
        ok = v && get(*v, member);
    }
  });
  if constexpr (has_valid<T>::value)
    ok = ok && valid(x);
  return ok;
}

template <class T>
bool get(const boost::json::value& v, T& x) {
  if constexpr (own_stored_form<T>::value) {
    return decode(&v, x);
  } else if constexpr (boost::describe::has_describe_members<T>::value) {
    auto* o = v.if_object();
    return o && get_members(*o, x);
  } else if constexpr (is_optional<T>::value) {
    if (v.is_null()) {
      x.reset();
      return true;
    }
    return get(v, x.emplace());
  } else if constexpr (is_vector<T>::value) {
    auto* a = v.if_array();
    if (!a)
      return false;
    x.clear();
    x.resize(a->size());
    for (std::size_t i = 0; i < a->size(); ++i)
      if (!get((*a)[i], x[i]))
        return false;
    return true;
  } else if constexpr (is_map<T>::value) {
    auto* o = v.if_object();
    if (!o)
      return false;
    x.clear();
    for (auto& [k, item] : *o)
      if (!get(item, x[std::string{k}]))
        return false;
    return true;
  } else if constexpr (std::is_same_v<T, core::time_point>) {
    auto ms = exact_int64(v);
    if (ms)
      x = core::from_unix_ms(*ms);
    return ms.has_value();
  } else if constexpr (std::is_enum_v<T>) {
    auto* s = v.if_string();
    auto e = s ? core::enum_from_name<T>(std::string_view{*s}) : std::nullopt;
    if (e)
      x = *e;
    return e.has_value();
  } else if constexpr (std::is_same_v<T, bool>) {
    auto* b = v.if_bool();
    if (b)
      x = *b;
    return b != nullptr;
  } else if constexpr (std::is_same_v<T, std::string>) {
    auto* s = v.if_string();
    if (s)
      x.assign(s->data(), s->size());
    return s != nullptr;
  } else if constexpr (std::is_floating_point_v<T>) {
    auto d = finite_number(v);
    if (d)
      x = static_cast<T>(*d);
    return d.has_value();
  } else {
    static_assert(std::is_integral_v<T>, "no stored form for this member type");
    auto n = exact_int64(v);
    using limits = std::numeric_limits<T>;
    if (!n || *n < static_cast<int64_t>(limits::min())
        || (sizeof(T) < sizeof(int64_t) && *n > static_cast<int64_t>(limits::max())))
      return false;
    x = static_cast<T>(*n);
    return true;
  }
}

} // namespace stored_detail

/// The stored form of a described record.
template <class T>
boost::json::value encode_stored(const T& r) {
  return stored_detail::put(r);
}

/// Reads a stored record into `r`; false (and `r` unspecified) when it is not one.
template <class T>
bool decode_stored(const boost::json::value& v, T& r) {
  return stored_detail::get(v, r);
}

} // namespace svc::schema
