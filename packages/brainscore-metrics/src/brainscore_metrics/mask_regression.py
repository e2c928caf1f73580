"""Factorised receptive-field regression (Klindt et al. 2017): the ``mask_regression`` metric's mapping.

Each target neuroid ``n`` reads the source's feature map (``channel x channel_x x channel_y``) through a spatial mask
``s_n`` (``channel_x x channel_y``) and channel weights ``d_n`` (``channel``)::

    prediction[k, n] = sum_c d_n[c] * sum_{x, y} s_n[x, y] * X[k, c, x, y] + b_n

fitted by minibatch Adam on ``||prediction - Y||_F + ls * sum_n (||s_n||^2 + ||laplace(s_n)||) + ld * sum_n ||d_n||^2``
(``laplace``: the 3 x 3 five-point Laplacian with zero padding; norms not squared where written so), exactly the
objective, optimiser (TensorFlow 1's Adam, its "epsilon hat" form), schedule (learning rate / 10 every
``decay_rate`` epochs, stop when an epoch's last batch has an error norm below ``tol``), initialisation (standard
normal masks and channel weights, zero biases, drawn per neuroid in that order) and shuffling of Brain-Score's
TensorFlow ``MaskRegression``. Gradients are written out by hand (below) and computed in float32 like TensorFlow's.

Randomness comes from one ``numpy.random.RandomState(random_state)`` per ``fit`` and per ``cross_predict`` (whose
splits continue one stream, as consecutive fits do in Brain-Score): Brain-Score draws from numpy's global generator,
so it gives these numbers after ``numpy.random.seed(random_state)``.
"""

from __future__ import annotations

import numpy as np

from brainscore_metrics._adam import TF1Adam
from brainscore_metrics.backend.plan import compute_plan
from brainscore_metrics.errors import MissingCoordinateError, TooFewFeaturesError, UnknownBackendError

__all__ = ["CHANNEL_COORDS", "MaskRegression"]

#: neuroid coordinates that give the source's feature-map layout (channel-major, as a flattened conv layer)
CHANNEL_COORDS = ("channel", "channel_x", "channel_y")


def _laplace(masks: np.ndarray) -> np.ndarray:
    """Five-point Laplacian of each mask with zero padding; ``masks`` of shape (n, x, y). The operator is symmetric,
    so it is also its own adjoint (used for the gradient)."""
    padded = np.pad(masks, ((0, 0), (1, 1), (1, 1)))
    return (4 * masks - padded[:, :-2, 1:-1] - padded[:, 2:, 1:-1] - padded[:, 1:-1, :-2] - padded[:, 1:-1, 2:])


def _mask_gradient(upstream: np.ndarray, weights: np.ndarray, maps: np.ndarray) -> np.ndarray:
    """``sum_{k, c} upstream[k, n] weights[n, c] maps[k, x, y, c]``: shape (n, x, y), all neuroids at once."""
    return np.einsum("kn,nc,kxyc->nxy", upstream, weights, maps, optimize=True)


