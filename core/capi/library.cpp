// libneuralnetworks.so is nnrt_core linked whole; its only exported symbols are the C API
// (ANeuralNetworks*), chosen by a version script. This file gives the library one source of its own.
#include <android/NeuralNetworks.h>
