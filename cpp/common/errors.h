// The errors the core raises for bad input. Each names the field that is wrong; the message
// starts with that name and says what was expected ("temperature: expected 0.01..1000, got 0").
// The bindings map each type to one Python exception class, in one place (bindings/errors.cpp).
#pragma once
#include <stdexcept>
#include <string>
#include <utility>

namespace rosen {

// A value out of range or otherwise unusable (Python: rosen.InvalidArgumentError).
struct ArgumentError : std::invalid_argument {
    ArgumentError(std::string field_name, const std::string& message)
        : std::invalid_argument(message), field(std::move(field_name)) {}
    std::string field;
};

// A value of the wrong type (Python: rosen.ArgumentTypeError, also a TypeError). Raised by the
// bindings only: C++ callers cannot pass the wrong type.
struct ArgumentTypeError : ArgumentError {
    using ArgumentError::ArgumentError;
};

}  // namespace rosen
