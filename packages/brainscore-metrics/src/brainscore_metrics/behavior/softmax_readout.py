"""A linear softmax readout trained like Brain-Score's ``TFProbabilitiesClassifier`` (the OST metric's decoder).

Features are z-scored (scikit-learn's ``StandardScaler`` fitted on the training rows); labels become class indices
in order of first appearance; logits ``X W + b`` are trained on the mean softmax cross-entropy plus
``weight_decay / 2 * (||W||^2 + ||b||^2)`` by TensorFlow 1's Adam (:class:`~brainscore_metrics._adam.TF1Adam`) over
``max_epochs`` epochs of shuffled minibatches (one ``numpy.random.RandomState(0)`` per fit, as Brain-Score's),
stopping after an epoch whose last batch has a cross-entropy below ``tol``; all in float32, like TensorFlow.

The initial weights are TensorFlow's own: Keras 3's ``VarianceScaling(seed=0)`` (a truncated normal of std
``sqrt(1 / n_features) / 0.8796``), drawn by :func:`brainscore_metrics._tf_random.keras_variance_scaling`, which
reproduces TensorFlow's Philox draw (Brain-Score's numbers with TensorFlow 2.16 or later). With a learning rate of
1e-4 and 40 epochs the readout stays close to its start, so the start matters; ``initial_weights`` takes any other.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._adam import TF1Adam
from brainscore_metrics._tf_random import keras_variance_scaling
from brainscore_metrics.backend.plan import compute_plan

__all__ = ["SoftmaxReadout"]

def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


class SoftmaxReadout:
    """Multinomial logistic readout of labels from features.

    Parameters
    ----------
    init_lr : float, default=1e-4
    max_epochs : int, default=40
    zscore_feats : bool, default=True
    train_batch_size : int, default=64
    eval_batch_size : int, default=240
        Accepted for Brain-Score's signature (prediction is one matrix product).
    weight_decay : float, default=0.463
        ``1 / (C * n_images)`` of scikit-learn's SVC with ``C = 1e-3`` on 2,160 objectome images, as in Brain-Score.
    tol : float, default=1e-4
    bias : float, default=1.0
        Initial value of every bias.
    initial_weights : ndarray of shape (n_features, n_classes) or None, default=None
        None: TensorFlow's ``VarianceScaling(seed=0)`` draw (see above).

    The minibatch order comes from ``numpy.random.RandomState(0)``, created per fit, as in Brain-Score.

    Attributes
    ----------
    classes_ : ndarray of the labels, in order of first appearance; weights_, bias_ : float32 arrays
    """

    def __init__(self, init_lr: float = 1e-4, max_epochs: int = 40, zscore_feats: bool = True,
                 train_batch_size: int = 64, eval_batch_size: int = 240, weight_decay: float = 0.463,
                 tol: float = 1e-4, bias: float = 1.0, initial_weights: np.ndarray | None = None):
        self.init_lr = init_lr
        self.max_epochs = max_epochs
        self.zscore_feats = zscore_feats
        self.train_batch_size = train_batch_size
        self.eval_batch_size = eval_batch_size
        self.weight_decay = weight_decay
        self.tol = tol
        self.bias = bias
        self.initial_weights = initial_weights

    def _scaled(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        if self.zscore_feats:
            X = (X - self.mean_[..., None, :]) / self.scale_[..., None, :]
        return X.astype(np.float32)

    def _initial_weights(self, n_features: int, n_classes: int) -> np.ndarray:
        if self.initial_weights is not None:
            return np.array(self.initial_weights, dtype=np.float32).reshape(n_features, n_classes)
        return keras_variance_scaling(n_features, n_classes)

    def fit(self, X, labels) -> SoftmaxReadout:
        """Fit on ``X`` of shape (n_samples, n_features) and ``labels`` (n_samples,).

        ``X`` may also be a stack of shape (n_readouts, n_samples, n_features), e.g. one per time bin: each
        readout is fitted exactly as alone (same start, same minibatches, its own early stop), all in one pass.
        """
        X = np.asarray(X, dtype=np.float64)
        stacked = X.ndim == 3
        X = X if stacked else X[None]
        if self.zscore_feats:  # scikit-learn's StandardScaler: population std, 1 where a feature is constant
            self.mean_ = X.mean(axis=1)
            scale = X.std(axis=1)
            self.scale_ = np.where(scale < 10 * np.finfo(np.float64).eps, 1.0, scale)
        index: dict = {}  # label -> class index, in order of first appearance
        targets = np.array([index.setdefault(label, len(index)) for label in np.asarray(labels).tolist()])
        self.classes_ = np.asarray(list(index))
        features = self._scaled(X)
        n_readouts, n_samples, n_features = features.shape
        weights = np.repeat(self._initial_weights(n_features, len(self.classes_))[None], n_readouts, axis=0)
        bias = np.full((n_readouts, len(self.classes_)), self.bias, dtype=np.float32)
        step_flops = 6 * n_readouts * min(self.train_batch_size, n_samples) * n_features * len(self.classes_)
        with compute_plan("numpy", flops=step_flops):  # small steps, on one BLAS thread (every plan's)
            weights, bias = self._train(features, targets, weights, bias)
        self.weights_, self.bias_ = (weights, bias) if stacked else (weights[0], bias[0])
        if not stacked and self.zscore_feats:
            self.mean_, self.scale_ = self.mean_[0], self.scale_[0]
        return self

    def _train(self, features: np.ndarray, targets: np.ndarray, weights: np.ndarray, bias: np.ndarray):
        n_readouts, n_samples, _ = features.shape
        parameters, decay = [weights, bias], np.float32(self.weight_decay)
        optimiser, order_rng = TF1Adam(parameters), np.random.RandomState(0)
        final: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # readouts that stopped early -> their parameters
        for _ in range(self.max_epochs):
            order = np.arange(n_samples)
            order_rng.shuffle(order)
            for start in range(0, n_samples, self.train_batch_size):
                rows = order[start:start + self.train_batch_size]
                batch, chosen = features[:, rows], targets[rows]
                probabilities = _softmax(batch @ weights + bias[:, None, :])
                loss = -np.mean(np.log(probabilities[:, np.arange(len(rows)), chosen]), axis=1)
                upstream = probabilities
                upstream[:, np.arange(len(rows)), chosen] -= 1
                upstream /= np.float32(len(rows))
                optimiser.update(parameters, [batch.transpose(0, 2, 1) @ upstream + decay * weights,
                                              upstream.sum(axis=1) + decay * bias], self.init_lr)
            for readout in np.flatnonzero(loss < self.tol):
                final.setdefault(int(readout), (weights[readout].copy(), bias[readout].copy()))
            if len(final) == n_readouts:
                break
        for readout, (stopped_weights, stopped_bias) in final.items():
            weights[readout], bias[readout] = stopped_weights, stopped_bias
        return weights, bias

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, columns in ``classes_`` order: shape (n_samples, n_classes), or
        (n_readouts, n_samples, n_classes) for a stack fitted on a stack."""
        return _softmax(self._scaled(X) @ self.weights_ + self.bias_[..., None, :]).astype(np.float64)
