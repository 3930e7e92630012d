# Precompiled headers: the third-party headers most files include are parsed
# once per target instead of once per file (docs/build.md has the figures).
# They are usage requirements, so each target that links CAF, Beast or
# Boost.JSON gets them in its own precompiled header without asking.
#
# Every file that sees CAF also sees actors/caf_spawn_guard.hpp, which makes
# an argument-less spawn of a function actor a compile error. It rides in the
# precompiled header; without one it is force-included (GCC uses a
# precompiled header only when nothing comes before it).
#
# In a unity build they cost more than they save (docs/build.md: 178 s of
# compiler time to build them against 82 s saved), since each batch parses
# its headers once anyway; they are on by default only when each file is
# compiled on its own (-DSVC_UNITY_BUILD=OFF).
if(SVC_UNITY_BUILD)
  set(svc_pch_default OFF)
else()
  set(svc_pch_default ON)
endif()
option(SVC_PCH "Precompile the heaviest third-party headers per target" ${svc_pch_default})
set(svc_spawn_guard ${PROJECT_SOURCE_DIR}/actors/caf_spawn_guard.hpp)
if(SVC_PCH)
  target_precompile_headers(caf::core INTERFACE ${svc_spawn_guard} <caf/all.hpp>)
  target_precompile_headers(svc_boost INTERFACE <boost/json.hpp>)
else()
  target_compile_options(caf::core INTERFACE "SHELL:-include ${svc_spawn_guard}")
endif()

# More headers for one target's precompiled header: `BEAST` (Beast and Asio,
# for the layers that speak HTTP) and `TEST` (Boost.Test, for suites).
function(svc_precompile target)
  cmake_parse_arguments(P "BEAST;TEST" "" "" ${ARGN})
  if(NOT SVC_PCH)
    return()
  endif()
  if(P_BEAST)
    target_precompile_headers(${target} PRIVATE <boost/beast/core.hpp> <boost/beast/http.hpp>
      <boost/asio/ip/tcp.hpp> <boost/asio/steady_timer.hpp> <boost/asio/strand.hpp>)
  endif()
  if(P_TEST)
    target_precompile_headers(${target} PRIVATE <boost/test/unit_test.hpp>)
  endif()
endfunction()

# A precompiled header pays only where several files share it: a target of
# fewer than four compiled files (a bench tool, a test double) parses its
# headers itself and gets the spawn guard force-included instead. Called once
# at the end of the top-level CMakeLists.txt, when every target exists;
# targets outside the default build (the layer probes) keep theirs.
function(svc_precompile_only_where_it_pays dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    get_target_property(excluded ${t} EXCLUDE_FROM_ALL)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY)$" OR excluded)
      continue()
    endif()
    get_target_property(sources ${t} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.(cpp|cc)$")
    list(LENGTH sources count)
    if(count LESS 4)
      set_target_properties(${t} PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
      target_compile_options(${t} PRIVATE "SHELL:-include ${svc_spawn_guard}")
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    svc_precompile_only_where_it_pays(${sub})
  endforeach()
endfunction()
