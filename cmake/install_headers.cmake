# Run by `cmake --install` (cmake/install.cmake): copies the API headers and every project header
# they include into the install tree, each at its path in the source tree.
set(headers)
foreach(api IN LISTS ordo_api_headers)
  execute_process(
    COMMAND ${ordo_compiler} -std=c++20 -x c++ -MM -MG -I${ordo_source_dir}
            ${ordo_source_dir}/${api}
    OUTPUT_VARIABLE deps RESULT_VARIABLE failed ERROR_VARIABLE why)
  if(failed)
    message(FATAL_ERROR "ordo install: cannot list the headers ${api} includes: ${why}")
  endif()
  string(REPLACE "\\\n" " " deps "${deps}")
  string(REGEX REPLACE "^[^:]*:" "" deps "${deps}")
  separate_arguments(deps UNIX_COMMAND "${deps}")
  foreach(d IN LISTS deps)
    cmake_path(ABSOLUTE_PATH d BASE_DIRECTORY ${ordo_source_dir} NORMALIZE)
    cmake_path(IS_PREFIX ordo_source_dir "${d}" NORMALIZE inside)
    if(inside AND d MATCHES "\\.hpp$" AND EXISTS "${d}")
      list(APPEND headers "${d}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES headers)
foreach(h IN LISTS headers)
  cmake_path(RELATIVE_PATH h BASE_DIRECTORY ${ordo_source_dir} OUTPUT_VARIABLE rel)
  cmake_path(GET rel PARENT_PATH dir)
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${ordo_include_dir}/${dir}" TYPE FILE
       FILES "${h}")
endforeach()
