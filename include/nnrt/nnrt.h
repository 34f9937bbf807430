/*
 * nnrt's public additions to the NNAPI C API (Linux has no Android package manager, so the
 * runtime needs to be told who is calling). Link with libneuralnetworks.so.
 */
#ifndef NNRT_NNRT_H
#define NNRT_NNRT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the application id that package-name entries of the vendor-extension allowlist are matched
 * against (the environment variable NNRT_APP_ID does the same for programs that cannot call this).
 * NULL or "" clears it. As in Android, the allowlist prevents unintended use of vendor extensions,
 * not deliberate circumvention: any program may claim any id.
 * Returns ANEURALNETWORKS_NO_ERROR. Thread-safe. */
int ANeuralNetworksNnrt_setApplicationId(const char* applicationId);

#ifdef __cplusplus
}
#endif

#endif /* NNRT_NNRT_H */
