# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
# Fails when BINARY depends on a Qt GUI library (Qt6Gui, Qt6Widgets, ...).
execute_process(COMMAND ldd ${BINARY} OUTPUT_VARIABLE deps RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd failed on ${BINARY}")
endif()
if(deps MATCHES "libQt6(Gui|Widgets|Charts|Svg|OpenGL)")
    message(FATAL_ERROR "${BINARY} links a Qt GUI module:\n${deps}")
endif()
message(STATUS "${BINARY}: no Qt GUI module")
