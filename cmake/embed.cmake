# Compiled-in text resources: `svc_embed_text(target SYMBOL name FILE path)`
# turns a source file into a generated .cpp defining
# `extern const std::string_view svc::embedded::<name>` with the file's bytes,
# and adds it to `target`. The .cpp is regenerated whenever the file changes,
# so the resource is edited as a plain file (HTML, CSS, JS, YAML) and still
# ships inside the binary, with no file to install beside it.
set(SVC_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_file.cmake)

function(svc_embed_text target)
  cmake_parse_arguments(ARG "" "SYMBOL;FILE" "" ${ARGN})
  get_filename_component(input ${ARG_FILE} ABSOLUTE)
  set(output ${CMAKE_CURRENT_BINARY_DIR}/embedded/${ARG_SYMBOL}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${output} -DSYMBOL=${ARG_SYMBOL} -P ${SVC_EMBED_SCRIPT}
    DEPENDS ${input} ${SVC_EMBED_SCRIPT}
    COMMENT "Embedding ${ARG_FILE} as svc::embedded::${ARG_SYMBOL}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()
