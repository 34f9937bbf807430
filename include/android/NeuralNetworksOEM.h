/* nnrt: Android 12+ programs may include <android/NeuralNetworksOEM.h> directly. nnrt declares
 * everything in NeuralNetworks.h (which also defines this header's guard), so this header only
 * includes it. */
#include <android/NeuralNetworks.h>
