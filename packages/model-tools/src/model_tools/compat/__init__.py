"""Brain-Score's ``brainscore_vision.model_helpers`` modules, as thin re-exports of this package's one implementation.

``brainscore_vision.model_helpers.<module>`` *is* ``model_tools.compat.<module>`` once model-tools is installed (the
redirect lives in brainscore-vision, so that package never imports model-tools on its own). The modules mirror
Brain-Score's names so its model plugins run unchanged:

* ``activations.pytorch``: :class:`~model_tools.activations.PytorchWrapper`, ``load_preprocess_images``, ...;
* ``activations.core``: ``ActivationsExtractorHelper`` (a function ``get_activations`` run by our extractor);
* ``brain_transformation``: ``ModelCommitment`` (Brain-Score's argument order and defaults), ``LayerSelection``,
  ``RegionLayerMap``, ``STANDARD_REGION_BENCHMARKS``; ``.behavior``: the task readouts;
* ``check_submission.check_models``: Brain-Score's pre-submission checks, on benchmarks shipped here;
* ``utils``: ``fullname``, ``make_list``.

This package's own code never imports from here.
"""
