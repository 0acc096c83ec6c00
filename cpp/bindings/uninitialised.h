// Instances whose constructor never ran: refused, not read.
#pragma once
#include <pybind11/pybind11.h>

#include <typeinfo>

#include "common/errors.h"

namespace rosen::bindings {

// pybind11 gives a method called on an instance whose __init__ never ran (Cls.__new__(Cls), or a
// pickle stream that creates the object and never sets its state) freshly allocated, uninitialised
// memory as its C++ value: garbage, and a crash waiting to happen. That lazy allocation goes
// through the type's operator_new hook; making the hook throw turns every such call into a
// rosen.ArgumentTypeError and leaves the instance empty. Legitimate instances never reach it: a
// constructor, a factory, pickle's __setstate__ or a C++ return value always sets the value first.
template <class T>
void refuse_uninitialised() {
    pybind11::detail::get_type_info(typeid(T), /*throw_if_missing=*/true)->operator_new = [](size_t) -> void* {
        throw ArgumentTypeError("self",
                                "self: this object was created without its constructor (by __new__ or a damaged "
                                "pickle); build it with its constructor or a factory instead");
    };
}

}  // namespace rosen::bindings
