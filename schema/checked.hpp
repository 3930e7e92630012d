#pragma once
// The outcome of a pure check over untrusted input: a value, or the catalogue
// error to answer with. Validators return it instead of throwing, so handlers
// and actors can pass the error on as a value.

#include <utility>
#include <variant>

#include "schema/errors.hpp"

namespace svc::schema {

/// Either a `T` or the `api_error` that rejected the input.
template <class T>
class checked {
public:
  /// A success.
  checked(T value) : state_{std::move(value)} {}
  /// A failure.
  checked(api_error error) : state_{std::move(error)} {}

  /// True on success.
  explicit operator bool() const { return state_.index() == 0; }
  /// The value; only on success.
  const T& value() const& { return std::get<0>(state_); }
  /// The value, movable; only on success.
  T& value() & { return std::get<0>(state_); }
  /// The error; only on failure.
  const api_error& error() const { return std::get<1>(state_); }

private:
  std::variant<T, api_error> state_;
};

} // namespace svc::schema
