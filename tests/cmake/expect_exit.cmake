# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
# Runs EXE with ARGS (a |-separated list) and fails unless it exits with EXPECTED; a crash
# never passes. Optional: STDERR_MATCHES, STDOUT_MATCHES (regexes), and FILE + FILE_MATCHES
# (a file the command wrote; removed before the run), AVAILABLE_MEMORY (bytes, as
# STEPSCOPE_AVAILABLE_MEMORY: the memory budget's stand-in for the machine).
string(REPLACE "|" ";" args "${ARGS}")
if(DEFINED FILE)
    file(REMOVE "${FILE}")
endif()
if(DEFINED AVAILABLE_MEMORY)
    set(ENV{STEPSCOPE_AVAILABLE_MEMORY} "${AVAILABLE_MEMORY}")
endif()
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${rc}" STREQUAL "${EXPECTED}")
    message(FATAL_ERROR "expected exit ${EXPECTED}, got '${rc}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDERR_MATCHES AND NOT err MATCHES "${STDERR_MATCHES}")
    message(FATAL_ERROR "stderr does not match '${STDERR_MATCHES}':\n${err}")
endif()
if(DEFINED STDOUT_MATCHES AND NOT out MATCHES "${STDOUT_MATCHES}")
    message(FATAL_ERROR "stdout does not match '${STDOUT_MATCHES}':\n${out}")
endif()
if(DEFINED FILE)
    if(NOT EXISTS "${FILE}")
        message(FATAL_ERROR "${FILE} was not written")
    endif()
    file(READ "${FILE}" content)
    if(DEFINED FILE_MATCHES AND NOT content MATCHES "${FILE_MATCHES}")
        message(FATAL_ERROR "${FILE} does not match '${FILE_MATCHES}':\n${content}")
    endif()
endif()
