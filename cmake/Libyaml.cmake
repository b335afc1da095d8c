# The YAML parser archfit links, as the target `libyaml`: the system's libyaml
# (pkg-config yaml-0.1), or, with ARCHFIT_LIBYAML_SOURCE, libyaml compiled
# from a configured source tree (its include/config.h written by configure)
# as part of this build, so that link-time and profile-guided optimisation
# reach the parser too. The release executables take the second road, with
# the copy of Debian's source that scripts/lib/release/deps.sh configures
# (docs/install.md, docs/performance.md). The benchmarks' floor always uses
# the system's libyaml.
set(ARCHFIT_LIBYAML_SOURCE "" CACHE PATH
    "A configured libyaml source tree to compile into archfit (empty: the system's libyaml)")

pkg_check_modules(LIBYAML REQUIRED IMPORTED_TARGET yaml-0.1)
add_library(libyaml INTERFACE)
if(NOT ARCHFIT_LIBYAML_SOURCE)
  target_link_libraries(libyaml INTERFACE PkgConfig::LIBYAML)
  return()
endif()

if(NOT EXISTS ${ARCHFIT_LIBYAML_SOURCE}/include/config.h)
  message(FATAL_ERROR "ARCHFIT_LIBYAML_SOURCE: ${ARCHFIT_LIBYAML_SOURCE} is not a configured "
                      "libyaml source tree (no include/config.h; run its configure first)")
endif()
enable_language(C)
file(GLOB libyaml_sources ${ARCHFIT_LIBYAML_SOURCE}/src/*.c)
add_library(libyaml_from_source STATIC ${libyaml_sources})
set_target_properties(libyaml_from_source PROPERTIES UNITY_BUILD OFF)
target_include_directories(libyaml_from_source PUBLIC ${ARCHFIT_LIBYAML_SOURCE}/include)
target_compile_definitions(libyaml_from_source PUBLIC YAML_DECLARE_STATIC PRIVATE HAVE_CONFIG_H)
# Compiled as its own build compiles it: its assertions stay (no NDEBUG), its
# warnings are its own, and no path of this machine is compiled in.
target_compile_options(libyaml_from_source PRIVATE -UNDEBUG -w
                       -ffile-prefix-map=${ARCHFIT_LIBYAML_SOURCE}/=libyaml/)
target_link_libraries(libyaml INTERFACE libyaml_from_source)
