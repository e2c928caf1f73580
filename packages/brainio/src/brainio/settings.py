"""brainio's settings: where its cache lives and the limits of archive extraction (read from the environment each
time they are used; see the README's *Guarantees*).

=============================  ==================================================  ==========
variable                       meaning                                             default
=============================  ==================================================  ==========
``BRAINIO_HOME``               the verified file cache                             ``~/.brainio``
``BRAINIO_ARCHIVE_MAX_GB``     most GiB one ZIP archive may expand to              64
``BRAINIO_ARCHIVE_MAX_RATIO``  most an archive, or a member over 1 MiB, may        100
                               expand relative to its compressed size
``BRAINSCORE_REQUIRE_DATA``    (flag) tests fail instead of skipping for a reason  off
                               CI provides (:mod:`brainio.skipping`)
=============================  ==================================================  ==========

Flags follow one truth rule (:func:`env_flag`, also brainscore-core's): ``1/true/yes/on`` true, ``0/false/no/off``
and the empty string false, anything else the default.
"""

from ._home import (
    DEFAULT_ARCHIVE_MAX_GB,
    DEFAULT_ARCHIVE_MAX_RATIO,
    FALSE_WORDS,
    REQUIRE_DATA_ENV,
    TRUE_WORDS,
    archive_max_bytes,
    archive_max_ratio,
    cache_home,
    data_required,
    env_flag,
)

__all__ = ["DEFAULT_ARCHIVE_MAX_GB", "DEFAULT_ARCHIVE_MAX_RATIO", "FALSE_WORDS", "REQUIRE_DATA_ENV", "TRUE_WORDS",
           "archive_max_bytes", "archive_max_ratio", "cache_home", "data_required", "env_flag"]
