"""Compatibility path of Brain-Score's ``brainio.s3``: the weight loaders of :mod:`brainscore_core.s3_files`
(``load_weight_file``, ``load_file``, ``load_folder_from_s3``, ``load_file_from_s3``, ``sha1_hash``) and every public
name of :mod:`brainio.s3` (``load_assembly_from_s3``, ``load_stimulus_set_from_s3``), each imported on first use."""

from brainscore_core.supported_data_standards.brainio._reexport import lazy_module

__getattr__, __dir__ = lazy_module("brainscore_core.s3_files", "brainio.s3")
