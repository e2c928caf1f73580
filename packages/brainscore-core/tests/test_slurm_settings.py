"""Slurm jobs for the grid without a Slurm cluster (issue 40): the settings file's ``[cluster.slurm]`` table, the
options over it, the job memory from the memory plan, the one-line errors where no Slurm answers, and whether the
partition allows twice the memory. The grid on a real one-node Slurm is brainscore-vision's ``test_grid_slurm.py``."""

from __future__ import annotations

import pytest

from brainio.skipping import import_or_skip
from brainscore_core.errors import ClusterUnavailableError, SettingsError


def _settings(tmp_path, text: str):
    path = tmp_path / "settings.toml"
    path.write_text(text)
    return path


def test_the_table_of_the_settings_file_and_the_options_over_it(tmp_path, monkeypatch):
    from brainscore_core.config import read_settings, settings_path
    from brainscore_core.slurm_cluster import slurm_settings

    monkeypatch.setenv("BRAINSCORE_SETTINGS", str(tmp_path / "none.toml"))
    assert settings_path() == tmp_path / "none.toml" and read_settings() == {} and slurm_settings() == {}
    path = _settings(tmp_path, '[cluster.slurm]\npartition = "gpu"\nwalltime = "04:00:00"\nmemory = "1.5GB"\n'
                               'job_extra_directives = ["--gres=gpu:1"]\ncores = 4\n')
    monkeypatch.setenv("BRAINSCORE_SETTINGS", str(path))
    assert slurm_settings() == {"partition": "gpu", "walltime": "04:00:00", "memory": int(1.5 * 2**30),
                                "job_extra_directives": ["--gres=gpu:1"], "cores": 4}
    # arguments win; None means not given; memory as bytes or as a size
    assert slurm_settings({"partition": "debug", "walltime": None, "memory": 2**30})["partition"] == "debug"
    assert slurm_settings({"memory": "512MB"})["memory"] == 512 * 2**20


def test_the_default_settings_file_is_in_the_home(monkeypatch, tmp_path):
    from brainscore_core.config import brainscore_home, settings_path

    monkeypatch.delenv("BRAINSCORE_SETTINGS", raising=False)
    assert settings_path() == brainscore_home() / "settings.toml"


@pytest.mark.parametrize(("text", "message"), [
    ("[cluster.slurm]\nqueue = 'gpu'\n", "[cluster.slurm] has no key 'queue'; known: partition, account"),
    ("[cluster.slurm]\ncores = '4'\n", "cores must be a int, got '4'"),
    ("[cluster.slurm]\njob_extra_directives = '--gres=gpu:1'\n", "job_extra_directives must be a list of strings"),
    ("[cluster.slurm]\nmemory = 'lots'\n", "memory: 'lots' is not a size"),
    ("[cluster.slurm\n", "is not valid TOML"),
])
def test_a_bad_settings_file_is_one_line_naming_the_file_and_the_key(tmp_path, monkeypatch, text, message):
    from brainscore_core.slurm_cluster import slurm_settings

    path = _settings(tmp_path, text)
    monkeypatch.setenv("BRAINSCORE_SETTINGS", str(path))
    with pytest.raises(SettingsError) as raised:
        slurm_settings()
    assert str(path) in str(raised.value) and message in str(raised.value) and "\n" not in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_no_slurm_here_is_one_line(monkeypatch, tmp_path):
    from brainscore_core.slurm_cluster import check_slurm

    monkeypatch.setenv("PATH", str(tmp_path))  # no sbatch, no sinfo
    with pytest.raises(ClusterUnavailableError, match=r"^no Slurm here: 'sbatch' is not on PATH"):
        check_slurm()


