# cmake -DSVCD=path/to/svcd -DOUTPUT=file -P write_example_config.cmake:
# writes `svcd --print-example-config` to OUTPUT, failing the build if svcd fails.
execute_process(COMMAND ${SVCD} --print-example-config OUTPUT_FILE ${OUTPUT} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${SVCD} --print-example-config failed: ${result}")
endif()
