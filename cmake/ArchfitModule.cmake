# archfit_module(<name> [DEPS <targets>...])
#
# Defines the static library archfit_<name> from src/<name>/**/*.cpp with the
# public headers in include/archfit/<name>/. Sources are globbed so that adding
# a file to a module needs no edit here.
function(archfit_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  if(NOT sources)  # a module that has only headers so far
    add_library(archfit_${name} INTERFACE)
    target_include_directories(archfit_${name} INTERFACE ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(archfit_${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(archfit_${name} STATIC ${sources})
  target_include_directories(archfit_${name}
    PUBLIC ${PROJECT_SOURCE_DIR}/include
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(archfit_${name} PUBLIC ${ARG_DEPS})
endfunction()
