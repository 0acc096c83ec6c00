#pragma once
// Numbers in error messages.
#include <charconv>
#include <string>
#include <system_error>

namespace rosen {

// The shortest of %.6g, %.15g and %.17g that reads back as x: a value one ulp outside a bound
// must not print as the bound itself ("expected 0..1, got 1"). std::to_chars and from_chars, not
// snprintf and strtod: those follow LC_NUMERIC, and a host that set a German locale read "got -0,5".
inline std::string number_text(double x) {
    char buf[40];
    char* end = buf;
    for (int digits : {6, 15, 17}) {
        end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, digits).ptr;
        double back = 0;
        const auto read = std::from_chars(buf, end, back);
        if (read.ec == std::errc() && back == x) break;
    }
    return std::string(buf, end);
}

}  // namespace rosen
