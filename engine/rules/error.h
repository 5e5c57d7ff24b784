// Errors for input that comes from outside (notation, position codes, options).
// Untrusted input never throws or crashes: it yields an Error with a message a
// person can act on, and a code the service maps to a stable reason.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace foxgeese {

enum class ErrorCode {
    kUnknownVariant,   // no variant of that name
    kInvalidOptions,   // options the variant does not take, or out of range
    kInvalidNotation,  // a move string that does not parse
    kInvalidPosition,  // a position code that does not parse or is not valid for the variant
    kIllegalMove,      // well-formed, but not a legal move in the position
    kGameOver,         // the position is decided: no move may be played
};

struct Error {
    ErrorCode code;
    std::string message;
};

// Either a value or an error (an Error unless said otherwise); a small
// stand-in for C++23's std::expected.
template <class T, class E = Error>
class [[nodiscard]] Result {
  public:
    Result(T value) : state_(std::move(value)) {}
    Result(E error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T& value() const& {
        assert(ok());
        return std::get<0>(state_);
    }
    T& value() & {
        assert(ok());
        return std::get<0>(state_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(state_));
    }
    const T& operator*() const& { return value(); }
    const T* operator->() const { return &value(); }

    const E& error() const {
        assert(!ok());
        return std::get<1>(state_);
    }

  private:
    std::variant<T, E> state_;
};

inline Error make_error(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

}  // namespace foxgeese
