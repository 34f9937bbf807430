#!/usr/bin/env python3
"""Fits the rational approximation of erf that the ONNX front end composes for Erf (onnx/operators_elementwise.cpp,
erfOf): erf x ~ x P(x^2) / Q(x^2) on [0, 4], P and Q of degree 5, Q(0) = 1. Linearized least squares
(x P - erf(x) Q = 0), each pass reweighted by 1 / Q^2 of the last (Loeb) and towards the largest errors (Lawson); keeps
the pass with the smallest maximum error, then evaluates the result in float32 as the front end's operations do (clamp
to [-4, 4], Horner's rule, one division) over [-5, 5]. Prints the coefficients and both errors.
Usage: /usr/bin/python3 tools/fit_erf.py   (needs numpy)"""
from math import erf

import numpy as np

DEGREE_P, DEGREE_Q, LIMIT = 5, 5, 4.0


def fit(x, f, passes=60):
    t = x * x
    weights = np.ones_like(x)
    best = None
    for _ in range(passes):
        a = np.hstack([x[:, None] * t[:, None] ** np.arange(DEGREE_P + 1),
                       -f[:, None] * t[:, None] ** np.arange(1, DEGREE_Q + 1)])
        root = np.sqrt(weights)
        solution, *_ = np.linalg.lstsq(a * root[:, None], f * root, rcond=None)
        p, q = solution[:DEGREE_P + 1], np.concatenate([[1.0], solution[DEGREE_P + 1:]])
        qt = np.polyval(q[::-1], t)
        error = np.abs(x * np.polyval(p[::-1], t) / qt - f)
        if best is None or error.max() < best[0]:
            best = (error.max(), p, q)
        weights = weights / qt ** 2 * np.sqrt(error / error.max()) + 1e-12
        weights /= weights.max()
    return best


def horner32(c, t):
    acc = np.float32(c[-1]) * t
    for k in range(len(c) - 2, -1, -1):
        acc = (acc + np.float32(c[k])).astype(np.float32)
        if k > 0:
            acc = (acc * t).astype(np.float32)
    return acc


def main():
    x = np.linspace(1e-6, LIMIT, 20000)
    worst, p, q = fit(x, np.array([erf(v) for v in x]))
    inputs = np.linspace(-5, 5, 200001).astype(np.float32)
    clamped = np.clip(inputs, np.float32(-LIMIT), np.float32(LIMIT))
    t = (clamped * clamped).astype(np.float32)
    value = ((clamped * horner32(p, t)).astype(np.float32) / horner32(q, t)).astype(np.float32)
    error32 = np.abs(value - np.array([erf(float(v)) for v in inputs])).max()
    print("P:", ", ".join(repr(float(c)) for c in p))
    print("Q:", ", ".join(repr(float(c)) for c in q))
    print(f"max |error| on [0, {LIMIT}]: {worst:.3g} in double, {error32:.3g} evaluated in float32 on [-5, 5]")


if __name__ == "__main__":
    main()
