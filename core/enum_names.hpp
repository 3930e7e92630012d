#pragma once
// Names of enumerators from the enum's BOOST_DESCRIBE_ENUM list, so an enum's
// wire names are written once: next to the enum. An enum whose wire names
// are not its enumerators' names (`lora_selection::requested` is `explicit`)
// keeps its own `to_string`; `enum_from_name` reads back through it all the same.

#include <optional>
#include <string_view>

#include <boost/describe/enum.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

namespace svc::core {

/// The name `e` has in its enum's description (`job_status::queued` is
/// `queued`); empty for a value the description does not list.
template <class E>
std::string_view enumerator_name(E e) {
  std::string_view name;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) {
    if (name.empty() && d.value == e)
      name = d.name;
  });
  return name;
}

/// The described enumerator whose `to_string` (found next to the enum) is
/// `name`; nothing when none is.
template <class E>
std::optional<E> enum_from_name(std::string_view name) {
  std::optional<E> found;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto d) {
    if (!found && to_string(d.value) == name)
      found = d.value;
  });
  return found;
}

} // namespace svc::core