def test_a_partition_is_checked_against_what_sinfo_lists(monkeypatch, tmp_path):
    import_or_skip("dask_jobqueue", extra="brainscore-core[slurm] (nox -s slurm)", kind="opt-in")
    from brainscore_core.slurm_cluster import check_slurm

    for name, script in (("sbatch", "exit 0"), ("sinfo", "printf 'debug*|4000|2|up\\ngpu|64000+|16|up\\n"
                                                        "gpu|128000|32|up\\nold|1000|1|down\\n'")):
        (tmp_path / name).write_text(f"#!/bin/sh\n{script}\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert check_slurm() == {"partition": "debug", "memory_bytes": 4000 * 2**20, "cpus": 2, "up": True}
    assert check_slurm("gpu")["memory_bytes"] == 128000 * 2**20  # the largest node
    with pytest.raises(ClusterUnavailableError, match=r"^unknown Slurm partition 'gpux'; partitions here: "
                                                      r"debug \(default\), gpu, old$"):
        check_slurm("gpux")
    with pytest.raises(ClusterUnavailableError, match="partition 'old' is not up"):
        check_slurm("old")


def test_twice_the_memory_only_where_the_partition_has_it():
    from brainscore_core.slurm_cluster import SlurmJobs

    jobs = SlurmJobs(4, 3 * 2**30, {"partition": "gpu"}, {"partition": "gpu", "memory_bytes": 8 * 2**30})
    larger, why = jobs.larger(2.0, jobs=2)
    assert (larger.jobs, larger.memory_bytes, larger.options, why) == (2, 6 * 2**30, {"partition": "gpu"},
                                                                        "jobs of 6.0 GB")
    none, why = larger.larger(2.0, jobs=1)
    assert none is None and why == "12.0 GB per job exceeds the largest node of partition 'gpu' (8.0 GB)"


def test_the_job_memory_of_the_memory_plan():
    """The largest estimate over the 95 % at which the nanny restarts a worker, plus 256 MiB, in steps of 256 MiB."""
    from brainscore_core.memory_plan import DEFAULT_JOB_BYTES, PairEstimate, job_memory

    small = PairEstimate(100, 1000, 500 * 2**20, 400_000, 1_000_000)
    large = PairEstimate(640, 200_704, 600 * 2**20, 513_802_240, 1_034_158_080)
    # by hand: (600 MiB + 986 MiB working + 490 MiB activations + 64 MiB overhead) / 0.95 + 256 MiB = 2.45 GiB -> the
    # next 256 MiB step, 2.5 GiB
    need = large.peak_bytes / 0.95 + 256 * 2**20
    assert job_memory([small, None, large]) == 10 * 256 * 2**20 and 9 * 256 * 2**20 < need <= 10 * 256 * 2**20
    assert job_memory([None]) == DEFAULT_JOB_BYTES == 4 * 2**30


@pytest.mark.parametrize(("state", "kind"), [("TIMEOUT", "timeout"), ("OUT_OF_MEMORY", "oom"),
                                             ("CANCELLED", "transient"), ("PREEMPTED", "transient")])
def test_a_lost_workers_job_state_gives_the_kind(monkeypatch, tmp_path, state, kind):
    """What ``scontrol show job`` says of the job a lost worker ran in (a stand-in scontrol on PATH)."""
    from brainscore_core.slurm_cluster import SlurmJobs

    (tmp_path / "scontrol").write_text(f"#!/bin/sh\necho 'JobId=$4 JobName=brainscore-x JobState={state} "
                                       "Reason=None Dependency=(null)'\n")
    (tmp_path / "scontrol").chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    jobs = SlurmJobs(2, 2**30)
    jobs._job_of_worker["SLURMCluster-1"] = "41"
    assert jobs.death("SLURMCluster-1") == (kind, f"its Slurm job 41 ended ({state})")
    assert jobs.death("SLURMCluster-9") is None  # a worker of no known job


def test_the_worker_replaces_the_jobs_shell(tmp_path):
    """The job script's last line is ``exec <python> -m distributed.cli.dask_worker ...``: Slurm's kill reaches the
    worker itself (with ``proctrack/linuxproc`` a worker whose shell died first outlived its job; CI, stop 45)."""
    import_or_skip("dask_jobqueue", extra="brainscore-core[slurm] (nox -s slurm)", kind="opt-in")
    import shlex
    import sys

    from dask_jobqueue import SLURMCluster

    from brainscore_core.slurm_cluster import SlurmJobs

    jobs = SlurmJobs(1, 2**30, {"log_directory": str(tmp_path), "job_script_prologue": ["echo ready"]},
                     {"partition": "debug", "memory_bytes": 4 * 2**30})
    cluster = SLURMCluster(**jobs.cluster_arguments())
    try:
        lines = [line for line in cluster.job_script().splitlines() if line.strip()]
    finally:
        cluster.close()
    assert lines[-2] == "echo ready"
    assert lines[-1].startswith(f"exec {shlex.quote(sys.executable)} -m distributed.cli.dask_worker "), lines[-1]
    assert "#SBATCH --mem=1G" in lines and f"#SBATCH -J {jobs.job_name}" in lines, lines
