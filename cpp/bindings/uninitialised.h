// Instances whose constructor never ran: refused, not read.
#pragma once
#include <pybind11/pybind11.h>

#include <string>
#include <typeinfo>

#include "common/errors.h"

namespace rosen::bindings {

// pybind11 gives a method called on an instance whose __init__ never ran (Cls.__new__(Cls), or a
// pickle stream that creates the object and never sets its state) freshly allocated, uninitialised
// memory as its C++ value: garbage, and a crash waiting to happen. That lazy allocation goes
// through the type's operator_new hook; making the hook throw turns every such call into a
// rosen.ArgumentTypeError and leaves the instance empty. Legitimate instances never reach it: a
// constructor, a factory, pickle's __setstate__ or a C++ return value always sets the value first.
//
// The error cannot tell whether the instance is the method's `self` or one of its arguments, so
// it names the class (Position -> field "position"), which reads right either way.
inline std::string short_name(const char* tp_name) {
    const std::string name(tp_name);
    return name.substr(name.rfind('.') + 1);  // npos + 1 == 0: no module part
}

inline std::string field_of_class(std::string name) {
    while (!name.empty() && name.front() == '_') name.erase(0, 1);
    std::string field;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c >= 'A' && c <= 'Z') {
            if (i > 0) field += '_';
            field += char(c - 'A' + 'a');
        } else {
            field += c;
        }
    }
    return field;
}

template <class T>
void refuse_uninitialised() {
    pybind11::detail::get_type_info(typeid(T), /*throw_if_missing=*/true)->operator_new = [](size_t) -> void* {
        const std::string shown = short_name(pybind11::detail::get_type_info(typeid(T))->type->tp_name);
        const std::string field = field_of_class(shown);
        throw ArgumentTypeError(field, field + ": this " + shown +
                                           " was created without its constructor (by __new__ or a damaged pickle); "
                                           "build it with its constructor or a factory instead");
    };
}

}  // namespace rosen::bindings
