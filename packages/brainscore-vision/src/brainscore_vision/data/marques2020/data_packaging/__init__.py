"""Packaging of the Marques2020 data: grating stimulus sets (``stimuli``) and property assemblies (``assemblies``)."""
