#include <cstdio>

int main() {
  std::puts("archfit " ARCHFIT_VERSION);
  return 0;
}
