"""The weights loader against a checkpoint served by a local HTTP server on 127.0.0.1 (issue 20).

The served file is a real CORnet-Z checkpoint in the published layout (``{'state_dict': {'module.<key>': ...}}``)
with seeded random weights; its digest is computed here with hashlib.
"""

from __future__ import annotations

import hashlib
import http.server
import multiprocessing
import os
import threading
import time
from pathlib import Path

import pytest
import torch

from model_tools.errors import MissingWeightsError, WeightsDigestError
from model_tools.zoo.weights import Checkpoint, fetch_checkpoint, load_checkpoint_state, weights_dir


class _Server:
    """Serves ``files``; ``mode`` 'ok', 'cut' (half the bytes, then the connection closes) or 'slow'."""

    def __init__(self, files: dict[str, bytes]):
        self.files, self.mode, self.requests = files, "ok", 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests += 1
                data = server.files.get(self.path.lstrip("/"))
                if data is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if server.mode == "cut":
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.connection.close()
                    return
                for start in range(0, len(data), 1 << 16):
                    self.wfile.write(data[start:start + (1 << 16)])
                    if server.mode == "slow":
                        time.sleep(0.05)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()


@pytest.fixture
def served(tmp_path):
    from model_tools.zoo.cornet import cornet_z

    torch.manual_seed(0)
    state = cornet_z().state_dict()
    path = tmp_path / "checkpoint.pth"
    torch.save({"epoch": 1, "state_dict": {f"module.{key}": value for key, value in state.items()}}, path)
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    filename = f"cornet_z-{digest[:8]}.pth"
    server = _Server({filename: data})
    checkpoint = Checkpoint(server.url + filename, digest[:8], "state_dict", "module.")
    yield server, checkpoint, state
    server.close()


def _leftovers() -> list[str]:
    folder = weights_dir()
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock")) if folder.exists() else []


def test_download_is_verified_stored_and_reused(served):
    server, checkpoint, state = served
    loaded = load_checkpoint_state(checkpoint)
    assert set(loaded) == set(state) and all(torch.equal(loaded[key], state[key]) for key in state)
    assert _leftovers() == [checkpoint.filename]
    load_checkpoint_state(checkpoint)
    assert server.requests == 1  # the second load found the file


def test_digest_mismatch_is_refused_and_leaves_no_file(served):
    server, checkpoint, _ = served
    wrong = Checkpoint(checkpoint.url, "00000000", "state_dict", "module.")
    with pytest.raises(WeightsDigestError, match="published with digest 00000000"):
        fetch_checkpoint(wrong)
    assert _leftovers() == []


def test_interrupted_download_leaves_no_file_and_the_next_one_completes(served):
    server, checkpoint, _ = served
    server.mode = "cut"
    with pytest.raises(MissingWeightsError, match="interrupted|IncompleteRead|Connection"):
        fetch_checkpoint(checkpoint)
    assert _leftovers() == []
    server.mode = "ok"
    path = fetch_checkpoint(checkpoint)
    assert hashlib.sha256(path.read_bytes()).hexdigest().startswith(checkpoint.sha256)


def test_offline_error_names_the_file_the_url_and_the_folder():
    checkpoint = Checkpoint("http://127.0.0.1:9/cornet_z-5c427c9c.pth", "5c427c9c")  # port 9: nothing listens
    with pytest.raises(MissingWeightsError) as error:
        fetch_checkpoint(checkpoint)
    message = str(error.value)
    assert "cornet_z-5c427c9c.pth" in message and checkpoint.url in message and str(weights_dir()) in message


def test_a_local_file_is_checked_too(served, tmp_path):
    _, checkpoint, _ = served
    wrong = tmp_path / checkpoint.filename
    wrong.write_bytes(b"not the checkpoint")
    with pytest.raises(WeightsDigestError, match=str(wrong)):
        fetch_checkpoint(checkpoint, wrong)


def _fetch_in_process(url: str, digest: str, home: str, queue) -> None:
    os.environ["BRAINSCORE_HOME"] = home
    queue.put(str(fetch_checkpoint(Checkpoint(url, digest, "state_dict", "module."))))


def test_two_processes_download_once(served):
    server, checkpoint, _ = served
    server.mode = "slow"
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = [context.Process(target=_fetch_in_process,
                                 args=(checkpoint.url, checkpoint.sha256, os.environ["BRAINSCORE_HOME"], queue))
                 for _ in range(2)]
    for process in processes:
        process.start()
    paths = {queue.get(timeout=120) for _ in processes}
    for process in processes:
        process.join(timeout=60)
    assert paths == {str(weights_dir() / checkpoint.filename)}
    assert server.requests == 1
    assert Path(paths.pop()).is_file()
