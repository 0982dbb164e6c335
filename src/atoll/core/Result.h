#pragma once
// Errors a user can cause (bad settings, bad shapes, bad scene files, invalid IDs) are reported
// with atl::Error: returned inside a Result<T>, or thrown at API boundaries that cannot return.

#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "atoll/core/Assert.h"

namespace atl {

/// A user-caused error: `message` names the offending input and the problem.
class Error : public std::runtime_error {
 public:
  explicit Error(std::string message) : std::runtime_error(std::move(message)) {}
  /// The message, e.g. "BoxShapeSettings.half_extent.y: must be > 0, got -1".
  const char* message() const noexcept { return what(); }
};

/// Either a value of type T or an Error. Like std::expected, which C++20 lacks.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : data_(std::move(error)) {}  // NOLINT: implicit by design

  /// True when a value is held.
  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; asserts ok().
  T& value() & {
    ATOLL_ASSERT(ok(), "Result::value() on an error");
    return std::get<0>(data_);
  }
  const T& value() const& {
    ATOLL_ASSERT(ok(), "Result::value() on an error");
    return std::get<0>(data_);
  }
  T&& value() && {
    ATOLL_ASSERT(ok(), "Result::value() on an error");
    return std::get<0>(std::move(data_));
  }
  /// The value, or throws the held Error (for callers that prefer exceptions).
  T& value_or_throw() & {
    if (!ok()) throw std::get<1>(data_);
    return std::get<0>(data_);
  }
  T value_or_throw() && {
    if (!ok()) throw std::get<1>(data_);
    return std::get<0>(std::move(data_));
  }
  /// The error; asserts !ok().
  const Error& error() const {
    ATOLL_ASSERT(!ok(), "Result::error() on a value");
    return std::get<1>(data_);
  }

  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }

 private:
  std::variant<T, Error> data_;
};

/// A Result with no value: success or an Error.
struct Ok {};
using Status = Result<Ok>;

}  // namespace atl
