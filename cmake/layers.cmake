# The layer rule of architecture.md as a compiler rule: each layer's target
# gets an include root of its own that holds one link, to its own folder
# (build/layers/<folder>/<folder> -> <source>/<folder>), and passes it on only
# to the targets that link it. A header of a layer further up the table is
# then not on the include path at all: `#include "http/..."` in persistence/
# does not compile. A layer in a subfolder (apps/svcd) gets a root of its
# own too (build/layers/apps_svcd/apps/svcd), so it sees none of its
# parent folder's headers. Tests and benchmarks may include anything and see
# the whole source tree (their CMakeLists say so).
function(svc_layer_includes target folder)
  string(REPLACE "/" "_" root_name ${folder})
  set(root ${PROJECT_BINARY_DIR}/layers/${root_name})
  get_filename_component(link_parent ${root}/${folder} DIRECTORY)
  file(MAKE_DIRECTORY ${link_parent})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${folder} ${root}/${folder} SYMBOLIC)
  target_include_directories(${target} PUBLIC ${root})
endfunction()
