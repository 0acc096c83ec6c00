#pragma once
// Numbers in error messages.
#include <cstdio>
#include <cstdlib>
#include <string>

namespace rosen {

// The shortest of %.6g, %.15g and %.17g that reads back as x: a value one ulp outside a bound
// must not print as the bound itself ("expected 0..1, got 1").
inline std::string number_text(double x) {
    char buf[32];
    for (int digits : {6, 15, 17}) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    return buf;
}

}  // namespace rosen
