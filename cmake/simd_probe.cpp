#include <cstdio>
int main() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2"))
    std::puts("AVX2");
  else if (__builtin_cpu_supports("sse4.1"))
    std::puts("SSE4_1");
  else
    std::puts("SCALAR");
  return 0;
}
