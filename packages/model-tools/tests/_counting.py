"""Test helper: count how many forward passes a module actually ran."""


class ForwardCounter:
    """Counts forward calls of a module (how many batches actually ran)."""

    def __init__(self, module):
        self.calls = 0
        module.register_forward_pre_hook(self)

    def __call__(self, _module, _inputs):
        self.calls += 1


class ForwardImages:
    """Counts the images a module's forward passes ran on (the first input's batch size, summed)."""

    def __init__(self, module):
        self.images = 0
        module.register_forward_pre_hook(self)

    def __call__(self, _module, inputs):
        self.images += int(inputs[0].shape[0])