class MaskRegression:
    """Factorised spatial-mask x channel-weight regression (see the module docstring).

    Parameters
    ----------
    init_lr : float, default=0.01
    max_epochs : int, default=40
    tol : float, default=0.1
        Training stops after an epoch whose last batch has an error norm below ``tol``.
    batch_size : int, default=50
    ls : float, default=0.1
        Weight of the masks' squared norm and Laplacian norm.
    ld : float, default=0.1
        Weight of the channel weights' squared norm.
    decay_rate : int, default=25
        The learning rate is divided by 10 after every ``decay_rate``-th epoch.
    inits : dict or None, default=None
        Initial values: ``'s_w'`` (n_neuroids, channel_x * channel_y), ``'d_w'`` (n_neuroids, channel), ``'bias'``
        (n_neuroids,); what is not given is drawn (masks and channel weights standard normal, biases 0).
    channel_shape : (int, int, int) or None, default=None
        ``(channel, channel_x, channel_y)`` of the source's features; None: read from the source's ``channel``,
        ``channel_x`` and ``channel_y`` coordinates (number of distinct values) by the metric.
    random_state : int, default=0
    backend : None or 'numpy', default=None
        The fit runs in numpy (float32, like TensorFlow's).
    log_rate, gpu_options
        Accepted for Brain-Score's signature; unused.

    Attributes
    ----------
    masks_ : ndarray (n_neuroids, channel_x, channel_y); channel_weights_ : (n_neuroids, channel); biases_ :
    (n_neuroids,); n_epochs_ : int
    """

    def __init__(self, init_lr: float = 0.01, max_epochs: int = 40, tol: float = 0.1, batch_size: int = 50,
                 ls: float = 0.1, ld: float = 0.1, decay_rate: int = 25, inits: dict | None = None,
                 log_rate: int = 10, gpu_options=None, *, channel_shape: tuple[int, int, int] | None = None,
                 random_state: int = 0, backend: str | None = None):
        self.init_lr = init_lr
        self.max_epochs = max_epochs
        self.tol = tol
        self.batch_size = batch_size
        self.ls = ls
        self.ld = ld
        self.decay_rate = decay_rate
        self.inits = inits
        self.log_rate = log_rate
        self.gpu_options = gpu_options
        self.channel_shape = channel_shape
        self.random_state = random_state
        self.backend = backend
        if backend not in (None, "numpy"):
            raise UnknownBackendError(f"mask regression runs on numpy only, got backend={backend!r}")

    # -- layout ------------------------------------------------------------------------------------------------
    def set_source_layout(self, neuroid_coords: dict) -> None:
        """Take ``channel_shape`` from the source's neuroid coordinates ``{name: (dim, values)}`` (called by the
        regression-correlation metrics before fitting) unless it was given."""
        if self.channel_shape is not None:
            return
        missing = [name for name in CHANNEL_COORDS if name not in neuroid_coords]
        if missing:
            raise MissingCoordinateError(f"mask regression: the source has no neuroid coordinate(s) {missing}; it "
                                         f"needs {list(CHANNEL_COORDS)} (a convolutional layer's feature map)")
        self.channel_shape_ = tuple(len(set(np.asarray(neuroid_coords[name][1]).tolist())) for name in CHANNEL_COORDS)

    def _maps(self, X: np.ndarray) -> np.ndarray:
        """Rows of X as feature maps of shape (n, channel_x, channel_y, channel), float32."""
        shape = self.channel_shape or getattr(self, "channel_shape_", None)
        if shape is None:
            raise MissingCoordinateError("mask regression needs the source's layout: pass channel_shape=(channel, "
                                         "channel_x, channel_y) or fit through a metric on an assembly with "
                                         f"neuroid coordinates {list(CHANNEL_COORDS)}")
        if int(np.prod(shape)) != X.shape[1]:
            raise TooFewFeaturesError(f"mask regression: channel x channel_x x channel_y = {tuple(shape)} does not "
                                      f"match the source's {X.shape[1]} features")
        return np.asarray(X, dtype=np.float32).reshape(X.shape[0], *shape).transpose(0, 2, 3, 1)

    # -- fitting -----------------------------------------------------------------------------------------------
    def _initial(self, rng: np.random.RandomState, n_neuroids: int, n_x: int, n_y: int, n_channels: int):
        inits = self.inits or {}
        masks = np.empty((n_neuroids, n_x, n_y), np.float32)
        weights = np.empty((n_neuroids, n_channels), np.float32)
        for n in range(n_neuroids):  # Brain-Score's draw order: the mask, then the channel weights, per neuroid
            masks[n] = (np.reshape(inits["s_w"][n], (n_x, n_y)) if "s_w" in inits else
                        rng.randn(1, n_x, n_y, 1).reshape(n_x, n_y))
            weights[n] = (np.reshape(inits["d_w"][n], n_channels) if "d_w" in inits else
                          rng.randn(1, 1, n_channels, 1).reshape(n_channels))
        biases = (np.asarray(inits["bias"], np.float32).reshape(n_neuroids) if "bias" in inits
                  else np.zeros(n_neuroids, np.float32))
        return masks, weights, biases

    @staticmethod
    def _predict_maps(maps, masks, weights, biases) -> tuple[np.ndarray, np.ndarray]:
        """Predictions (k, n) and the masked channel sums ``pooled`` (k, n, c) of ``maps`` (k, x, y, c)."""
        pooled = np.einsum("kxyc,nxy->knc", maps, masks, optimize=True)  # each neuroid's mask, per channel
        return np.einsum("knc,nc->kn", pooled, weights, optimize=True) + biases, pooled

    def _train(self, maps: np.ndarray, Y: np.ndarray, rng: np.random.RandomState) -> None:
        # thousands of small steps, each on one BLAS thread (every plan's; several threads spin against each other)
        step_flops = 6 * min(self.batch_size, len(maps)) * int(np.prod(maps.shape[1:])) * Y.shape[1]
        with compute_plan("numpy", flops=step_flops):
            self._train_steps(maps, Y, rng)

    def _train_steps(self, maps: np.ndarray, Y: np.ndarray, rng: np.random.RandomState) -> None:
        n_x, n_y, n_channels = maps.shape[1:]
        masks, weights, biases = self._initial(rng, Y.shape[1], n_x, n_y, n_channels)
        parameters = [masks, weights, biases]
        optimiser, learning_rate = TF1Adam(parameters), self.init_lr
        ls, ld = np.float32(self.ls), np.float32(self.ld)
        epoch = 0
        for epoch in range(self.max_epochs):
            order = np.arange(len(maps))
            rng.shuffle(order)
            for start in range(0, len(maps), self.batch_size):
                rows = order[start:start + self.batch_size]
                batch, target = maps[rows], Y[rows]
                prediction, pooled = self._predict_maps(batch, masks, weights, biases)
                residual = prediction - target
                error = np.sqrt(np.sum(residual * residual))
                upstream = residual / error                                    # d ||residual|| / d prediction
                laplacians = _laplace(masks)
                laplace_norms = np.sqrt(np.sum(laplacians * laplacians, axis=(1, 2)))
                mask_gradient = (_mask_gradient(upstream, weights, batch)
                                 + ls * (2 * masks + _laplace(laplacians) / laplace_norms[:, None, None]))
                weight_gradient = np.einsum("kn,knc->nc", upstream, pooled, optimize=True) + ld * 2 * weights
                bias_gradient = upstream.sum(0)
                optimiser.update(parameters, [mask_gradient, weight_gradient, bias_gradient], learning_rate)
            if epoch % self.decay_rate == 0 and epoch != 0:
                learning_rate /= 10.0
            if error < self.tol:
                break
        self.masks_, self.channel_weights_, self.biases_, self.n_epochs_ = masks, weights, biases, epoch + 1

    def fit(self, X, Y, train=None) -> MaskRegression:
        """Fit on rows ``train`` (default all) of ``X`` (n_presentations, channel * channel_x * channel_y) and
        ``Y`` (n_presentations, n_neuroids)."""
        rows = np.arange(len(X)) if train is None else np.asarray(train)
        self._train(self._maps(np.asarray(X)[rows]), np.asarray(Y, dtype=np.float32)[rows],
                    np.random.RandomState(self.random_state))
        return self

    def predict(self, X, rows=None) -> np.ndarray:
        """Predictions of shape (n_rows, n_neuroids), float64."""
        X = np.asarray(X) if rows is None else np.asarray(X)[np.asarray(rows)]
        prediction, _ = self._predict_maps(self._maps(X), self.masks_, self.channel_weights_, self.biases_)
        return prediction.astype(np.float64)

    def cross_predict(self, X, Y, splits) -> list[np.ndarray]:
        """Fit and predict each (train, test) split; one random stream runs through the splits in order, and the
        training rows are taken in the order given (:class:`~brainscore_metrics.regression_correlation.
        CrossRegressedCorrelation` lists them in stimulus-id order, as Brain-Score's labelled fit sorts them)."""
        X, Y = np.asarray(X), np.asarray(Y, dtype=np.float32)
        maps, rng, predictions = self._maps(X), np.random.RandomState(self.random_state), []
        for train, test in splits:
            train = np.asarray(train)
            self._train(maps[train], Y[train], rng)
            predictions.append(self._predict_maps(maps[np.asarray(test)], self.masks_, self.channel_weights_,
                                                  self.biases_)[0].astype(np.float64))
        self.split_info_ = [{} for _ in splits]
        return predictions
