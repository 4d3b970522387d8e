# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
# Runs EXE with ARGS (a |-separated list) and fails unless it exits with EXPECTED; a crash
# never passes.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${rc}" STREQUAL "${EXPECTED}")
    message(FATAL_ERROR "expected exit ${EXPECTED}, got '${rc}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(DEFINED STDERR_MATCHES AND NOT err MATCHES "${STDERR_MATCHES}")
    message(FATAL_ERROR "stderr does not match '${STDERR_MATCHES}':\n${err}")
endif()
