#pragma once
// What the stored (LMDB) form of a record says about one member, when it says
// more than the member's name and type: written right after the struct's
// SVC_DESCRIBE, so the exception sits next to the field it concerns and
// nowhere else. `stored_json.hpp` reads these; a member without one is stored
// under its own name and must be present.
//
//   SVC_STORED_KEY(api_key_record, key_scope, "scope")  // stored as "scope"
//   SVC_STORED_SINCE(team_record, disabled_at)          // absent in older records
//   SVC_STORED_WHEN_SET(job_record, model)              // ...and not written while empty
//   SVC_STORED_INLINE(queued_mail, message)             // its members in the record's object

#include <string_view>
#include <type_traits>

namespace svc::schema {

/// The stored form of member `Member` (a pointer to member); the defaults.
template <auto Member>
struct stored_field {
  /// The JSON key; empty: the member's name.
  static constexpr std::string_view key{};
  /// True when records stored before the member existed lack it: absent (or
  /// null) reads as the member's value-initialised default.
  static constexpr bool may_be_absent = false;
  /// True when the member (a described struct) is stored as its own members
  /// in the enclosing object rather than as a nested object.
  static constexpr bool inlined = false;
  /// True when an empty member is not written at all (a field newer than
  /// records that must keep their bytes); implies `may_be_absent`.
  static constexpr bool omitted_when_empty = false;
};

/// True for a type whose stored form is not its described members: it brings
/// `boost::json::value encode(const T&)` and `bool decode(const boost::json::value*, T&)`.
template <class T>
struct own_stored_form : std::false_type {};

} // namespace svc::schema

/// `T::member` is stored under `key`, not its name.
#define SVC_STORED_KEY(T, member, stored_key)                                                                    \
  template <>                                                                                                    \
  struct stored_field<&T::member> : stored_field<nullptr> {                                                      \
    static constexpr std::string_view key{stored_key};                                                           \
  };

/// `T::member` came after `T` was first stored: older records lack it.
#define SVC_STORED_SINCE(T, member)                                                                              \
  template <>                                                                                                    \
  struct stored_field<&T::member> : stored_field<nullptr> {                                                      \
    static constexpr bool may_be_absent = true;                                                                  \
  };

/// `T::member` came after `T` was first stored, and is written only when not
/// empty, so a record that does not use it keeps its older bytes.
#define SVC_STORED_WHEN_SET(T, member)                                                                           \
  template <>                                                                                                    \
  struct stored_field<&T::member> : stored_field<nullptr> {                                                      \
    static constexpr bool may_be_absent = true;                                                                  \
    static constexpr bool omitted_when_empty = true;                                                             \
  };

/// `T::member`'s own members are stored in `T`'s object.
#define SVC_STORED_INLINE(T, member)                                                                             \
  template <>                                                                                                    \
  struct stored_field<&T::member> : stored_field<nullptr> {                                                      \
    static constexpr bool inlined = true;                                                                        \
  };
