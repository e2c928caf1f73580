"""Write the catalogue JSON of each by-reference family (issue 38, second half) from Brain-Score's data plugins.

The facts (identifier, bucket, key, sha1s, version ids, assembly class, linked stimulus set) are read from the
``load_*_from_s3`` calls of brain-score/vision's ``data/<family>/__init__.py`` at commit
c642dbe42aae3ed064bc0b66f70a80b264021164 (a bare mirror), by parsing the files, not by running them::

    python benchmarks/reference_catalogues.py /work/.mirror/brain-score+vision/repo

writes ``src/brainscore_vision/data/<family>/catalogue.json`` for every family of :data:`FAMILIES`. The access level
of each family is stated here with its evidence (``unknown``: Brain-Score's tests mark the data ``private_access``
while its benchmark metadata says ``data_publicly_available: true``, and no read was measured here; ``private``: both
say so).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"
HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "src" / "brainscore_vision" / "data"

#: our data plugin folder -> (Brain-Score's data plugin folder, access, why)
FAMILIES = {
    "ferguson2024": ("ferguson2024", "unknown",
                     "tests: private_access; benchmarks/ferguson2024/metadata.yaml: data_publicly_available: true"),
    "malania2007": ("malania2007", "unknown",
                    "tests: private_access; benchmarks/malania2007/metadata.yaml: data_publicly_available: true"),
    "islam2021": ("islam2021", "unknown",
                  "tests: private_access; benchmarks/islam2021/metadata.yaml: data_publicly_available: true"),
    "hendrycks2019": ("hendrycks2019", "private",
                      "tests: private_access; benchmarks/imagenet_c/metadata.yaml: data_publicly_available: false"),
    "barbumayo2019": ("barbumayo2019", "unknown",
                      "tests: private_access; benchmarks/objectnet/metadata.yaml: data_publicly_available: true"),
}


def _literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _stimulus_set_of(node: ast.AST) -> str | None:
    """``Y`` of ``stimulus_set_loader=lambda: load_stimulus_set('Y')``."""
    if isinstance(node, ast.Lambda) and isinstance(node.body, ast.Call) and node.body.args:
        return _literal(node.body.args[0])
    return None


def _key(bucket: str, stem: str) -> str:
    folder = bucket.split("/", 1)[1] if "/" in bucket else ""
    return f"{folder}/{stem}" if folder else stem


def entries_of(source: str) -> list[dict]:
    """Every ``<registry>['name'] = lambda: load_*_from_s3(...)`` of a data plugin's source, in file order."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda)
                and isinstance(node.value.body, ast.Call) and isinstance(node.targets[0], ast.Subscript)):
            continue
        registry = node.targets[0].value.id
        name = _literal(node.targets[0].slice)
        call = node.value.body
        function = getattr(call.func, "id", getattr(call.func, "attr", ""))
        arguments = {keyword.arg: keyword.value for keyword in call.keywords}
        values = {key: _literal(value) for key, value in arguments.items()}
        s3_identifier = values["identifier"]
        if function == "load_stimulus_set_from_s3" and registry == "stimulus_set_registry":
            stem = f"{values.get('filename_prefix') or 'stimulus_'}{s3_identifier.replace('.', '_')}"
            found.append({"kind": "stimulus_set", "identifier": name, "s3_identifier": s3_identifier,
                          "bucket": values["bucket"], "key": _key(values["bucket"], stem + ".{csv,zip}"),
                          "csv_sha1": values["csv_sha1"], "zip_sha1": values["zip_sha1"],
                          "csv_version_id": values.get("csv_version_id"),
                          "zip_version_id": values.get("zip_version_id")})
        elif function == "load_assembly_from_s3" and registry == "data_registry":
            found.append({"kind": "assembly", "identifier": name, "s3_identifier": s3_identifier,
                          "bucket": values["bucket"],
                          "key": _key(values["bucket"], f"assy_{s3_identifier.replace('.', '_')}.nc"),
                          "sha1": values["sha1"], "version_id": values.get("version_id"),
                          "cls": getattr(arguments["cls"], "id", None),
                          "stimulus_set": _stimulus_set_of(arguments.get("stimulus_set_loader"))})
    return found


def main(mirror: str) -> None:
    for ours, (theirs, access, why) in FAMILIES.items():
        source = subprocess.run(["git", "-C", mirror, "show", f"{REFERENCE_COMMIT}:brainscore_vision/data/{theirs}/"
                                 "__init__.py"], check=True, capture_output=True, text=True).stdout
        entries = [{**entry, "access": access} for entry in entries_of(source)]
        comment = (f"Read from brain-score/vision data/{theirs}/__init__.py at commit {REFERENCE_COMMIT} by "
                   f"benchmarks/reference_catalogues.py; access {access!r}: {why}")
        path = DATA / ours / "catalogue.json"
        path.write_text(json.dumps({"_comment": comment, "entries": entries}, indent=1) + "\n", encoding="utf-8")
        kinds = [entry["kind"] for entry in entries]
        print(f"{path.relative_to(HERE.parent)}: {kinds.count('assembly')} assemblies, "
              f"{kinds.count('stimulus_set')} stimulus sets")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/brain-score+vision/repo")
