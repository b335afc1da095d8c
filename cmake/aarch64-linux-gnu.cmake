# Cross-compiling for linux/arm64 with Debian's aarch64 toolchain
# (g++-aarch64-linux-gnu); scripts/release uses it for the arm64 executable.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Libraries and headers for the target come from the release's staged static
# libraries (OPENSSL_ROOT_DIR, PKG_CONFIG_LIBDIR) and Debian's cross sysroot;
# header-only packages (CLI11, RapidJSON) and programs from this machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
