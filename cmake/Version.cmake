# Generates build_info.h with the version and the git hash at *build* time, so a commit
# after configuring still shows up in provenance. The file is rewritten only when it changes.
set(LOGITLAB_BUILD_INFO_DIR ${CMAKE_BINARY_DIR}/generated)
add_custom_target(logitlab_build_info
  COMMAND ${CMAKE_COMMAND}
          -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DOUT=${LOGITLAB_BUILD_INFO_DIR}/build_info_generated.h
          -DVERSION=${PROJECT_VERSION}
          -P ${CMAKE_SOURCE_DIR}/cmake/WriteBuildInfo.cmake
  BYPRODUCTS ${LOGITLAB_BUILD_INFO_DIR}/build_info_generated.h
  COMMENT "Recording version and git hash")
