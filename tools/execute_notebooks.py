"""Execute notebooks in place through nbclient, so stored outputs are reproducible.

Usage: ``python tools/execute_notebooks.py notebooks/NN_name.ipynb [...]`` (``make notebooks``
runs it on every notebook).  Each notebook runs in a fresh ``python3`` kernel with
``notebooks/`` as working directory and timing records off; the file is rewritten only
if its content changed, so a second run leaves every file byte-identical.  Consecutive
stream outputs are merged, and the outputs of timing cells (marked ``# NBVAL_IGNORE_OUTPUT``)
are not stored, since they differ on every run.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def coalesce_streams(nb) -> None:
    """Merge consecutive stdout (stderr) outputs of a cell into one.

    The kernel may deliver one cell's printed text in several messages depending on timing;
    merging them makes the stored notebook independent of that.
    """
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        merged = []
        for out in cell.outputs:
            if (
                out.output_type == "stream"
                and merged
                and merged[-1].output_type == "stream"
                and merged[-1].name == out.name
            ):
                merged[-1].text += out.text
            else:
                merged.append(out)
        cell.outputs = merged


VOLATILE_MARK = "# NBVAL_IGNORE_OUTPUT"


def drop_volatile_outputs(nb) -> None:
    """Empty the outputs of cells marked ``# NBVAL_IGNORE_OUTPUT`` (timings only).

    Their output differs on every run, so storing it would break byte-identical
    re-execution; nbval still runs these cells (and fails if they raise) but does not
    compare them.  A reader sees the timings by running the notebook.
    """
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.lstrip().startswith(VOLATILE_MARK):
            cell.outputs = []


def execute(path: Path) -> bool:
    """Execute one notebook in place; return True if its bytes changed."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    coalesce_streams(nb)
    drop_volatile_outputs(nb)
    # Kernel metadata is the same on every run with the pinned environment; keep it minimal.
    nb.metadata.pop("widgets", None)
    text = nbformat.writes(nb) + "\n"
    old = path.read_text(encoding="utf-8")
    if text != old:
        path.write_text(text, encoding="utf-8")
        return True
    return False


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    for name in argv:
        path = Path(name)
        start = time.perf_counter()
        changed = execute(path)
        status = "updated" if changed else "unchanged"
        print(f"{path}: executed in {time.perf_counter() - start:.1f} s, {status}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
