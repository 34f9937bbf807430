// Happens-before edges for ThreadSanitizer where the synchronization is inside a library TSan
// cannot see (Debian's oneTBB is not instrumented). Without these, every hand-off of work to a
// oneTBB worker looks like a race. No-ops in builds without -fsanitize=thread.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
// Everything this thread did before is visible to a thread that later calls nnrtHappensAfter(addr).
inline void nnrtHappensBefore(const void* addr) { __tsan_release(const_cast<void*>(addr)); }
inline void nnrtHappensAfter(const void* addr) { __tsan_acquire(const_cast<void*>(addr)); }
#else
inline void nnrtHappensBefore(const void*) {}
inline void nnrtHappensAfter(const void*) {}
#endif
