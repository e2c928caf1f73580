"""TensorFlow 1's ``AdamOptimizer`` on numpy arrays: the optimiser of Brain-Score's TensorFlow-trained mappings
(the OST readout and the mask regression), so that ours follow the same steps.

TensorFlow 1 uses the "epsilon hat" form of Kingma & Ba (the formula before their section 2.1)::

    m <- b1 m + (1 - b1) g,   v <- b2 v + (1 - b2) g^2
    x <- x - lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + eps)

with b1 = 0.9, b2 = 0.999, eps = 1e-8 and t the step count (from 1). Arrays are updated in place, in their own
dtype (float32, like TensorFlow's variables).
"""

from __future__ import annotations

import numpy as np

__all__ = ["TF1Adam"]

BETA1, BETA2, EPSILON = 0.9, 0.999, 1e-8


class TF1Adam:
    """Adam state for a list of parameter arrays.

    Parameters
    ----------
    parameters : list of ndarray
        The arrays ``update`` changes in place (their shapes and dtypes fix the state's).
    """

    def __init__(self, parameters: list[np.ndarray]):
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]
        self.step = 0

    def update(self, parameters: list[np.ndarray], gradients: list[np.ndarray], learning_rate: float) -> None:
        """One Adam step of every parameter along its gradient (same order as at construction)."""
        self.step += 1
        for parameter, gradient, first, second in zip(parameters, gradients, self.first, self.second, strict=True):
            dtype = parameter.dtype.type
            rate = dtype(learning_rate * np.sqrt(1 - BETA2 ** self.step) / (1 - BETA1 ** self.step))
            first *= dtype(BETA1)
            first += dtype(1 - BETA1) * gradient
            second *= dtype(BETA2)
            second += dtype(1 - BETA2) * gradient * gradient
            parameter -= rate * first / (np.sqrt(second) + dtype(EPSILON))
