#pragma once
// What the public (wire) view of a record says about one member, when it says
// more than the member's name and value: written right after the struct's
// SVC_DESCRIBE, beside its SVC_STORED_* lines, so each exception sits next to
// the field it concerns and nowhere else. `record_view.hpp` reads these; a
// member without one is shown under its own name, by the rules of its type.
//
//   SVC_VIEW_OBJECT(file_record, "file")                  // `"object": "file"`, after the id
//   SVC_VIEW_HIDDEN(file_record, team_id)                 // never shown
//   SVC_VIEW_KEY(api_key_record, key_scope, "scope")      // shown as "scope"
//   SVC_VIEW_FORMAT(api_key_record, last4, key_preview)   // shown as key_preview(last4)
//   SVC_VIEW_IN(credit_entry_record, held_after, "balance") // inside the nested object "balance"
//   SVC_VIEW_WHEN(job_record, fps, is_video)              // shown only when is_video(record)
//   SVC_VIEW_OWN(job_record, outputs)                     // written by the view's own code
//   SVC_VIEW_ORDER(team_record, (id, name, ...))          // the shown members, where the view's
//                                                         // order is not the description's
// Each marker is its own trait, so one member may carry several.

#include <optional>
#include <string_view>
#include <type_traits>

#include <boost/mp11/list.hpp>
#include <boost/preprocessor/seq/enum.hpp>
#include <boost/preprocessor/seq/transform.hpp>
#include <boost/preprocessor/tuple/to_seq.hpp>

namespace svc::schema {

/// Names one member (a pointer to member) as a type.
template <auto Member>
struct member_tag {
  static constexpr auto pointer = Member;
};

/// The member's key in the view; empty: its name.
template <auto Member>
struct view_key {
  static constexpr std::string_view value{};
};

/// True for a member the view never shows (secrets, internal bookkeeping).
template <auto Member>
struct view_hidden : std::false_type {};

/// A member shown as `format(member)` rather than as itself.
template <auto Member>
struct view_format {
  static constexpr bool formatted = false;
};

/// The key of the nested object the member is shown in; empty: the record's
/// own object. Adjacent members with the same key share one nested object.
template <auto Member>
struct view_in {
  static constexpr std::string_view value{};
};

/// A member shown only when `shown(record)` says so.
template <auto Member>
struct view_when {
  static constexpr bool conditional = false;
};

/// True for a member whose key and value the view's context writes (a value
/// the record alone cannot give, such as signed URLs or a secret shown once).
template <auto Member>
struct view_own : std::false_type {};

/// The `object` member every record view shows after its `id` (first when
/// the view shows no id); empty: none.
template <class T>
struct view_object {
  static constexpr std::string_view value{};
};

/// Formats views share: empty text shown as null.
inline std::optional<std::string_view> null_if_empty(std::string_view s) {
  return s.empty() ? std::nullopt : std::optional<std::string_view>{s};
}

/// An enum value whose wire name is empty (a `none`) shown as null.
template <class E>
std::optional<std::string_view> name_or_null(E e) {
  return null_if_empty(to_string(e));
}

/// The shown members as a list of `member_tag`s, in the view's order; void:
/// the description's order.
template <class T>
struct view_order {
  using type = void;
};

} // namespace svc::schema

/// `T::member` is shown under `view_key_`, not its name.
#define SVC_VIEW_KEY(T, member, view_key_)                                                                        \
  template <>                                                                                                    \
  struct view_key<&T::member> {                                                                                  \
    static constexpr std::string_view value{view_key_};                                                          \
  };

/// `T::member` is never shown.
#define SVC_VIEW_HIDDEN(T, member)                                                                               \
  template <>                                                                                                    \
  struct view_hidden<&T::member> : std::true_type {};

/// `T::member` is shown as `formatter(member)` (a function declared before this line).
#define SVC_VIEW_FORMAT(T, member, formatter)                                                                    \
  template <>                                                                                                    \
  struct view_format<&T::member> {                                                                               \
    static constexpr bool formatted = true;                                                                      \
    template <class M>                                                                                           \
    static auto format(const M& m) {                                                                             \
      return formatter(m);                                                                                       \
    }                                                                                                            \
  };

/// `T::member` is shown inside the nested object `group`.
#define SVC_VIEW_IN(T, member, group)                                                                            \
  template <>                                                                                                    \
  struct view_in<&T::member> {                                                                                   \
    static constexpr std::string_view value{group};                                                              \
  };

/// `T::member` is shown only when `predicate(record)` is true (found by argument-dependent lookup, so
/// it may follow this line).
#define SVC_VIEW_WHEN(T, member, predicate)                                                                      \
  template <>                                                                                                    \
  struct view_when<&T::member> {                                                                                 \
    static constexpr bool conditional = true;                                                                    \
    template <class Record>                                                                                      \
    static bool shown(const Record& x) {                                                                         \
      return predicate(x);                                                                                       \
    }                                                                                                            \
  };

/// `T::member` is written by the view's context: `context.write(sink, record, member_tag<&T::member>{})`.
#define SVC_VIEW_OWN(T, member)                                                                                  \
  template <>                                                                                                    \
  struct view_own<&T::member> : std::true_type {};

/// `T`'s view shows `"object": name`.
#define SVC_VIEW_OBJECT(T, name)                                                                                 \
  template <>                                                                                                    \
  struct view_object<T> {                                                                                        \
    static constexpr std::string_view value{name};                                                               \
  };

#define SVC_VIEW_MEMBER_TAG(s, T, member) ::svc::schema::member_tag<&T::member>

/// `T`'s view shows `Members` (every member not hidden, each once) in this order.
#define SVC_VIEW_ORDER(T, Members)                                                                               \
  template <>                                                                                                    \
  struct view_order<T> {                                                                                         \
    using type = ::boost::mp11::mp_list<BOOST_PP_SEQ_ENUM(                                                       \
        BOOST_PP_SEQ_TRANSFORM(SVC_VIEW_MEMBER_TAG, T, BOOST_PP_TUPLE_TO_SEQ(Members)))>;                        \
  };
