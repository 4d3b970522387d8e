# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
# One place for the warnings and definitions of our own targets (STYLE.md §8).

# stepscope_setup_target(<target> [CORE])
#   CORE adds -Wconversion: core code handles int64 nanoseconds and byte counts,
#   where a silent narrowing is a wrong number on screen.
function(stepscope_setup_target target)
    cmake_parse_arguments(ARG "CORE" "" "" ${ARGN})
    if(MSVC)
        target_compile_options(${target} PRIVATE /W4 /permissive-)
    else()
        target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
            -Wnon-virtual-dtor -Woverloaded-virtual -Wold-style-cast)
        if(ARG_CORE)
            target_compile_options(${target} PRIVATE -Wconversion -Wsign-conversion)
        endif()
    endif()
    target_compile_definitions(${target} PRIVATE QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII
        QT_NO_URL_CAST_FROM_STRING QT_NO_CAST_FROM_BYTEARRAY QT_USE_QSTRINGBUILDER)
endfunction()

# stepscope_assert_no_qt(<target>): fails the configure step if <target> links a Qt module
# other than Qt6::Core. Checked again by the core_links_no_qt test on the built binary.
function(stepscope_assert_no_qt target)
    get_target_property(libs ${target} LINK_LIBRARIES)
    foreach(lib IN LISTS libs)
        if(lib MATCHES "Qt6?::(Gui|Widgets|Charts|Svg|OpenGL)")
            message(FATAL_ERROR "${target} must not link ${lib} (STYLE.md §1)")
        endif()
    endforeach()
endfunction()
