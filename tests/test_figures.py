"""Tests of the figure registry and of ``ropemath figures`` (write, determinism, --check, errors)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

import ropemath.plots as plots
from ropemath.cli.dispatch import main
from ropemath.plots import FIGURES, png_bytes, save_png

FAST = ["long_term_decay", "bound_vs_scores"]  # the two quickest figures, for tests that need any figure


def _only(names):
    return [arg for name in names for arg in ("--only", name)]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Every figure written twice by the CLI, into two fresh folders."""
    a, b = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    assert main(["figures", "--out", str(a)]) == 0
    assert main(["figures", "--out", str(b)]) == 0
    return a, b


def test_registry_is_a_plain_dict_of_figure_functions():
    assert type(FIGURES) is dict
    assert {"long_term_decay", "decay_across_bases", "bound_vs_scores"} <= set(FIGURES)
    for name, fn in FIGURES.items():
        assert name.isidentifier() and name == name.lower()
        assert callable(fn)


@pytest.mark.parametrize("name", ["long_term_decay", "decay_across_bases", "bound_vs_scores"])
def test_decay_figures_are_labelled_and_readable(name):
    fig = FIGURES[name]()
    assert isinstance(fig, Figure)
    assert tuple(fig.get_size_inches()) == (8.0, 4.5)
    title = fig.get_suptitle()
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel()
        assert title or ax.get_title()
        assert ax.get_legend() is not None and ax.get_legend().get_texts()


