# Third-party libraries, each as an imported target whose headers are system
# includes (their warnings are not ours). All come from Debian packages that
# scripts/setup installs.
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(Boost 1.81.0 EXACT CONFIG REQUIRED COMPONENTS json program_options unit_test_framework url)
# libcurl speaks SMTP to the mail relay (STARTTLS, AUTH, smtps://).
find_package(CURL REQUIRED)
# yaml-cpp reads schema/openapi.yaml at build time (the /docs page) and in the tests, and svcd reads
# the operator's --engines file with it (providers/engines_file.cpp).
find_package(yaml-cpp REQUIRED)

# Debian ships no CMake package config for CAF 0.17.
find_path(CAF_INCLUDE_DIR caf/all.hpp REQUIRED)
find_library(CAF_CORE_LIB caf_core REQUIRED)
add_library(caf::core INTERFACE IMPORTED)
target_include_directories(caf::core SYSTEM INTERFACE ${CAF_INCLUDE_DIR})
target_link_libraries(caf::core INTERFACE ${CAF_CORE_LIB} Threads::Threads)
# CAF's network layer (the middleman, BASP) carries typed messages between
# the nodes of a cluster, through the TLS of svcd's own cluster gate
# (cluster/cluster_gate.hpp; OpenSSL through Asio).
find_library(CAF_IO_LIB caf_io REQUIRED)
add_library(caf::io INTERFACE IMPORTED)
target_link_libraries(caf::io INTERFACE ${CAF_IO_LIB} caf::core OpenSSL::SSL OpenSSL::Crypto)

find_path(LMDB_INCLUDE_DIR lmdb.h REQUIRED)
find_library(LMDB_LIB lmdb REQUIRED)
add_library(lmdb::lmdb INTERFACE IMPORTED)
target_include_directories(lmdb::lmdb SYSTEM INTERFACE ${LMDB_INCLUDE_DIR})
target_link_libraries(lmdb::lmdb INTERFACE ${LMDB_LIB})

# FFmpeg's libraries: libavcodec (with Debian's libx264) and libavformat write
# the built-in renderer's MP4 videos; libavcodec and libswscale also decode the
# JPEG and WebP uploads that serve as init images. One well-kept dependency for
# both jobs instead of a video encoder and two image decoders of our own.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBAV REQUIRED IMPORTED_TARGET libavcodec libavformat libavutil libswscale)

# jemalloc for the server: Beast, Boost.JSON and CAF allocate per request and
# its per-thread caches beat glibc's malloc on that pattern (see README, Dependencies).
# Sanitizer builds turn it off: they bring their own allocator.
option(SVC_USE_JEMALLOC "Link svcd with jemalloc" ON)
if(SVC_USE_JEMALLOC)
  find_library(JEMALLOC_LIB jemalloc REQUIRED)
else()
  set(JEMALLOC_LIB "")
endif()

# Boost headers as system includes; Beast and Asio are header-only.
add_library(svc_boost INTERFACE)
target_include_directories(svc_boost SYSTEM INTERFACE ${Boost_INCLUDE_DIRS})
target_compile_definitions(svc_boost INTERFACE BOOST_ASIO_NO_DEPRECATED)
target_link_libraries(svc_boost INTERFACE Boost::json Boost::url Threads::Threads)
