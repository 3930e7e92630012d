#pragma once
// The public (wire) view of a record, derived from its SVC_DESCRIBE list and
// written to either sink of `json_sink.hpp`: a JSON object with one key per
// member, in the order described unless `SVC_VIEW_ORDER` gives another, and
// `"object"` after the id when `SVC_VIEW_OBJECT` names one. Strings, booleans
// and numbers as themselves (whole doubles as integers); enums by their wire
// name (`to_string`); times as ISO 8601 with milliseconds, the contract's
// format; `std::optional` as null when empty; vectors as arrays; maps by
// string as objects; described structs as nested objects by the same rules.
// What a view does otherwise with a member (hides, renames, formats, nests,
// shows only sometimes, leaves to its own code) the member's line after its
// struct says (`view_field.hpp`).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include "core/clock.hpp"
#include "core/time_format.hpp"
#include "schema/json_sink.hpp"
#include "schema/view_field.hpp"

namespace svc::schema {

/// The context of a view whose members the record alone gives. Its `write`
/// is declared so that the call in `write_members` names a member of every
/// context (Clang looks it up before the `if constexpr` is decided); a view
/// with `SVC_VIEW_OWN` members that reaches it does not compile.
struct no_view_context {
  template <class Sink, class T, class Tag>
  void write(Sink&, const T&, Tag) const {
    static_assert(!std::is_same_v<Tag, Tag>, "a view with SVC_VIEW_OWN members needs a context that writes them");
  }
};

namespace view_detail {

template <class T>
using members = boost::describe::describe_members<T, boost::describe::mod_public>;

template <class Tag>
struct names {
  template <class D>
  using fn = std::is_same<member_tag<D::pointer>, Tag>;
};

/// The description of the member `Tag` names.
template <class T, class Tag>
using descriptor_of = boost::mp11::mp_at<members<T>, boost::mp11::mp_find_if_q<members<T>, names<Tag>>>;

template <class D>
using hidden = view_hidden<D::pointer>;

template <class T, class Order = typename view_order<T>::type>
struct shown {
  template <class Tag>
  using descriptor = descriptor_of<T, Tag>;
  using type = boost::mp11::mp_transform<descriptor, Order>;
  static_assert(boost::mp11::mp_is_set<type>::value, "SVC_VIEW_ORDER names a member twice");
  static_assert(boost::mp11::mp_none_of<type, hidden>::value, "SVC_VIEW_ORDER names a hidden member");
  static_assert(boost::mp11::mp_size<type>::value + boost::mp11::mp_count_if<members<T>, hidden>::value
                    == boost::mp11::mp_size<members<T>>::value,
                "SVC_VIEW_ORDER leaves out a member that is not hidden");
};

template <class T>
struct shown<T, void> {
  using type = boost::mp11::mp_remove_if<members<T>, hidden>;
};

/// The members `T`'s view shows, in its order.
template <class T>
using shown_members = typename shown<T>::type;

template <class D>
constexpr std::string_view key() {
  constexpr auto k = view_key<D::pointer>::value;
  return k.empty() ? std::string_view{D::name} : k;
}

template <class Sink, class T, class Context>
void write_members(Sink& w, const T& x, const Context& context);

// One overload per container, chosen by the member's type; the scalars and
// described structs in the first.
template <class Sink, class T>
void write_value(Sink& w, const T& x);
template <class Sink, class T>
void write_value(Sink& w, const std::optional<T>& x);
template <class Sink, class T>
void write_value(Sink& w, const std::vector<T>& x);
template <class Sink, class T>
void write_value(Sink& w, const std::map<std::string, T>& x);

template <class Sink, class T>
void write_value(Sink& w, const T& x) {
  if constexpr (boost::describe::has_describe_members<T>::value) {
    w.begin_object();
    write_members(w, x, no_view_context{});
    w.end_object();
  } else if constexpr (std::is_same_v<T, core::time_point>) {
    w.string(core::format_iso8601(x));
  } else if constexpr (std::is_enum_v<T>) {
    w.string(to_string(x));
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    w.string(x);
  } else if constexpr (std::is_same_v<T, bool>) {
    w.boolean(x);
  } else if constexpr (std::is_floating_point_v<T>) {
    w.number(x);
  } else {
    static_assert(std::is_integral_v<T>, "no view for this member type");
    if constexpr (std::is_signed_v<T>)
      w.integer(x);
    else
      w.unsigned_integer(x);
  }
}

template <class Sink, class T>
void write_value(Sink& w, const std::optional<T>& x) {
  if (x)
    write_value(w, *x);
  else
    w.null();
}

template <class Sink, class T>
void write_value(Sink& w, const std::vector<T>& x) {
  w.begin_array();
  for (auto& item : x)
    write_value(w, item);
  w.end_array();
}

template <class Sink, class T>
void write_value(Sink& w, const std::map<std::string, T>& x) {
  w.begin_object();
  for (auto& [k, item] : x) {
    w.key(k);
    write_value(w, item);
  }
  w.end_object();
}

/// The nested object member `I` of `List` is shown in; "" for none (and past either end).
template <class List, std::size_t I>
constexpr std::string_view group() {
  if constexpr (I < boost::mp11::mp_size<List>::value)
    return view_in<boost::mp11::mp_at_c<List, I>::pointer>::value;
  else
    return {};
}

// Where the `object` member goes and where nested objects open and close is
// decided at compile time: this writes every answer of the read path.
template <class Sink, class T, class Context>
void write_members(Sink& w, const T& x, const Context& context) {
  using list = shown_members<T>;
  constexpr std::string_view object = view_object<T>::value;
  constexpr bool object_after_id = !object.empty() && key<boost::mp11::mp_front<list>>() == "id";
  if constexpr (!object.empty() && !object_after_id)
    w.key("object").string(object);
  boost::mp11::mp_for_each<boost::mp11::mp_iota<boost::mp11::mp_size<list>>>([&](auto index) {
    constexpr std::size_t i = decltype(index)::value;
    using D = boost::mp11::mp_at_c<list, i>;
    static_assert(!view_when<D::pointer>::conditional || group<list, i>().empty(),
                  "a member shown only sometimes cannot be in a nested object");
    if constexpr (view_when<D::pointer>::conditional)
      if (!view_when<D::pointer>::shown(x))
        return;
    constexpr auto in = group<list, i>();
    constexpr auto before = group<list, i - 1>(); // "" before the first
    if constexpr (in != before && !in.empty())
      w.key(in).begin_object();
    if constexpr (view_own<D::pointer>::value) {
      context.write(w, x, member_tag<D::pointer>{});
    } else {
      w.key(key<D>());
      if constexpr (view_format<D::pointer>::formatted)
        write_value(w, view_format<D::pointer>::format(x.*D::pointer));
      else
        write_value(w, x.*D::pointer);
    }
    if constexpr (!in.empty() && group<list, i + 1>() != in)
      w.end_object();
    if constexpr (i == 0 && object_after_id)
      w.key("object").string(object);
  });
}

} // namespace view_detail

/// Writes `x`'s view members into an object the caller has opened, so a view
/// may add members of its own after them. `context` writes the `SVC_VIEW_OWN` members.
template <class Sink, class T, class Context = no_view_context>
void write_view_members(Sink& w, const T& x, const Context& context = {}) {
  view_detail::write_members(w, x, context);
}

/// Writes `x`'s view: one JSON object.
template <class Sink, class T, class Context = no_view_context>
void write_view(Sink& w, const T& x, const Context& context = {}) {
  w.begin_object();
  write_view_members(w, x, context);
  w.end_object();
}

/// `x`'s view as a tree, for answers that embed or extend it.
template <class T, class Context = no_view_context>
boost::json::value view_tree(const T& x, const Context& context = {}) {
  json_tree tree;
  write_view(tree, x, context);
  return tree.release();
}

} // namespace svc::schema
