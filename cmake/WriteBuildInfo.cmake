# Script mode: writes OUT with VERSION and the current git hash of SOURCE_DIR.
execute_process(COMMAND git -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR hash STREQUAL "")
  set(hash "unknown")
else()
  execute_process(COMMAND git -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(hash "${hash}-dirty")
  endif()
endif()
set(content "// Generated at build time by cmake/WriteBuildInfo.cmake. Do not edit.\n#pragma once\n#define LOGITLAB_VERSION \"${VERSION}\"\n#define LOGITLAB_GIT_HASH \"${hash}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
else()
  set(old "")
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()
