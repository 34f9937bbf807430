// A minimal C++20 stand-in for std::expected (C++23), shared by the driver SDK and the runtime.
// Expected<T, E> holds a value or an error; Expected<void, E> holds nothing or an error.
#pragma once

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace nnrt {

template <class E>
class Unexpected {
 public:
  explicit Unexpected(E error) : error_(std::move(error)) {}
  E& error() & { return error_; }
  const E& error() const& { return error_; }
  E&& error() && { return std::move(error_); }

 private:
  E error_;
};

template <class T, class E>
class [[nodiscard]] Expected {
 public:
  using value_type = T;
  using error_type = E;

  Expected() requires std::is_default_constructible_v<T> : state_(std::in_place_index<0>) {}
  template <class U = T>
    requires std::is_constructible_v<T, U&&> && (!std::is_same_v<std::remove_cvref_t<U>, Expected>) &&
             (!std::is_same_v<std::remove_cvref_t<U>, Unexpected<E>>)
  Expected(U&& value) : state_(std::in_place_index<0>, std::forward<U>(value)) {}
  template <class G>
  Expected(Unexpected<G> error) : state_(std::in_place_index<1>, std::move(error).error()) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { assert(has_value()); return std::get<0>(state_); }
  const T& value() const& { assert(has_value()); return std::get<0>(state_); }
  T&& value() && { assert(has_value()); return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  E& error() & { assert(!has_value()); return std::get<1>(state_); }
  const E& error() const& { assert(!has_value()); return std::get<1>(state_); }
  E&& error() && { assert(!has_value()); return std::get<1>(std::move(state_)); }

 private:
  std::variant<T, E> state_;
};

template <class E>
class [[nodiscard]] Expected<void, E> {
 public:
  using value_type = void;
  using error_type = E;

  Expected() = default;
  template <class G>
  Expected(Unexpected<G> error) : error_(std::move(error).error()), ok_(false) {}

  bool has_value() const { return ok_; }
  explicit operator bool() const { return ok_; }
  void value() const { assert(ok_); }

  E& error() & { assert(!ok_); return error_; }
  const E& error() const& { assert(!ok_); return error_; }
  E&& error() && { assert(!ok_); return std::move(error_); }

 private:
  E error_{};
  bool ok_ = true;
};

}  // namespace nnrt

// Propagate the error of an Expected-returning expression; otherwise continue.
#define NNRT_RETURN_IF_ERROR(expr)                                         \
  do {                                                                     \
    if (auto nnrt_result_ = (expr); !nnrt_result_.has_value())             \
      return ::nnrt::Unexpected(std::move(nnrt_result_).error());          \
  } while (0)

#define NNRT_CONCAT_INNER_(a, b) a##b
#define NNRT_CONCAT_(a, b) NNRT_CONCAT_INNER_(a, b)
// `NNRT_ASSIGN_OR_RETURN(auto x, f());` declares x from f()'s value or returns f()'s error.
#define NNRT_ASSIGN_OR_RETURN(lhs, expr) NNRT_ASSIGN_OR_RETURN_IMPL_(NNRT_CONCAT_(nnrt_tmp_, __LINE__), lhs, expr)
#define NNRT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr)            \
  auto tmp = (expr);                                           \
  if (!tmp.has_value()) return ::nnrt::Unexpected(std::move(tmp).error()); \
  lhs = std::move(tmp).value()
