#pragma once
// One description of a struct's fields, for every use that walks them. A
// struct is described once, next to its definition:
//
//   SVC_DESCRIBE(team_record, (id, name, owner_email, ...))
//
// which is Boost.Describe's member list plus an `inspect` derived from it, so
// CAF can put the struct in a message, serialise it and print it (a message
// may cross to another node). The list must name every member in order:
// `described_test` checks each list's length against the struct's.
//
// Members CAF cannot inspect directly are inspected through a stand-in:
// `std::optional` as a flag and, when set, the value; a shared immutable
// string (bytes shared by messages instead of copied) as its contents.
// No CAF header is needed here: an inspector only has to be callable with
// the fields and to say whether it reads or writes state.

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>

namespace svc::core::described {

/// An optional member as the inspector sees it: `present`, then the value if so.
template <class T>
struct optional_field {
  std::optional<T>& member;
};

/// The value of an optional member while it is loaded: inspected only when
/// the flag read before it says it is present.
template <class T>
struct present_value {
  bool& present;
  T& value;
};

template <class Inspector, class T>
typename Inspector::result_type inspect(Inspector& f, present_value<T>& x) {
  return x.present ? f(x.value) : f();
}

template <class Inspector, class T>
typename Inspector::result_type inspect(Inspector& f, optional_field<T>& x) {
  if constexpr (Inspector::writes_state) {
    bool present = false;
    T value{};
    present_value<T> loaded{present, value};
    auto result = f(present, loaded);
    x.member = present ? std::optional<T>{std::move(value)} : std::nullopt;
    return result;
  } else {
    return x.member ? f(true, *x.member) : f(false);
  }
}

/// Shared bytes as the inspector sees them: the string they point to.
struct shared_text_field {
  std::shared_ptr<const std::string>& member;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, shared_text_field& x) {
  if constexpr (Inspector::writes_state) {
    std::string text;
    auto result = f(text);
    x.member = std::make_shared<const std::string>(std::move(text));
    return result;
  } else {
    static const std::string none;
    return f(x.member ? *x.member : none);
  }
}

/// A member as it is inspected: itself, or its stand-in.
template <class M>
M& field(M& member) {
  return member;
}
template <class T>
optional_field<T> field(std::optional<T>& member) {
  return {member};
}
inline shared_text_field field(std::shared_ptr<const std::string>& member) { return {member}; }

template <class Inspector, class T, template <class...> class List, class... Members>
typename Inspector::result_type inspect_members(Inspector& f, T& x, List<Members...>) {
  return f(field(x.*Members::pointer)...);
}

/// Inspects every described member of `x`, in the order described.
template <class Inspector, class T>
typename Inspector::result_type inspect_members(Inspector& f, T& x) {
  return inspect_members(f, x, boost::describe::describe_members<T, boost::describe::mod_public>{});
}

} // namespace svc::core::described

/// Describes struct `T` (in the current namespace) by its members, in order,
/// and derives its `inspect`. Use at namespace scope, after the struct.
#define SVC_DESCRIBE(T, Members)                                                                                 \
  BOOST_DESCRIBE_STRUCT(T, (), Members)                                                                          \
  template <class Inspector>                                                                                     \
  typename Inspector::result_type inspect(Inspector& f, T& x) {                                                  \
    return ::svc::core::described::inspect_members(f, x);                                                        \
  }
