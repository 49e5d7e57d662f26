// Arbitrary bytes (names from a dump are any UTF-8, paths any bytes) as XML 1.0 text. XML has no
// way to write most C0 control characters at all, not even as character references, and a
// parser refuses a document that holds one or an invalid UTF-8 sequence: those are written as
// visible escapes instead ("\x01", "\uFFFE"), the way the dump reader's messages show them.
#pragma once

#include <string>
#include <string_view>

namespace ordo::report {

enum class XmlContext { text, attribute };

// `text` escaped for character data (&, <, >) or a double- or single-quoted attribute value
// (also ", ' and the tab, line feed and carriage return, which a parser would otherwise turn
// into spaces). A carriage return in character data is written as &#13; so that it survives
// line-end normalisation.
std::string xml_escaped(std::string_view text, XmlContext context);

}  // namespace ordo::report
