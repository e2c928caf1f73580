"""``brainscore_vision.model_helpers.check_submission``: ``check_models``."""
