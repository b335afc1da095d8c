# ARCHFIT_VERSION and ARCHFIT_HOMEPAGE, each from its one source: the version
# from scripts/version (git) unless the release passes -DARCHFIT_VERSION, the
# address from project.conf. Read at configure time: a development build
# says the version it was configured at.
if(NOT ARCHFIT_VERSION)
  execute_process(COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/version
                  OUTPUT_VARIABLE ARCHFIT_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE version_status ERROR_VARIABLE version_error)
  if(NOT version_status EQUAL 0 OR NOT ARCHFIT_VERSION)
    message(FATAL_ERROR "scripts/version failed: ${version_error}")
  endif()
endif()
if(NOT ARCHFIT_VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+([-+.~][0-9A-Za-z.+~-]*)?$")
  message(FATAL_ERROR "ARCHFIT_VERSION \"${ARCHFIT_VERSION}\" is not a version (1.2.3 or 1.2.3-4-gabcdef0)")
endif()

file(STRINGS ${PROJECT_SOURCE_DIR}/project.conf url_line REGEX "^url=")
string(REGEX REPLACE "^url=" "" ARCHFIT_HOMEPAGE "${url_line}")
if(NOT ARCHFIT_HOMEPAGE MATCHES "^https://[^ \"\\\\]+$")
  message(FATAL_ERROR "project.conf has no url=https://... line")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/project.conf)
message(STATUS "archfit ${ARCHFIT_VERSION} (${ARCHFIT_HOMEPAGE})")
