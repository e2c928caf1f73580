"""ActivationsExtractor: stimuli -> per-layer activations of a torch module, batched, hooked and cached."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from model_tools.activations.allocator import freed_memory_reused
from model_tools.activations.batching import _prepare, cores_left_by_torch, input_batches, usable_cores
from model_tools.activations.cache import ActivationsCache, RowContent, caching_enabled
from model_tools.activations.hooks import LayerRecorder, resolve_layers, unique
from model_tools.activations.inputs import Stimuli, as_stimuli
from model_tools.activations.microsaccades import Microsaccade, microsaccades, wants_microsaccades
from model_tools.activations.packaging import package_activations
from model_tools.activations.preprocessing import ImagePreprocessing
from model_tools.activations.rows import RowTarget
from model_tools.activations.trial_inputs import TrialInputs
from model_tools.digest import CACHE_FORMAT_VERSION, json_digest, weights_digest
from model_tools.errors import MicrosaccadeError, MicrosaccadesNotSupportedError, StimulusError


def _default_workers(phased: bool) -> int:
    cores = usable_cores()
    if phased:  # decoding has every core to itself between forward passes
        return cores
    return 1 if cores <= 4 else min(4, cores // 2)


def _decode_between_passes(overlap_decoding: bool | None, device: Any) -> bool:
    """The phased schedule: asked for (``overlap_decoding=False``), or by default on CPU when torch's threads
    occupy every usable core. Never by default on an accelerator, whose forward pass leaves the CPU free."""
    if overlap_decoding is not None:
        return not overlap_decoding
    return str(device).startswith("cpu") and cores_left_by_torch() == 0


def _callable_fields(function: Any) -> dict[str, Any]:
    """A JSON description of a user preprocessing callable (for the cache key)."""
    if hasattr(function, "cache_fields"):
        return function.cache_fields()
    if isinstance(function, functools.partial):
        inner = _callable_fields(function.func)
        return {"kind": "partial", "func": inner, "args": [repr(a) for a in function.args],
                "keywords": {k: repr(v) for k, v in sorted(function.keywords.items())}}
    return {"kind": "callable", "name": f"{getattr(function, '__module__', '')}.{getattr(function, '__qualname__', type(function).__qualname__)}"}


class ActivationsExtractor:
    """Activations of named layers of a ``torch.nn.Module`` for a set of stimuli.

    The model runs in eval mode without gradients, in batches; images are decoded by worker threads, while
    the model runs or, when torch already keeps every core busy, between forward passes
    (``overlap_decoding``); forward hooks copy each recorded layer's output, flattened row-major per stimulus
    (C x H x W), into its columns of one preallocated array holding all layers side by side (with the cache
    on, into a batch of whole rows that a background thread writes into a new netCDF cache entry; see
    :mod:`model_tools.activations.cache`).

    Parameters
    ----------
    model : torch.nn.Module
    identifier : str
        Model identifier; prefix of ``neuroid_id`` values and part of the cache key.
    preprocessing : ImagePreprocessing or callable, default=None
        None means ``ImagePreprocessing(image_size=224)``. An object with ``decode``/``to_tensor`` (as
        :class:`ImagePreprocessing`) is run in worker threads; any other callable gets a batch of paths or
        images and returns an array or tensor of shape (batch, channel, H, W).
    batch_size : int, default=64
    num_workers : int, default=None
        Threads that decode images (0: in the calling thread). None means, when decoding overlaps the forward
        pass, 1 on up to 4 cores, else ``min(4, cores // 2)`` (more threads than spare cores slow the model
        down); when phased, one per core.
    overlap_decoding : bool, default=None
        True: decode the next batches while the model runs. False (phased): decode each batch between forward
        passes, split over all worker threads, and finish each batch's cache write before the next pass.
        None means overlapped on an accelerator, and on CPU when the process has more cores than torch's
        intra-op threads (``torch.get_num_threads()``); else phased: with every core busy in the forward
        pass, work alongside it stalls torch's threads (see :mod:`model_tools.activations.batching`).
    cache : bool, default=None
        None means on unless env ``RESULTCACHING_DISABLE`` says otherwise.
    cache_root : path-like, default=None
        None means ``$BRAINSCORE_HOME/activations``.
    reduction : RandomProjection or PCAReduction, default=None
        Reduces each layer with more than ``n_components`` features.
    progress : bool, default=None
        Progress bar (brainscore_core.progress: terminal, log file or Jupyter); None means shown unless
        ``$BRAINSCORE_PROGRESS=0``.
    device : str, default='cpu'
        Where input batches are sent; move the model there yourself (``model.to(device)``).
    reuse_memory : bool, default=None
        On CPU, keep the forward pass's large freed buffers in the process for the next batch instead of
        returning them to the system (glibc malloc, only while extracting; see
        :mod:`model_tools.activations.allocator`). None means on unless env ``MODEL_TOOLS_REUSE_MEMORY`` is
        ``0``.
    truncate_forward : bool, default=True
        End each forward pass once every recorded layer has its output: recording an early layer (V1) does not
        run the rest of the network. The values are the same (each layer's output is copied when its module
        returns); models whose recorded modules run more than once per pass (recurrent) always run whole (see
        :class:`~model_tools.activations.hooks.LayerRecorder`).
    visual_degrees : float, default=None
        The model's field of view in degrees, which sizes Brain-Score's microsaccades (``require_variance=True``
        with several trials); a ModelCommitment sets it (:meth:`set_visual_degrees`).

    Examples
    --------
    >>> extractor = ActivationsExtractor(my_model, 'my-model')                       # doctest: +SKIP
    >>> assembly = extractor(stimulus_set, layers=['features.3', 'logits'])          # doctest: +SKIP
    >>> assembly.dims                                                                # doctest: +SKIP
    ('presentation', 'neuroid')
    """

    def __init__(self, model: Any, identifier: str, preprocessing: Any = None, *, batch_size: int = 64,
                 num_workers: int | None = None, cache: bool | None = None,
                 cache_root: str | os.PathLike | None = None, reduction: Any = None, progress: bool | None = None,
                 device: str = "cpu", reuse_memory: bool | None = None, overlap_decoding: bool | None = None,
                 truncate_forward: bool = True, visual_degrees: float | None = None):
        self.model = model
        self.identifier = identifier
        self.preprocessing = preprocessing
        self.batch_size = batch_size
        self.num_workers = num_workers
        self.cache = cache
        self.cache_root = cache_root
        self.reduction = reduction
        self.progress = progress
        self.device = device
        self.reuse_memory = reuse_memory
        self.overlap_decoding = overlap_decoding
        self.truncate_forward = truncate_forward
        self.visual_degrees = visual_degrees

    # -- public -----------------------------------------------------------------------------------------
    def __call__(self, stimuli: Any, layers: Sequence[str], *, stimuli_identifier: str | None = None,
                 number_of_trials: int = 1, require_variance: bool = False):
        """NeuroidAssembly of shape (presentation, neuroid) for ``stimuli`` and ``layers``.

        Parameters
        ----------
        stimuli : StimulusSet, list of paths / PIL images / numpy arrays, or torch.Tensor
        layers : sequence of str
            Dotted module paths, or ``'logits'``; concatenated along neuroid in this order.
        stimuli_identifier : str, default=None
            Kept as attr ``stimulus_set_identifier``; the cache key uses content, not this name.
        number_of_trials, require_variance
            A static model gives the same activations on every trial, so without ``require_variance`` the trials are
            not repeated (as in the reference). ``require_variance=True`` with more than one trial asks for
            Brain-Score's microsaccades: each trial shows every stimulus shifted by its own sub-pixel offset
            (:mod:`model_tools.activations.microsaccades`; needs :attr:`visual_degrees`), and the assembly has one
            presentation per stimulus and trial (stimulus-major, as Brain-Score labels them) with the coordinates
            ``microsaccade_shift_{x,y}_{pixels,degrees}``. Each trial's activations are cached on their own; trial 0
            is the unshifted image, shared with a look without microsaccades.
        """
        stimuli = as_stimuli(stimuli)
        if wants_microsaccades(number_of_trials, require_variance):
            return self._trials(stimuli, layers, int(number_of_trials), stimuli_identifier)
        values, widths = self.extract_values(stimuli, layers)
        stimulus_set_identifier = stimuli_identifier or getattr(stimuli.stimulus_set, "identifier", None)
        attrs = {"model_identifier": self.identifier}
        if stimulus_set_identifier:
            attrs["stimulus_set_identifier"] = stimulus_set_identifier
        return package_activations(values, widths, stimuli, self.identifier, attrs=attrs)

    def set_visual_degrees(self, visual_degrees: float) -> None:
        """The field of view a ModelCommitment gives (Brain-Score's microsaccades are sized by it)."""
        self.visual_degrees = visual_degrees

    def _trials(self, stimuli: Stimuli, layers: Sequence[str], number_of_trials: int,
                stimuli_identifier: str | None):
        """Brain-Score's microsaccades: one extraction per trial, interleaved stimulus-major."""
        degrees = self.visual_degrees
        if degrees is None:
            raise MicrosaccadeError(
                f"model {self.identifier!r}: microsaccades are sized by the model's visual degrees, which are not set "
                "(a ModelCommitment sets them; else call set_visual_degrees(degrees) on the activations model)")
        inputs = TrialInputs()  # the trials after the first computed one shift its inputs instead of decoding again
        looks = [self.extract_values(stimuli, layers, microsaccade=trial, trial_inputs=inputs)
                 for trial in microsaccades(number_of_trials, degrees)]
        widths = looks[0][1]
        values = np.stack([look[0] for look in looks], axis=1).reshape(len(stimuli) * number_of_trials, -1)
        height = self._input_height(stimuli)
        shifts = np.asarray([trial.shift(height) for trial in microsaccades(number_of_trials, degrees)])
        presentation = {name: np.repeat(coord, number_of_trials) for name, coord in stimuli.presentation.items()}
        for axis, name in enumerate("xy"):
            presentation[f"microsaccade_shift_{name}_pixels"] = np.tile(shifts[:, axis], len(stimuli))
            presentation[f"microsaccade_shift_{name}_degrees"] = np.tile(shifts[:, axis] / (height / degrees),
                                                                         len(stimuli))
        attrs = {"model_identifier": self.identifier, "number_of_trials": number_of_trials}
        stimulus_set_identifier = stimuli_identifier or getattr(stimuli.stimulus_set, "identifier", None)
        if stimulus_set_identifier:
            attrs["stimulus_set_identifier"] = stimulus_set_identifier
        repeated = Stimuli([item for item in (stimuli.items if not stimuli.is_tensor else range(len(stimuli)))
                            for _ in range(number_of_trials)], presentation, stimuli.stimulus_set)
        return package_activations(values, widths, repeated, self.identifier, attrs=attrs)

    def _input_height(self, stimuli: Stimuli) -> int:
        """The height in pixels of the model's input (what a microsaccade is sized by)."""
        if stimuli.is_tensor:
            return int(stimuli.items.shape[-2])
        size = getattr(self._preprocessor(), "image_size", None)
        if size is not None:
            return int(size)
        probe = self._shifted(_prepare(stimuli.with_files(), self._preprocessor(), 0, 1, None), Microsaccade(0, 1, 1))
        return int(probe.shape[-2])  # a preprocessing callable of the user's: what it makes of the first stimulus

    def extract(self, stimuli: Any, layers: Sequence[str]) -> dict[str, np.ndarray]:
        """Per-layer arrays of shape (presentation, n_features), in the order of ``layers``.

        Column views of :meth:`extract_values` (no copies).
        """
        values, widths = self.extract_values(stimuli, layers)
        bounds = np.cumsum([0, *widths.values()]).tolist()
        return {layer: values[:, bounds[i]:bounds[i + 1]] for i, layer in enumerate(widths)}

    def extract_values(self, stimuli: Any, layers: Sequence[str], *, microsaccade: Microsaccade | None = None,
                       trial_inputs: TrialInputs | None = None) -> tuple[np.ndarray, dict[str, int]]:
        """All layers side by side: float32 array of shape (presentation, neuroid) and {layer: n_features}.

        Layers asked for twice appear once, in first-occurrence order. With the cache on, layers already
        cached are loaded and only the others are computed (one forward pass, one new cache entry). When every
        layer lies adjacent and in order in one cache entry (e.g. the same request again), the values are a
        copy-on-write memory map of that entry (read when touched, writable, the file never changes);
        otherwise they are copied once into one new array. ``microsaccade`` (default None) shifts every input batch
        as that trial does (:mod:`model_tools.activations.microsaccades`); the cache keeps each shift apart.
        ``trial_inputs`` (default None): the input batches the trials of one look share
        (:class:`~model_tools.activations.trial_inputs.TrialInputs`; the same ``stimuli`` on every call).
        """
        stimuli = as_stimuli(stimuli)
        if len(stimuli) == 0:
            raise StimulusError(f"model {self.identifier!r}: no stimuli to extract activations for")
        layers = unique(layers)
        self._resolve_layers(layers)  # fail before any work
        if microsaccade is not None and microsaccade.trial == 0:
            microsaccade = None  # the unshifted image: the same activations as a look without microsaccades
        if not caching_enabled(self.cache):
            return self._run(stimuli, layers, microsaccade=microsaccade, trial_inputs=trial_inputs)
        cache = ActivationsCache(self.cache_root)
        model_fields = self._model_fields(stimuli)
        if microsaccade is not None:
            model_fields["microsaccade"] = microsaccade.cache_fields()
        base = json_digest({**model_fields, "stimuli": stimuli.digest()})
        keys = {layer: json_digest({"base": base, "layer": layer}) for layer in layers}
        # rows depend on their own stimulus only unless a reduction is fitted on the whole set
        shareable = not stimuli.is_tensor and (self.reduction is None or getattr(self.reduction, "streaming", False))
        content = RowContent({layer: json_digest({**model_fields, "layer": layer}) for layer in layers},
                             stimuli.item_digests()) if shareable else None
        located = cache.locate(keys, len(stimuli))
        shared: dict = {}
        if len(located) < len(layers):
            with cache.lock(base):
                located = cache.locate(keys, len(stimuli))
                missing = [layer for layer in layers if layer not in located]
                if missing and content is not None:  # stimuli earlier requests showed: their rows are read
                    shared = self._shared_rows(cache, stimuli, missing, content)
                computed = [layer for layer in missing if layer not in shared]
                if computed:
                    self._run(stimuli, computed, cache=cache, base=base, keys=keys, content=content,
                              microsaccade=microsaccade, trial_inputs=trial_inputs)
                    located = cache.locate(keys, len(stimuli))
        unreadable = [layer for layer in layers if layer not in located and layer not in shared]
        if unreadable:
            raise OSError(f"model {self.identifier!r}: cached layers {unreadable} cannot be read back from "
                          f"{cache.directory}")
        if not shared:
            return cache.load([located[layer] for layer in layers]), {layer: located[layer].width for layer in layers}
        parts = [shared[layer] if layer in shared else [(located[layer], None, None)] for layer in layers]
        return cache.load_parts(parts, len(stimuli)), {layer: pieces[0][0].width for layer, pieces in
                                                       zip(layers, parts, strict=True)}

    def _shared_rows(self, cache: ActivationsCache, stimuli: Stimuli, layers: list[str], content: RowContent) -> dict:
        """The rows of ``layers`` earlier entries hold (possibly from several entries); when they hold some of a
        layer's stimuli but not all, only the others are computed first (one pass over each distinct missing
        image, a new entry of their own), so an image's activations are computed once across sets that overlap."""
        keys = {layer: content.keys[layer] for layer in layers}
        shared, missing = cache.locate_rows(keys, content.digests)
        partial = [layer for layer, mask in missing.items() if not mask.all()]
        if partial:
            need = np.any([missing[layer] for layer in partial], axis=0)
            _, first = np.unique(np.asarray(content.digests)[need], return_index=True)
            self.extract_values(stimuli.subset(np.flatnonzero(need)[np.sort(first)]), partial)
            shared, _ = cache.locate_rows(keys, content.digests)
        return shared

    def activations_key(self, stimuli: Any) -> str:
        """Digest of weights, preprocessing, reduction and stimulus content (layers are added per entry)."""
        stimuli = as_stimuli(stimuli)
        return json_digest({**self._model_fields(stimuli), "stimuli": stimuli.digest()})

    def _model_fields(self, stimuli: Stimuli) -> dict[str, Any]:
        """Everything in the cache key but the stimuli: format, model, weights, preprocessing, reduction."""
        return {"format": CACHE_FORMAT_VERSION, "model": self.identifier, "weights": weights_digest(self.model),
                "preprocessing": self._preprocessing_fields(stimuli),
                "reduction": self.reduction.cache_fields() if self.reduction is not None else None}

    # -- internals --------------------------------------------------------------------------------------
    def _resolve_layers(self, layers: Sequence[str]) -> dict[str, Any]:
        """Each layer name's submodule (:func:`~model_tools.activations.hooks.resolve_layers`); a subclass may resolve
        names its own way (Brain-Score's ``PytorchWrapper.get_layer``)."""
        return resolve_layers(self.model, layers, self.identifier)

    def _model_inputs(self, batch: Any) -> Any:
        """One input batch as the model takes it: a tensor goes to ``device``, floating-point values in the dtype of
        the model's floating-point parameters (a float64 or float16 model gets float64 / float16 inputs); other
        inputs (what a preprocessing callable returns: a dict, a list) stay as they are."""
        import torch

        if not isinstance(batch, torch.Tensor):
            return batch
        dtype = next((p.dtype for p in self.model.parameters() if p.is_floating_point()), None)
        return batch.to(self.device, dtype=dtype if dtype is not None and batch.is_floating_point() else None)

    def _shifted(self, batch: Any, microsaccade: Microsaccade) -> Any:
        import torch

        if not isinstance(batch, torch.Tensor) or batch.dim() != 4:
            raise MicrosaccadesNotSupportedError(
                f"model {self.identifier!r}: microsaccades shift an input tensor of shape (batch, channel, height, "
                f"width), and the preprocessing gives {type(batch).__name__}")
        return microsaccade(batch)

    def _forward(self, batch: Any) -> Any:
        """Run the model on one input batch (see :meth:`_model_inputs`); a subclass may add arguments."""
        return self.model(self._model_inputs(batch))

    def _preprocessor(self) -> Any:
        return self.preprocessing if self.preprocessing is not None else ImagePreprocessing()

    def _preprocessing_fields(self, stimuli: Stimuli) -> dict[str, Any]:
        if stimuli.is_tensor:
            return {"kind": "tensor"}
        return _callable_fields(self._preprocessor())

    def _run(self, stimuli: Stimuli, layers: list[str], *, cache: ActivationsCache | None = None,
             base: str | None = None, keys: dict[str, str] | None = None, content: RowContent | None = None,
             microsaccade: Microsaccade | None = None, trial_inputs: TrialInputs | None = None
             ) -> tuple[np.ndarray | None, dict[str, int]]:
        """One pass over ``stimuli`` recording ``layers`` into one array of shape (presentation, neuroid).

        The array is allocated once the first batch shows each layer's width (that batch is held as copies
        until then); later batches are written by the hooks straight into their rows and columns. Returns the
        array and {layer: n_features}. With a cache, the hooks fill one batch of whole rows in memory, which is
        written into the new entry's file after each forward pass (positioned writes by background threads;
        a non-streaming reduction writes through the entry's map instead); the entry is committed at the end
        and None is returned in place of the array (read the entry back); an exception leaves no entry.
        See :class:`~model_tools.activations.rows.RowTarget`.
        """
        import torch

        from brainscore_core.progress import progress

        modules = self._resolve_layers(layers)
        if not isinstance(self._preprocessor(), ImagePreprocessing):  # a callable of its own reads files
            stimuli = stimuli.with_files()
        phased = _decode_between_passes(self.overlap_decoding, self.device)
        workers = self.num_workers if self.num_workers is not None else _default_workers(phased)
        target = RowTarget(layers, len(stimuli), identifier=self.identifier, reduction=self.reduction,
                           batch_size=self.batch_size, cache=cache, base=base, keys=keys, content=content,
                           write_parts=min(2, usable_cores()) if phased else 1)  # a batch's rows, in parts
        reuse = self.reuse_memory if str(self.device).startswith("cpu") else False
        was_training = self.model.training
        self.model.eval()
        try:
            with torch.no_grad(), LayerRecorder(modules, target.sink,
                                                stop_when_recorded=self.truncate_forward) as recorder, \
                    freed_memory_reused(reuse), \
                    (ThreadPoolExecutor(workers) if workers > 0 else contextlib.nullcontext()) as pool, \
                    target.writing():
                def make_batches():
                    return input_batches(stimuli, self._preprocessor(), self.batch_size, pool, workers, phased=phased)

                batches = make_batches() if trial_inputs is None else trial_inputs.batches(make_batches)
                for start, stop, batch in progress(batches, total=-(-len(stimuli) // max(1, int(self.batch_size))),
                                                   disable=None if self.progress is None else not self.progress,
                                                   desc=f"activations {self.identifier}", unit="batch"):
                    # phased: the last batch's rows were written beside this batch's decoding
                    target.start_batch(start, stop, wait_for_writes=phased)
                    if microsaccade is not None:
                        batch = self._shifted(batch, microsaccade)
                    recorder.forward(self._forward, batch)  # self._forward(batch), ended after the last layer
                    target.end_batch()
                target.wait_for_writes()  # every row is in the file before the entry is committed
            return target.finish()
        finally:
            target.discard()
            self.model.train(was_training)
