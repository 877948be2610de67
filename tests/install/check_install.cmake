# Installs the built library into a scratch prefix and builds a separate project against it with
# find_package(pqpage), proving the package config and exported target work, that every installed
# header stands alone (no generated Thrift types, each header compiles by itself), and that the
# codecs, the file writer and reader, the page header walk, the footer metadata, and recoding and
# advising a file all work from the installed package only.
set(prefix ${BUILD_DIR}/install_check/prefix)
set(consumer_build ${BUILD_DIR}/install_check/consumer)
file(REMOVE_RECURSE ${BUILD_DIR}/install_check)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed")
endif()
file(GLOB installed_headers ${prefix}/include/pqpage/*.h)
foreach(header ${installed_headers})
  file(READ ${header} text)
  if(text MATCHES "parquet_types\\.h|format::")
    message(FATAL_ERROR "${header} refers to the generated Thrift types, which are not installed")
  endif()
endforeach()
set(tool_root ${BUILD_DIR}/install_check/tool_src)
file(COPY ${SOURCE_DIR}/src/cli DESTINATION ${tool_root})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${consumer_build}
  -DPQPAGE_TOOL_SOURCE_ROOT=${tool_root}
  -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_CXX_FLAGS=${CONSUMER_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${CONSUMER_FLAGS}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring a find_package(pqpage) consumer failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${consumer_build} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the consumer failed")
endif()
execute_process(COMMAND ${consumer_build}/consumer RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer failed to round-trip values")
endif()
execute_process(COMMAND ${consumer_build}/file_consumer WORKING_DIRECTORY ${consumer_build}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the file consumer failed (exit ${rc}): see its message above")
endif()
execute_process(COMMAND ${consumer_build}/recode_consumer WORKING_DIRECTORY ${consumer_build}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the recode consumer failed (exit ${rc}): see its message above")
endif()
# The tool built from the package dumps a file the project ships exactly as its golden says, and
# inspects it.
set(sample ${SOURCE_DIR}/testfiles/peers/polars-zstd.parquet)
execute_process(COMMAND ${consumer_build}/pqpage_tool dump ${sample} RESULT_VARIABLE rc
  OUTPUT_VARIABLE dumped)
file(READ ${sample}.dump.jsonl golden)
if(NOT rc EQUAL 0 OR NOT dumped STREQUAL golden)
  message(FATAL_ERROR "the pqpage tool built against the package dumps ${sample} wrongly (exit ${rc})")
endif()
execute_process(COMMAND ${consumer_build}/pqpage_tool inspect ${sample} RESULT_VARIABLE rc
  OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the pqpage tool built against the package failed to inspect ${sample}")
endif()
