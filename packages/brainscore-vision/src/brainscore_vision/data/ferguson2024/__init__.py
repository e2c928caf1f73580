"""Data plugin: Ferguson et al. (2024) visual-search asymmetry (BRAVO task), by reference to Brain-Score's bucket.

Brain-Score's identifiers, facts in ``catalogue.json`` (read from its data plugin): for each of the 14 experiments
``Ferguson2024_<experiment>``, a stimulus set of 48 images (24 per ``block``, ``image_number`` 0-23) and a
BehavioralAssembly of the human trials (``participant_id``, ``block`` first/second, ``distractor_nums`` '1.0', '5.0',
'11.0', ``trial_type``, ``correct``, ``target_present``, ...), and ``Ferguson2024_<experiment>_training_stimuli``
(1,920 images; the 14 share one CSV table, their images differ). Brain-Score's tests mark the files private while its
metadata calls them public: they are read unsigned first, then with your AWS credentials.
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

EXPERIMENTS = ("circle_line", "color", "convergence", "eighth", "gray_easy", "gray_hard", "half", "juncture", "lle",
               "llh", "quarter", "round_f", "round_v", "tilted_line")

ENTRIES = register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                                    stimulus_set_registry=stimulus_set_registry,
                                    load_stimulus_set=load_stimulus_set)
