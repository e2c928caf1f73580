"""Noise ceiling for RSA over subjects (Nili et al. 2014; reference section 5.4).

For each subject's RDM, the Spearman correlation of its strict upper triangle with

* the mean upper triangle over **all** subjects (that subject included): the **upper bound** -- no
  model can on average correlate better with the single-subject RDMs than the true group RDM, which
  the all-subject mean overfits towards;
* the mean upper triangle over the **other** subjects (leave one subject out): the **lower bound** --
  a model that captured everything shared across subjects does at least that well.

Both are averaged over subjects. The Score's value is the upper bound (the reference's
``rsa_ceiling`` value); ``attrs['lower_bound_loo']`` (alias ``attrs['lower_bound']``) is the
leave-one-out bound.

Sessions: with ``sessions='average'`` (the default), the RDMs of one subject's sessions are averaged
first and subjects are the units, as in the rsatoolbox demos on these data (RDMs are averaged over
sessions within subject before the inter-subject ceiling). With ``sessions='separate'`` every
subject x session RDM is a unit for the upper bound, and the lower bound leaves out *all* sessions of
the held-out unit's subject so that no unit is compared against its own subject. A model should be
scored against the same units (e.g. ``rdms.mean('session')`` for the default).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Ceiling, Score
from brainscore_metrics._alignment_representational import (
    RDMFormatError,
    RDMStack,
    is_activation_assembly,
    unwrap_activations,
    unwrap_rdms,
)
from brainscore_metrics._gram import gram_plan
from brainscore_metrics._rdm_kernels import pattern_correlations, spearman_matrix, upper_triangles
from brainscore_metrics.bootstrap import bootstrap_confidence_interval

__all__ = ["RSACeiling", "rsa_noise_ceiling"]


def rsa_noise_ceiling(triangles: np.ndarray, subjects: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-unit upper and lower (leave-one-subject-out) noise-ceiling correlations.

    Parameters
    ----------
    triangles : ndarray of shape (n_units, n_pairs)
        Upper triangles of the units' RDMs.
    subjects : ndarray of shape (n_units,)
        Subject of each unit; the lower bound leaves out every unit of the same subject.

    Returns
    -------
    upper, lower : ndarray of shape (n_units,)
    """
    subjects = np.asarray(subjects)
    if len(np.unique(subjects)) < 2:
        raise RDMFormatError(f"the RSA ceiling needs RDMs of at least 2 subjects, got {np.unique(subjects).tolist()}")
    upper = spearman_matrix(triangles, triangles.mean(axis=0, keepdims=True))[:, 0]
    lower = np.empty(len(triangles))
    for subject in np.unique(subjects):
        own = subjects == subject
        others = triangles[~own].mean(axis=0, keepdims=True)
        lower[own] = spearman_matrix(triangles[own], others)[:, 0]
    return upper, lower


def _broadcast_coord(stack: RDMStack, name: str) -> np.ndarray | None:
    """Values of a leading coordinate (or dim) broadcast to one value per RDM of the stack."""
    if name in stack.leading_coords:
        dims, values = stack.leading_coords[name]
    elif name in stack.leading_dims:
        dims, values = (name,), np.arange(stack.leading_shape[stack.leading_dims.index(name)])
    else:
        return None
    present = [dim for dim in stack.leading_dims if dim in dims]
    values = np.asarray(values).transpose([list(dims).index(dim) for dim in present])
    shape = [size if dim in dims else 1 for dim, size in zip(stack.leading_dims, stack.leading_shape)]
    return np.broadcast_to(values.reshape(shape), stack.leading_shape).ravel()


