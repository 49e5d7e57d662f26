# One sanitizer configuration for the whole build, so every object agrees on instrumentation.
if(ORDO_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=thread)
elseif(ORDO_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT ORDO_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ORDO_SANITIZE must be '', 'thread' or 'address', not '${ORDO_SANITIZE}'")
endif()