def test_long_term_decay_uses_the_papers_axis_labels_and_marks_its_frame():
    ax = FIGURES["long_term_decay"]().axes[0]
    assert ax.get_xlabel() == "relative distance"
    assert ax.get_ylabel() == "relative upper bound"
    assert ax.get_xlim() == (0.0, 256.0)
    dashed = [line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert plots.decay.PAPER_Y_TOP in dashed
    curve = max(ax.get_lines(), key=lambda line: len(line.get_xdata()))
    assert curve.get_ydata()[0] == pytest.approx(32.5)  # the full curve, not clipped at 20.5


def test_importing_the_plots_does_not_import_pyplot():
    code = "import sys, ropemath.plots, ropemath.plots.cli; print('matplotlib.pyplot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_png_has_no_software_metadata(tmp_path):
    data = png_bytes(FIGURES["long_term_decay"]())
    assert data.startswith(b"\x89PNG") and b"Software" not in data and b"matplotlib" not in data
    path = save_png(FIGURES["long_term_decay"](), tmp_path / "x.png")
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.png"]  # no temporary file left


def test_two_runs_write_byte_identical_files(rendered):
    a, b = rendered
    names = sorted(f"{name}.png" for name in FIGURES)
    assert sorted(p.name for p in a.iterdir()) == names  # nothing else written into --out
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes()


def test_progress_line_per_figure(tmp_path, capsys):
    assert main(["figures", "--out", str(tmp_path), *_only(FAST)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(FAST) + 1
    for name, line in zip(FAST, lines, strict=False):
        assert line.split()[0] == name and line.endswith(str(tmp_path / f"{name}.png"))


def test_only_writes_only_the_named_figure_and_nothing_outside_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    assert main(["figures", "--out", "out", "--only", "long_term_decay"]) == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    assert written == ["out", str(Path("out") / "long_term_decay.png")]


def test_default_out_is_figures_in_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "figures").mkdir()
    assert main(["figures", "--only", "long_term_decay"]) == 0
    assert (tmp_path / "figures" / "long_term_decay.png").is_file()


def test_check_passes_on_fresh_files(rendered, capsys):
    a, _ = rendered
    assert main(["figures", "--check", "--out", str(a)]) == 0
    assert "match within RMS" in capsys.readouterr().out


def test_check_names_stale_and_missing_figures_and_writes_nothing(rendered, tmp_path, capsys):
    a, _ = rendered
    for name in FAST:
        (tmp_path / f"{name}.png").write_bytes((a / f"{name}.png").read_bytes())
    assert main(["figures", "--check", "--out", str(tmp_path), *_only(FAST)]) == 0
    stale = tmp_path / "long_term_decay.png"
    fig = FIGURES["long_term_decay"]()
    fig.axes[0].plot([0, 256], [8, 20], color="red")  # a real change: one extra line
    save_png(fig, stale)
    (tmp_path / "bound_vs_scores.png").unlink()
    before = sorted((p.name, p.stat().st_mtime_ns) for p in tmp_path.iterdir())
    capsys.readouterr()
    assert main(["figures", "--check", "--out", str(tmp_path), *_only(FAST)]) == 1
    err = capsys.readouterr().err
    assert "long_term_decay (RMS " in err and "bound_vs_scores (missing" in err
    rms = float(err.split("long_term_decay (RMS ")[1].split(" ")[0])
    assert rms > 10 * plots.RMS_TOLERANCE  # a one-line change is far above the tolerance
    assert sorted((p.name, p.stat().st_mtime_ns) for p in tmp_path.iterdir()) == before


def test_check_tolerates_rounding_level_pixel_noise(rendered, tmp_path):
    # What another SIMD kernel does to a figure: a few hundred pixels off by 1/255 (seeded positions).
    from PIL import Image

    a, _ = rendered
    image = np.array(Image.open(a / "long_term_decay.png"))
    rng = np.random.default_rng(0)
    rows, cols = rng.integers(0, image.shape[0], 300), rng.integers(0, image.shape[1], 300)
    image[rows, cols, :3] = np.where(image[rows, cols, :3] > 0, image[rows, cols, :3] - 1, 1)
    noisy = tmp_path / "long_term_decay.png"
    Image.fromarray(image).save(noisy)
    rms = plots.figure_difference(a / "long_term_decay.png", noisy)
    assert 0 < rms < plots.RMS_TOLERANCE / 10
    assert main(["figures", "--check", "--out", str(tmp_path), "--only", "long_term_decay"]) == 0


def test_a_different_size_is_a_difference(rendered, tmp_path):
    a, _ = rendered
    small = FIGURES["long_term_decay"]()
    small.set_size_inches(4, 3)
    save_png(small, tmp_path / "small.png")
    assert plots.figure_difference(a / "long_term_decay.png", tmp_path / "small.png") == float("inf")


def _one_line_error(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and fragment in err and err.startswith("ropemath figures: error:")


def test_unknown_only_name_lists_the_names(capsys):
    _one_line_error(capsys, ["figures", "--only", "nope"], "unknown figure 'nope'")
    # the message lists every known figure
    assert main(["figures", "--only", "nope"]) == 2
    err = capsys.readouterr().err
    assert all(name in err for name in FIGURES)


def test_out_must_be_an_existing_directory(tmp_path, capsys):
    afile = tmp_path / "file.png"
    afile.write_bytes(b"x")
    _one_line_error(capsys, ["figures", "--out", str(afile), "--only", "long_term_decay"], "--out: not a directory")
    _one_line_error(capsys, ["figures", "--out", str(afile), "--check"], "--out: not a directory")
    _one_line_error(capsys, ["figures", "--out", str(tmp_path / "missing")], "does not exist")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.png"]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc (a directory nobody can write)")
def test_unwritable_out_is_a_usage_error(capsys):
    _one_line_error(capsys, ["figures", "--out", "/proc", "--only", "long_term_decay"], "is not writable")


def test_write_failure_is_a_usage_error(tmp_path, capsys, monkeypatch):
    def refuse(fig, path, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(plots, "save_png", refuse)
    _one_line_error(capsys, ["figures", "--out", str(tmp_path), "--only", "long_term_decay"], "cannot write")


def test_command_is_registered_for_python_m():
    out = subprocess.run(
        [sys.executable, "-m", "ropemath", "figures", "--only", "nope"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 2 and "known: " in out.stderr
