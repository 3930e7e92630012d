# In a unity build a using-directive at namespace scope in one file applies to
# every file after it in the same batch, where it can change which overload a
# call picks without any error (cmake/unity_build.cmake). So no product or
# benchmark source holds one, but for std's literal namespaces; a function
# may still hold one in its own body.
#   cmake -DSOURCE_DIR=<tree> -P no_using_directives.cmake
set(folders core schema persistence providers actors clients http cluster apps bench)
set(offenders "")
foreach(folder ${folders})
  file(GLOB_RECURSE sources ${SOURCE_DIR}/${folder}/*.cpp ${SOURCE_DIR}/${folder}/*.hpp)
  foreach(source ${sources})
    file(STRINGS ${source} directives REGEX "^using namespace ")
    foreach(directive ${directives})
      if(NOT directive MATCHES "^using namespace std::(chrono_|string_)?literals;")
        file(RELATIVE_PATH name ${SOURCE_DIR} ${source})
        string(APPEND offenders "\n  ${name}: ${directive}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(offenders)
  message(FATAL_ERROR "using-directives at namespace scope:${offenders}")
endif()
message(STATUS "no using-directive at namespace scope")
