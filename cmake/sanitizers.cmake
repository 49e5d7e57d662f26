# One sanitizer configuration for the whole build, so every object agrees on instrumentation.
# Line tables only (-g1): a sanitizer's report needs files and lines, not variables and types, and
# full debug info made the objects on libtorch's headers a quarter slower to compile. It comes
# after the build type's -g on the command line, so it is the level in force.
if(ORDO_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=thread)
elseif(ORDO_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g1)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT ORDO_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ORDO_SANITIZE must be '', 'thread' or 'address', not '${ORDO_SANITIZE}'")
endif()
