#pragma once
// The pause of a spin-wait loop.

namespace atl {

/// A hint to the core that this thread is spinning (frees the sibling hyper-thread, saves
/// power); call once per poll of a spin-wait loop.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

}  // namespace atl