class RSACeiling(Ceiling):
    """Inter-subject RSA noise ceiling (upper and leave-one-subject-out lower bounds).

    Parameters
    ----------
    rdm : callable, default=None
        The reference's form: ``rdm(activations of one subject) -> RDM`` (``presentation x presentation``, array or
        assembly, in the input's stimulus order). None computes 1 - Pearson r between stimulus patterns.
    similarity_func : callable, default=None
        ``similarity_func(triangle1, triangle2)`` returning a correlation or scipy's ``(statistic, p-value)``
        (e.g. ``scipy.stats.pearsonr``). None is the Spearman correlation, computed for all subjects at once.
    subject_coord : str, default='subject'
        Coordinate (or dim) naming the subject of each RDM, or, for activations, of each neuroid.
    session_coord : str, default='session'
        Coordinate (or dim) naming the session of each RDM; ignored when absent.
    sessions : {'average', 'separate'}, default='average'
        How RDMs of several sessions of one subject enter (see module docstring).
    neuroid_dim : str, default='neuroid'
    comparison_coord : str, default='stimulus_id'
    bootstrap : int or None, default=None
        Bootstrap resamples of stimuli for a CI of the upper bound (``attrs['ci_low']``,
        ``attrs['ci_high']``); pairs made of two copies of one stimulus are left out.
    random_state : int, default=0

    Input (to ``__call__``)
    ----------------------
    Either RDMs -- dims ``(..., stimulus, stimulus)`` whose leading dims carry ``subject_coord``
    (e.g. ``subject x session x presentation x presentation_right``) -- or activations
    ``presentation x neuroid`` with ``subject_coord`` on the neuroid dim (one RDM per subject).

    Returns (from ``__call__``)
    ---------------------------
    Score (0-d) = upper bound, with attrs ``upper_bound``, ``lower_bound``, ``lower_bound_loo``,
    ``error`` (population std of the per-unit upper values / sqrt(n_units)), ``raw`` (per-unit upper
    values), ``raw_lower_bound`` (per-unit leave-one-out values).
    """

    def __init__(self, rdm=None, similarity_func=None, *, subject_coord: str = "subject",
                 session_coord: str = "session", sessions: str = "average", neuroid_dim: str = "neuroid",
                 comparison_coord: str = "stimulus_id", bootstrap: int | None = None, random_state: int = 0):
        self.rdm = rdm
        self.similarity_func = similarity_func
        self.subject_coord = subject_coord
        self.session_coord = session_coord
        self.sessions = sessions
        self.neuroid_dim = neuroid_dim
        self.comparison_coord = comparison_coord
        self.bootstrap = bootstrap
        self.random_state = random_state

    def _units(self, plan, assembly) -> tuple[np.ndarray, np.ndarray, Score]:
        """RDMs (n_units, n, n), the subject of each unit, and an empty-valued template for raw."""
        if self.sessions not in ("average", "separate"):
            raise ValueError(f"sessions must be 'average' or 'separate', got {self.sessions!r}")
        if is_activation_assembly(assembly, self.neuroid_dim):
            if self.subject_coord not in assembly.coords:
                raise RDMFormatError(f"activations need a {self.subject_coord!r} coordinate on "
                                     f"{self.neuroid_dim!r} to form one RDM per subject")
            matrix = unwrap_activations(assembly, neuroid_dim=self.neuroid_dim,
                                        comparison_coord=self.comparison_coord)
            neuroid_subjects = np.asarray(assembly[self.subject_coord].values)
            subjects = np.unique(neuroid_subjects)
            if self.rdm is not None:  # the reference's form: a callable from activations to an RDM, in input order
                rdms = np.stack([np.asarray(getattr(matrix, "values", matrix), dtype=np.float64) for matrix in (
                    self.rdm(assembly.isel({self.neuroid_dim: np.flatnonzero(neuroid_subjects == subject)}))
                    for subject in subjects)])
                return rdms, subjects, self._raw(subjects)
            rdms = np.stack([1 - pattern_correlations(matrix.values[:, neuroid_subjects == subject], plan=plan)
                             for subject in subjects])[:, matrix.order][:, :, matrix.order]
            return rdms, subjects, self._raw(subjects)
        stack = unwrap_rdms(assembly, comparison_coord=self.comparison_coord)
        unit_subjects = _broadcast_coord(stack, self.subject_coord)
        if unit_subjects is None:
            raise RDMFormatError(f"RDM assembly has no {self.subject_coord!r} coordinate or dim on its leading "
                                 f"dims {stack.leading_dims}")
        unit_sessions = _broadcast_coord(stack, self.session_coord)
        if unit_sessions is None or self.sessions == "separate":
            if len(np.unique(unit_subjects)) != len(unit_subjects) and unit_sessions is None:
                raise RDMFormatError(f"several RDMs share a {self.subject_coord!r} but there is no "
                                     f"{self.session_coord!r} to tell them apart")
            template = Score(np.zeros(stack.leading_shape), coords=stack.leading_coords, dims=stack.leading_dims)
            return stack.values, unit_subjects, template
        subjects = np.unique(unit_subjects)
        rdms = np.stack([stack.values[unit_subjects == subject].mean(axis=0) for subject in subjects])
        return rdms, subjects, self._raw(subjects)

    def _raw(self, subjects: np.ndarray) -> Score:
        return Score(np.zeros(len(subjects)), coords={self.subject_coord: subjects}, dims=[self.subject_coord])

    def _bounds(self, triangles: np.ndarray, subjects: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.similarity_func is None:
            return rsa_noise_ceiling(triangles, subjects)

        def similarity(a, b) -> float:  # scipy's form returns (statistic, p-value)
            value = self.similarity_func(a, b)
            return float(value[0] if isinstance(value, tuple) else getattr(value, "statistic", value))

        upper_mean = triangles.mean(axis=0)
        upper = np.array([similarity(unit, upper_mean) for unit in triangles])
        lower = np.array([similarity(unit, triangles[subjects != subject].mean(axis=0))
                          for unit, subject in zip(triangles, subjects)])
        return upper, lower

    def __call__(self, assembly) -> Score:
        with gram_plan(None, assembly) as plan:  # one BLAS thread for the call: rank correlations are long dot products
            return self._ceiling(plan, assembly)

    def _ceiling(self, plan, assembly) -> Score:
        rdms, subjects, template = self._units(plan, assembly)
        upper, lower = self._bounds(upper_triangles(rdms), subjects)
        upper_bound, lower_bound = float(np.mean(upper)), float(np.mean(lower))
        score = Score(upper_bound)
        score.attrs["upper_bound"] = upper_bound
        score.attrs["lower_bound"] = score.attrs["lower_bound_loo"] = lower_bound
        score.attrs["error"] = float(np.std(upper) / np.sqrt(len(upper)))
        score.attrs["raw"] = template.copy(data=upper.reshape(template.shape))
        score.attrs["raw_lower_bound"] = template.copy(data=lower.reshape(template.shape))
        if self.bootstrap is not None:
            rows, columns = np.triu_indices(rdms.shape[-1], k=1)

            def compute(indices):
                distinct = indices[rows] != indices[columns]
                resampled = rdms[:, indices[rows[distinct]], indices[columns[distinct]]]
                return float(np.mean(rsa_noise_ceiling(resampled, subjects)[0]))

            low, high, _ = bootstrap_confidence_interval(compute, rdms.shape[-1], n_bootstrap=self.bootstrap,
                                                         random_state=self.random_state)
            score.attrs["ci_low"], score.attrs["ci_high"], score.attrs["ci_confidence"] = low, high, 0.95
        return score
