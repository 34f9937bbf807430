#!/usr/bin/env python3
"""Writes cnn.bin, the constants of cnn.yaml, deterministically (run it to regenerate; the output is committed).

Layout (little-endian float32):     offset  length
  conv filter [4, 3, 3, 1]               0     144
  conv bias   [4]                      144      16
  fc weights  [10, 64]                 160    2560
  fc bias     [10]                    2720      40
Values: a 32-bit LCG (x = 1664525 x + 1013904223 mod 2^32, x0 = 2024), each value
(x_k / 2^32 - 0.5) * scale with scale 1.0 for the filter, 0.25 for the fc weights, 0.2 for biases.
"""
import os
import struct

state = 2024


def values(count, scale):
    global state
    out = []
    for _ in range(count):
        state = (1664525 * state + 1013904223) % 2**32
        out.append((state / 2**32 - 0.5) * scale)
    return out


def main():
    data = values(4 * 3 * 3 * 1, 1.0) + values(4, 0.2) + values(10 * 64, 0.25) + values(10, 0.2)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cnn.bin")
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(data), *data))
    print("wrote %s (%d bytes)" % (path, 4 * len(data)))


if __name__ == "__main__":
    main()
