"""The search code printed by Men et al. (NeurIPS 2024 version, Appendix E, "The python code for calculating the
low bound base for a context length of 32k"), run in torch's default float32, against ropemath's float64 scan
(notebook 13 §7, "The authors' own search"), with a negative control.

The appendix scans two-significant-figure bases, smallest first, and prints every base at which no
``ans < 0``; the first base printed is the one compared here.
"""

import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")

from ropemath import cosine_sum_minimum

# the grid of the appendix's three nested loops: (i + j/10) * 10**x, x = 3..9, i = 1..9, j = 0..9
GRID = [(i + j / 10) * (10**x) for x in range(3, 10) for i in range(1, 10) for j in range(10)]
# first base printed, for each context length (notebook 13 §7); Table 2 has 1.6e4, 2.7e4, 3.1e5, 6.4e5 here
FIRST = {2048: 1.6e4, 4096: 2.9e4, 16384: 3.5e5, 32768: 6.3e5}


def get_BMtheta_expectation(base, context_size=2**15, dim=128):  # noqa: N802 - transcribed from Appendix E
    realdim = dim / 2
    d = torch.arange(0, realdim, 1)
    theta = base ** (-2 * d / dim)
    dist = torch.outer(torch.arange(0, context_size), theta).cos()
    return dist.sum(dim=1) / realdim


def first_printed(context_size, dim=128, positions=None):
    """The first grid base for which the appendix prints "Find!Base=" (``True not in (ans < 0)``)."""
    for base in GRID:
        if positions is None:
            ans = get_BMtheta_expectation(base, context_size, dim)
        else:  # the negative control: the same function with m = 0..L (arange(0, L + 1))
            ans = get_BMtheta_expectation(base, positions, dim)
        assert ans.dtype == torch.float32  # torch's default dtype, as the appendix runs
        if True not in (ans < 0):
            return float(f"{base:.2g}")
    return None


def first_float64(n, d=128):
    return next(float(f"{b:.2g}") for b in GRID if cosine_sum_minimum(n, d, b) >= 0)


@pytest.mark.parametrize("n", sorted(FIRST))
def test_appendix_code_in_float32_gives_the_first_bases_of_notebook_13(n):
    assert first_printed(n) == FIRST[n] == first_float64(n)


def test_appendix_code_at_32k_default_arguments():
    assert first_printed(2**15) == 6.3e5  # the appendix's own call: context_size=2**15, dim=128


def test_negative_control_dim_64_changes_the_2k_result():
    assert first_printed(2048, dim=64) == 3.7e4 != FIRST[2048]
    assert first_float64(2048, 64) == 3.7e4


def test_counting_m_equal_to_L_changes_none_of_these():
    # m = 0..L instead of 0..L-1 (the paper's Eq. 10-11) gives the same first bases: not a way to reach Table 2
    assert first_printed(2048, positions=2049) == FIRST[2048] and first_printed(4096, positions=4097) == FIRST[4096]
