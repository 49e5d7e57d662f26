// A number in fixed notation ("%.1f") as long as it takes: 1e308 has 309 digits, and a buffer of
// fixed size cut such figures short in the middle of a table row or an XML attribute.
#pragma once

#include <string>

namespace ordo::report {

// `value` with `decimals` digits after the point; "nan", "inf" and "-inf" as printf spells them.
std::string fixed_text(double value, int decimals);

}  // namespace ordo::report
