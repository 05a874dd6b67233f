# infergate_find_optional(NAME [find_package args...]): find an optional package only when its
# CMake package configuration works. A half-present package (its config found, one of its own
# REQUIRED dependencies missing, as oneDNN's config is without OpenCL) would otherwise stop the
# whole configure. It is first tried in a child CMake run; when that fails, the package is left
# out (NAME_FOUND stays false) and configure says so in one line.
set(INFERGATE_OPTIONAL_PROBE_DIR ${CMAKE_CURRENT_LIST_DIR}/optional_probe)

# The paragraph of text under the first "CMake Error" in `text`, on one line.
function(infergate_first_cmake_error text out)
  string(FIND "${text}" "CMake Error" at)
  if(at LESS 0)
    set(at 0)
  endif()
  string(SUBSTRING "${text}" ${at} -1 text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  list(POP_FRONT lines)  # "CMake Error at FILE:LINE (COMMAND):"
  set(paragraph "")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "")
      break()
    endif()
    string(APPEND paragraph " ${line}")
  endforeach()
  string(STRIP "${paragraph}" paragraph)
  set(${out} "${paragraph}" PARENT_SCOPE)
endfunction()

# A macro, not a function: find_package's variables (NAME_INCLUDE_DIRS, NAME_LIBRARIES, ...)
# must reach the caller's scope.
macro(infergate_find_optional name)
  set(_ig_probe_build ${CMAKE_BINARY_DIR}/CMakeFiles/optional_probe/${name})
  file(REMOVE_RECURSE ${_ig_probe_build})
  string(REPLACE ";" " " _ig_probe_args "${ARGN}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${INFERGATE_OPTIONAL_PROBE_DIR} -B ${_ig_probe_build}
            -DPROBE_PACKAGE=${name} "-DPROBE_ARGS=${_ig_probe_args}"
            -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    RESULT_VARIABLE _ig_probe_result OUTPUT_QUIET ERROR_VARIABLE _ig_probe_err)
  if(_ig_probe_result EQUAL 0)
    find_package(${name} ${ARGN} QUIET)
  else()
    infergate_first_cmake_error("${_ig_probe_err}" _ig_reason)
    message(STATUS "infergate: optional ${name} is present but its CMake config fails "
                   "(${_ig_reason}); built without it")
  endif()
  if(NOT ${name}_FOUND)
    set(${name}_FOUND FALSE)
  endif()
endmacro()
