#pragma once
// What a read of the store found: a value, nothing, or an error. An error (no
// reader slot, an I/O error, a damaged page) is not an absent key: answering
// "unknown key" or "not found" for it would tell a client that data it owns
// does not exist. So the type has no conversion to bool, and every caller
// says what each of the three cases means.

#include <optional>
#include <string>
#include <utility>

namespace svc::persistence {

template <class T>
class [[nodiscard]] read_result {
public:
  /// Found: `value`.
  read_result(T value) : value_{std::move(value)} {} // NOLINT: a found value converts implicitly
  /// Absent.
  static read_result none() { return read_result{}; }
  /// The store could not say; `why` is LMDB's or the OS's reason.
  static read_result error(std::string why) {
    read_result r;
    r.error_ = std::move(why);
    return r;
  }

  bool has_value() const { return value_.has_value(); }
  bool absent() const { return !value_ && error_.empty(); }
  bool failed() const { return !error_.empty(); }
  /// The reason of a failed read (empty otherwise).
  const std::string& why() const { return error_; }

  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

  /// The value if found: for callers that already handled `failed()`.
  std::optional<T> found() && { return std::move(value_); }

  /// Absent instead of a found value that `keep` refuses (a filter).
  template <class P>
  read_result keep_if(P keep) && {
    if (value_ && !keep(*value_))
      value_.reset();
    return std::move(*this);
  }

  /// The same outcome with the value transformed (`f` runs only when found).
  template <class F>
  auto map(F f) && -> read_result<decltype(f(std::declval<T&&>()))> {
    using U = decltype(f(std::declval<T&&>()));
    if (value_)
      return read_result<U>{f(std::move(*value_))};
    return failed() ? read_result<U>::error(std::move(error_)) : read_result<U>::none();
  }

private:
  read_result() = default;
  std::optional<T> value_;
  std::string error_;
};

} // namespace svc::persistence
