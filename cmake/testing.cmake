# Boost.Test executables. Each test file is one suite named after it
# (`BOOST_AUTO_TEST_SUITE(<folder>_<file>)`, opened after its includes), and
# the files of a folder link into one executable, so a folder links CAF,
# Boost and OpenSSL once instead of once per file. Every suite stays its own
# ctest entry (`<folder>_<file>_test`, run as `--run_test=<folder>_<file>`),
# so ctest still names each failing suite.
#
# Test code is compiled at -O0 whatever the build type: it is half of the
# build's files, and its speed is not what the suites measure (-O1 cost 90 s
# more compiler time, docs/build.md). The product libraries it links keep the
# build type's optimisation, so the code under test is the code that ships.
# A folder's suites are compiled in batches of 32: they share more templates
# (Boost.Test's, the fixtures') than product files do.
set(svc_test_optimisation -O0)

set(svc_test_main ${PROJECT_SOURCE_DIR}/tests/support/test_main.cpp)

# test_main.cpp defines BOOST_TEST_MODULE before it includes Boost.Test, so
# it must not see a precompiled copy of Boost.Test made without it.
function(svc_test_main_without_pch target)
  set_source_files_properties(${svc_test_main} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON
    SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

# The executable of a folder's suites, made on first use.
function(svc_suite_executable target)
  if(NOT TARGET ${target})
    add_executable(${target} ${svc_test_main})
    target_compile_definitions(${target} PRIVATE BOOST_TEST_DYN_LINK)
    target_compile_options(${target} PRIVATE ${svc_test_optimisation})
    set_target_properties(${target} PROPERTIES UNITY_BUILD_BATCH_SIZE 32)
    target_link_libraries(${target} PRIVATE Boost::unit_test_framework)
    svc_precompile(${target} TEST)
    svc_test_main_without_pch(${target})
  endif()
endfunction()

# Adds suites to a folder's executable, one ctest entry each.
#   svc_add_suites(TARGET exe PREFIX folder_ SUITES file... [LIBS lib...] [LABELS l...])
# A suite `x` is the file `x_test.cpp` and the ctest entry `<PREFIX>x_test`.
function(svc_add_suites)
  cmake_parse_arguments(T "" "TARGET;PREFIX" "SUITES;LIBS;LABELS" ${ARGN})
  svc_suite_executable(${T_TARGET})
  target_link_libraries(${T_TARGET} PRIVATE ${T_LIBS})
  foreach(suite ${T_SUITES})
    target_sources(${T_TARGET} PRIVATE ${suite}_test.cpp)
    add_test(NAME ${T_PREFIX}${suite}_test COMMAND ${T_TARGET} --run_test=${T_PREFIX}${suite})
    if(T_LABELS)
      set_tests_properties(${T_PREFIX}${suite}_test PROPERTIES LABELS "${T_LABELS}")
    endif()
  endforeach()
endfunction()

# A test that must be an executable of its own (it replaces libc functions,
# say): the file's suite alone, with its own main.
#   svc_add_test(NAME name SOURCES a.cpp... LIBS lib... [LABELS l])
function(svc_add_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${svc_test_main} ${T_SOURCES})
  svc_test_main_without_pch(${T_NAME})
  target_compile_definitions(${T_NAME} PRIVATE BOOST_TEST_DYN_LINK)
  target_compile_options(${T_NAME} PRIVATE ${svc_test_optimisation})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} Boost::unit_test_framework)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  endif()
endfunction()
