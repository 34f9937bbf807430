/*
 * The com.example.fibonacci vendor extension: what an application needs to use it through
 * <android/NeuralNetworksExtensions.h>. Applications include this header; the driver implements it.
 */
#ifndef NNRT_EXAMPLES_FIBONACCI_EXTENSION_H
#define NNRT_EXAMPLES_FIBONACCI_EXTENSION_H

#include <stdint.h>

#define EXAMPLE_FIBONACCI_EXTENSION_NAME "com.example.fibonacci"

/* Operand types within the extension (pass to ANeuralNetworksModel_getExtensionOperandType). */
enum {
  /* A signed 64-bit integer scalar. */
  EXAMPLE_INT64 = 0,
  /* A tensor of unsigned 64-bit integers standing for real numbers:
   * real = (value - zeroPoint) * scale, with ExampleQuant64AsymmParams attached through
   * ANeuralNetworksModel_setOperandExtensionData. */
  EXAMPLE_TENSOR_QUANT64_ASYMM = 1,
};

/* Operation types within the extension (pass to ANeuralNetworksModel_getExtensionOperationType). */
enum {
  /* The first n Fibonacci numbers 1, 1, 2, 3, 5, ...
   * Input 0: n, an EXAMPLE_INT64 scalar or a TENSOR_FLOAT32 of one element; n >= 1 at execution.
   * Output 0: a 1-D tensor of n elements, EXAMPLE_TENSOR_QUANT64_ASYMM (stored as
   *           fib / scale + zeroPoint, rounded to nearest) or TENSOR_FLOAT32. */
  EXAMPLE_FIBONACCI = 0,
};

/* Extension data of an EXAMPLE_TENSOR_QUANT64_ASYMM operand. */
typedef struct ExampleQuant64AsymmParams {
  double scale;
  int64_t zeroPoint;
} ExampleQuant64AsymmParams;

#endif /* NNRT_EXAMPLES_FIBONACCI_EXTENSION_H */
