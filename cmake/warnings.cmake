# Warnings on for ordo's own targets only; third-party headers come in as SYSTEM includes.
add_library(ordo_warnings INTERFACE)
target_compile_options(ordo_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference -Wformat=2
  -Wimplicit-fallthrough)
if(ORDO_WERROR)
  target_compile_options(ordo_warnings INTERFACE -Werror)
endif()
# g++ 12 at -O2 and above reports -Wrestrict on ordinary `"literal" + std::string` expressions
# inside libstdc++ (GCC bug 105329, fixed in g++ 13); as an error it would reject correct code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(ordo_warnings INTERFACE -Wno-restrict)
endif()
