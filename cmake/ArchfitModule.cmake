# archfit_module(<name> [DEPS <targets>...])
#
# Defines the static library archfit_<name> from src/<name>/**/*.cpp with the
# public headers in include/archfit/<name>/. Sources are globbed so that adding
# a file to a module needs no edit here.
#
# A name with a slash is a module's part with a library of its own
# (`archfit_module(spread/model ...)` is archfit_spread_model, from
# src/spread/model/): a model that lower modules use while the module itself
# sits higher. Define the part first; the module then leaves its folder out.
function(archfit_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  string(REPLACE "/" "_" target "archfit_${name}")
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  file(GLOB parts LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/src/${name}
       ${PROJECT_SOURCE_DIR}/src/${name}/*)
  foreach(part IN LISTS parts)
    if(TARGET ${target}_${part})
      list(FILTER sources EXCLUDE REGEX "^${PROJECT_SOURCE_DIR}/src/${name}/${part}/")
    endif()
  endforeach()
  if(NOT sources)  # a module that has only headers so far
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(${target} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target}
    PUBLIC ${PROJECT_SOURCE_DIR}/include
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC ${ARG_DEPS})
endfunction()
