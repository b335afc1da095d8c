# Building archfit from a profile of its own runs (docs/performance.md, "Built
# from a profile of its runs"). Two stages in one build tree:
#
#   ARCHFIT_PGO=generate  archfit counts what it executes; each run adds its
#                         counts to .gcda files beside the objects
#   ARCHFIT_PGO=use       archfit is compiled again, in the same tree, laid out
#                         and inlined by those counts; code the runs never
#                         reached is optimised as without a profile
#
# with training runs between them: scripts/build-optimized does all three.
# ARCHFIT_LTO optimises across files at link time as well. GCC only: clang's
# profiles take another tool (llvm-profdata) and another format.
set(ARCHFIT_PGO "" CACHE STRING "Profile-guided optimisation stage: generate, use, or empty for none")
set_property(CACHE ARCHFIT_PGO PROPERTY STRINGS "" generate use)
option(ARCHFIT_LTO "Optimise across files when linking (link-time optimisation)" OFF)

if(ARCHFIT_PGO OR ARCHFIT_LTO)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "ARCHFIT_PGO and ARCHFIT_LTO need GCC (this is ${CMAKE_CXX_COMPILER_ID}): "
                        "configure with CXX=g++")
  endif()
  if(ARCHFIT_SANITIZE OR ARCHFIT_FUZZ)
    message(FATAL_ERROR "ARCHFIT_PGO and ARCHFIT_LTO are for optimised builds, "
                        "not with ARCHFIT_SANITIZE or ARCHFIT_FUZZ")
  endif()
endif()

if(ARCHFIT_PGO STREQUAL "generate")
  # Atomic counters: archfit's threads count into the same files.
  add_compile_options(-fprofile-generate -fprofile-update=atomic)
  add_link_options(-fprofile-generate)
  # Every training run hashes with one key (base/key_index.cpp): a key drawn
  # at random would send the runs down other branches each time, and the
  # profile, so the executable, would differ from build to build.
  add_compile_definitions(ARCHFIT_FIXED_HASH_KEY)
elseif(ARCHFIT_PGO STREQUAL "use")
  # A test or benchmark program the training never ran has no profile: it is
  # compiled as without one, silently.
  add_compile_options(-fprofile-use -fprofile-partial-training -Wno-missing-profile)
elseif(ARCHFIT_PGO)
  message(FATAL_ERROR "ARCHFIT_PGO is '${ARCHFIT_PGO}': it must be generate, use or empty")
endif()

if(ARCHFIT_LTO)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT lto_supported OUTPUT lto_output LANGUAGES CXX)
  if(NOT lto_supported)
    message(FATAL_ERROR "ARCHFIT_LTO: the compiler cannot optimise at link time: ${lto_output}")
  endif()
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
endif()
