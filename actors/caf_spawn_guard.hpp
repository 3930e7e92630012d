#pragma once
// Makes a function-based actor spawned with no arguments a compile error.
// CAF 0.17.6 stores a function actor's arguments in a tuple it allocates only
// when there are some, then dereferences that tuple whatever its size
// (caf/detail/init_fun_factory.hpp): with none it binds a reference to a null
// pointer, which UBSan halts on. cmake/precompiled_headers.cmake puts this
// header into every file that sees CAF, so no such spawn can be written.

#include <memory>
#include <tuple>

#include <caf/behavior.hpp>
#include <caf/detail/init_fun_factory.hpp>

namespace caf::detail {

/// Only ever instantiated for an argument-less spawn of a function actor.
template <class Base, class F, bool ReturnsBehavior, bool HasSelfPtr>
class init_fun_factory_helper<Base, F, std::shared_ptr<std::tuple<>>, ReturnsBehavior, HasSelfPtr> final
  : public init_fun_factory_helper_base {
  static_assert(sizeof(F) == 0, // never true: a function object has a size
                "a function actor spawned with no arguments dereferences a null tuple in CAF 0.17.6; "
                "pass what the actor needs as spawn arguments (see actors/caf_spawn_guard.hpp)");

public:
  init_fun_factory_helper(F, std::shared_ptr<std::tuple<>>);
  behavior operator()(local_actor*) final;
};

} // namespace caf::detail
