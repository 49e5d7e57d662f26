# Warnings on for ordo's own targets only; third-party headers come in as SYSTEM includes.
add_library(ordo_warnings INTERFACE)
target_compile_options(ordo_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wconversion -Wsign-conversion -Wnull-dereference -Wformat=2
  -Wimplicit-fallthrough)
if(ORDO_WERROR)
  target_compile_options(ordo_warnings INTERFACE -Werror)
endif()
