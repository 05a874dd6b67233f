# infergate_folder_library(NAME [PUBLIC deps...] [PRIVATE deps...]): the static library of one
# source folder, made of every .cc file in it; one library per folder is what lets the layout
# test (ci/check-layout.py) and the linker agree on the dependency graph.
function(infergate_folder_library name)
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC ${INFERGATE_SOURCE_ROOT})
  target_link_libraries(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE infergate_warnings)
endfunction()
