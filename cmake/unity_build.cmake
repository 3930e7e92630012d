# Unity builds: each target's files are compiled in batches, one translation
# unit per batch, so the templates they share (CAF's typed actors, Beast,
# Boost.JSON, Boost.Test) are instantiated and optimised once a batch instead
# of once a file (docs/build.md has the figures). It asks of the sources that
# no two files of a target declare the same name at namespace scope, even in
# an anonymous namespace; the compiler refuses a clash with a redefinition.
option(SVC_UNITY_BUILD "Compile each target's files in batches (unity build)" ON)
set(CMAKE_UNITY_BUILD ${SVC_UNITY_BUILD})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 16)
# GCC warns of a class with a member of an anonymous-namespace type when the
# class is not in the main file, which in a unity batch every .cpp is; the
# warning is meant for headers, where such a class would differ per file.
if(SVC_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-subobject-linkage)
endif()
