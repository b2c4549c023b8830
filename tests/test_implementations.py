"""The public implementations (Meta complex, GPT-J rotate_every_two, NeoX/HF rotate_half, partial
rotary), the per-head weight permutation and multi-head attention, against independent constructions:
Python complex numbers, matrices assembled by loops, explicit index loops.

Notebook 07 states the numbers pinned here (same seeds, same draws)."""

import cmath
import math

import numpy as np
import pytest
from constructions import angle_tol, complex_rope, loop_block_diagonal

from ropemath import (
    apply_rope,
    frequencies,
    gptj_rope,
    meta_freqs_cis,
    meta_llama_rope,
    multihead_rope_attention,
    neox_rope,
    partial_rotary,
    permute_for_half,
    permute_for_interleaved,
    rope_softmax_attention,
    rotate_every_two,
    rotate_half,
    rotation_matrix,
    to_bfloat16,
    to_half,
)

# --- independent constructions ----------------------------------------------------------------


def loop_half_rotation(m: float, d: int, base: float = 10000.0) -> np.ndarray:
    """The rotation in the half layout, assembled entry by entry: pair j is (j, j + d/2)."""
    R = np.zeros((d, d))
    h = d // 2
    for j in range(h):
        a = m * base ** (-2 * j / d)
        c, s = math.cos(a), math.sin(a)
        R[j, j], R[j, j + h], R[j + h, j], R[j + h, j + h] = c, -s, s, c
    return R


def loop_permute_rows(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Per head: new row r of the head is old row 2r for r < d_head/2, else old row 2(r - d_head/2) + 1."""
    d_head = w.shape[0] // n_heads
    out = np.empty_like(w)
    for h in range(n_heads):
        for r in range(d_head):
            src = 2 * r if r < d_head // 2 else 2 * (r - d_head // 2) + 1
            out[h * d_head + r] = w[h * d_head + src]
    return out


def loop_attention(x, w_q, w_k, w_v, n_heads, positions, rotation):
    """Scores (heads, T, T) over all pairs and causal softmax outputs (T, heads*d_head), by loops."""
    T = x.shape[0]
    d_head = w_q.shape[0] // n_heads
    rots = [rotation(float(p), d_head) for p in positions]
    scores = np.zeros((n_heads, T, T))
    out = np.zeros((T, n_heads * d_head))
    for h in range(n_heads):
        rows = slice(h * d_head, (h + 1) * d_head)
        q = [rots[t] @ (w_q[rows] @ x[t]) for t in range(T)]
        k = [rots[t] @ (w_k[rows] @ x[t]) for t in range(T)]
        v = [w_v[rows] @ x[t] for t in range(T)]
        for i in range(T):
            for j in range(T):
                scores[h, i, j] = float(q[i] @ k[j]) / math.sqrt(d_head)
            visible = [math.exp(scores[h, i, j] - max(scores[h, i, : i + 1])) for j in range(i + 1)]
            total = sum(visible)
            out[i, rows] = sum(wt / total * v[j] for j, wt in enumerate(visible))
    return scores, out


def rel(a, ref):
    return float(np.linalg.norm(a - ref) / np.linalg.norm(ref))


# --- Meta Llama: complex form -------------------------------------------------------------------


def test_meta_freqs_cis_matches_complex_exponential():
    d, positions = 16, [0, 1, 7, 12345]
    table = meta_freqs_cis(positions, d)
    assert table.shape == (4, 8) and table.dtype == np.complex128
    for a, m in enumerate(positions):
        for i in range(d // 2):
            expected = cmath.exp(1j * m * 10000.0 ** (-2 * i / d))
            assert abs(table[a, i] - expected) <= angle_tol(m)


@pytest.mark.parametrize("d", [2, 8, 64, 128])
@pytest.mark.parametrize("m", [0, 3, -50, 99991])
def test_meta_llama_rope_matches_apply_rope_and_complex_loop(d, m):
    x = np.random.default_rng(d + 1).standard_normal(d)
    y = meta_llama_rope(x, m)
    np.testing.assert_allclose(y, complex_rope(x, m), rtol=0, atol=angle_tol(m))
    np.testing.assert_allclose(y, apply_rope(x, m, layout="interleaved", base=1e4), rtol=0, atol=1e-14)


def test_meta_llama_rope_keeps_dtype_and_batch_shape():
    x = np.random.default_rng(0).standard_normal((2, 5, 8)).astype(np.float32)
    y = meta_llama_rope(x, np.arange(5))
    assert y.dtype == np.float32 and y.shape == x.shape
    np.testing.assert_allclose(y, apply_rope(x, np.arange(5), layout="interleaved", base=1e4), atol=1e-6)


# --- GPT-J: rotate_every_two --------------------------------------------------------------------


def test_rotate_every_two_matches_loop():
    x = np.random.default_rng(1).standard_normal(10)
    expected = np.array([-x[i + 1] if i % 2 == 0 else x[i - 1] for i in range(10)])
    np.testing.assert_array_equal(rotate_every_two(x), expected)
    # it is the rotation by +90 degrees of every interleaved pair (all angles pi/2)
    quarter = np.zeros((10, 10))
    for i in range(5):
        quarter[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[0.0, -1.0], [1.0, 0.0]]
    np.testing.assert_array_equal(rotate_every_two(x), quarter @ x)


@pytest.mark.parametrize("d", [2, 6, 64])
def test_gptj_rope_matches_apply_rope_and_loop_matrix(d):
    rng = np.random.default_rng(20 + d)
    for m in rng.integers(-(10**5), 10**5, size=4):
        x = rng.standard_normal(d)
        y = gptj_rope(x, m)
        np.testing.assert_allclose(y, loop_block_diagonal(float(m), d) @ x, rtol=0, atol=angle_tol(m))
        np.testing.assert_allclose(y, apply_rope(x, m, layout="interleaved", base=1e4), rtol=0, atol=1e-14)


# --- GPT-NeoX / Hugging Face: rotate_half -------------------------------------------------------


def test_rotate_half_matches_loop():
    x = np.random.default_rng(2).standard_normal(8)
    expected = np.array([-x[i + 4] if i < 4 else x[i - 4] for i in range(8)])
    np.testing.assert_array_equal(rotate_half(x), expected)


@pytest.mark.parametrize("d", [2, 6, 64])
def test_neox_rope_matches_half_layout_and_permuted_loop_matrix(d):
    rng = np.random.default_rng(40 + d)
    for m in rng.integers(-(10**5), 10**5, size=4):
        x = rng.standard_normal(d)
        y = neox_rope(x, m)
        np.testing.assert_allclose(y, loop_half_rotation(float(m), d) @ x, rtol=0, atol=angle_tol(m))
        np.testing.assert_allclose(y, apply_rope(x, m, layout="half", base=1e4), rtol=0, atol=1e-14)
        # the same vector stored interleaved: rotate, then move to the half layout by an explicit index list
        x_inter = np.empty(d)
        x_inter[0::2], x_inter[1::2] = x[: d // 2], x[d // 2 :]
        rotated = loop_block_diagonal(float(m), d) @ x_inter
        np.testing.assert_allclose(
            y,
            [rotated[2 * i] for i in range(d // 2)] + [rotated[2 * i + 1] for i in range(d // 2)],
            rtol=0,
            atol=angle_tol(m),
        )


def test_implementations_agree_across_layouts():
    """The notebook's comparison (seed 7): every implementation within 1e-14 of apply_rope / dense."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 32, 128))
    m = rng.integers(0, 100_000, size=32)
    dense = np.stack(
        [np.stack([loop_block_diagonal(float(p), 128) @ x[h, j] for j, p in enumerate(m)]) for h in range(4)]
    )
    reference = apply_rope(x, m, layout="interleaved", base=1e4)
    for y in (meta_llama_rope(x, m), gptj_rope(x, m)):
        assert np.abs(y - reference).max() < 1e-14
        # loop matrix: Python's pow, angles up to 1e5 rad, |x_j| < 5
        assert np.abs(y - dense).max() < 5 * angle_tol(1e5)
    assert np.abs(neox_rope(to_half(x), m) - to_half(meta_llama_rope(x, m))).max() < 1e-14
    # the wrong layout is not a small error: NeoX's rotation of interleaved numbers
    assert np.abs(neox_rope(x, m) - reference).max() > 1.0


# --- every implementation against apply_rope and the package's dense rotation_matrix ------------


def _partial_dense(m, d, r, layout):
    """diag(R^r_m, I_{d-r}) from rotation_matrix (frequencies of an r-dimensional RoPE)."""
    block = np.eye(d)
    block[:r, :r] = rotation_matrix(m, r, layout=layout)
    return block


IMPLEMENTATIONS = {  # name: (function, its layout, dense matrix for (m, d))
    "meta_llama_rope": (meta_llama_rope, "interleaved", lambda m, d: rotation_matrix(m, d)),
    "gptj_rope": (gptj_rope, "interleaved", lambda m, d: rotation_matrix(m, d)),
    "neox_rope": (neox_rope, "half", lambda m, d: rotation_matrix(m, d, layout="half")),
    "partial_rotary interleaved": (
        lambda x, m: partial_rotary(x, m, 16, layout="interleaved", base=1e4),
        "interleaved",
        lambda m, d: _partial_dense(m, d, 16, "interleaved"),
    ),
    "partial_rotary half": (
        lambda x, m: partial_rotary(x, m, 16, layout="half", base=1e4),
        "half",
        lambda m, d: _partial_dense(m, d, 16, "half"),
    ),
}


@pytest.mark.parametrize("name", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_each_implementation_matches_apply_rope_and_rotation_matrix(name, dtype):
    """Batch (heads, positions, d) = (3, 9, 64), positions up to 1e5 (seed 8): each implementation equals
    apply_rope in its layout (on the rotated slice for partial rotary) and the dense R_m x per vector."""
    fn, layout, dense = IMPLEMENTATIONS[name]
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 9, 64)).astype(dtype)
    m = rng.integers(0, 100_000, size=9)
    y = fn(x, m)
    assert y.shape == x.shape and y.dtype == x.dtype
    tol = 1e-13 if dtype == np.float64 else 1e-6
    if name.startswith("partial"):
        fast = np.concatenate([apply_rope(x[..., :16], m, layout=layout, base=1e4), x[..., 16:]], axis=-1)
    else:
        fast = apply_rope(x, m, layout=layout, base=1e4)
    assert np.max(np.abs(y.astype(np.float64) - fast)) <= tol * np.max(np.abs(x))
    for h in range(3):
        for j, p in enumerate(m):
            expected = dense(float(p), 64) @ x[h, j].astype(np.float64)
            assert np.max(np.abs(y[h, j] - expected)) <= tol * np.max(np.abs(x)), (name, h, j)
    # and the other layout's matrix is far off (the test can tell the layouts apart)
    other = {"interleaved": "half", "half": "interleaved"}[layout]
    if not name.startswith("partial"):
        wrong = np.stack([rotation_matrix(float(p), 64, layout=other) @ x[0, j] for j, p in enumerate(m)])
        assert np.max(np.abs(y[0] - wrong)) > 0.1


# --- partial rotary ----------------------------------------------------------------------------


@pytest.mark.parametrize("d, r", [(256, 64), (8, 2), (10, 10)])
def test_partial_rotary_matches_block_diagonal(d, r):
    rng = np.random.default_rng(d + r)
    x = rng.standard_normal(d)
    for m in (0, 5, 2047):
        block = np.eye(d)
        block[:r, :r] = loop_block_diagonal(float(m), r)  # frequencies of an r-dimensional RoPE
        y = partial_rotary(x, m, r, layout="interleaved", base=1e4)
        np.testing.assert_allclose(y, block @ x, rtol=0, atol=1e-12)
        block[:r, :r] = loop_half_rotation(float(m), r)
        np.testing.assert_allclose(partial_rotary(x, m, r, layout="half", base=1e4), block @ x, rtol=0, atol=1e-12)


def test_partial_rotary_passes_rest_through_unchanged():
    x = np.random.default_rng(3).standard_normal((8, 96))
    for layout in ("interleaved", "half"):
        y = partial_rotary(x, np.arange(8) * 100, 24, layout=layout, base=1e4)
        np.testing.assert_array_equal(y[:, 24:], x[:, 24:])
        assert not np.array_equal(y[1:, :24], x[1:, :24])


def test_partial_rotary_scores_depend_on_relative_position():
    q, k = np.random.default_rng(4).standard_normal((2, 256))
    for layout in ("interleaved", "half"):

        def score(m, n, layout=layout):
            return partial_rotary(q, m, 64, layout=layout, base=1e4) @ partial_rotary(k, n, 64, layout=layout, base=1e4)

        assert score(1007, 1000) == pytest.approx(score(7, 0), abs=1e-12)
        assert score(-300, 12) == pytest.approx(score(0, 312), abs=1e-12)


def test_partial_rotary_model_sizes():
    """GPT-J-6B: 4096/16 = 256-dim heads, rotary_dim 64. GPT-NeoX-20B: 6144/64 = 96, rotary_pct 0.25."""
    assert 4096 // 16 == 256 and int(6144 // 64 * 0.25) == 24
    rng = np.random.default_rng(11)  # the notebook's draws
    for d_head, r, layout in [(256, 64, "interleaved"), (96, 24, "half")]:
        xp = rng.standard_normal((8, d_head))
        mp = rng.integers(0, 2048, size=8)
        y = partial_rotary(xp, mp, r, layout=layout, base=1e4)
        rot = loop_block_diagonal if layout == "interleaved" else loop_half_rotation
        for j in range(8):
            np.testing.assert_allclose(y[j, :r], rot(float(mp[j]), r) @ xp[j, :r], rtol=0, atol=1e-12)
        np.testing.assert_array_equal(y[:, r:], xp[:, r:])
        q, k = rng.standard_normal((2, d_head))
        shift = partial_rotary(q, 1007, r, layout=layout, base=1e4) @ partial_rotary(
            k, 1000, r, layout=layout, base=1e4
        ) - partial_rotary(q, 7, r, layout=layout, base=1e4) @ partial_rotary(k, 0, r, layout=layout, base=1e4)
        assert abs(shift) < 1e-12


# --- the weight permutation ---------------------------------------------------------------------


@pytest.mark.parametrize("n_heads, d_head", [(1, 2), (2, 4), (4, 64), (3, 10)])
def test_permute_for_half_matches_loop(n_heads, d_head):
    w = np.random.default_rng(n_heads * d_head).standard_normal((n_heads * d_head, 7))
    np.testing.assert_array_equal(permute_for_half(w, n_heads), loop_permute_rows(w, n_heads))
    np.testing.assert_array_equal(permute_for_half(w[:, 0], n_heads), loop_permute_rows(w, n_heads)[:, 0])


def test_permute_for_half_matches_reshape_swap_construction():
    """Hugging Face's documented recipe: rows as (n_heads, d_head/2, 2, d_model), swap the middle axes."""
    n_heads, d_head, d_model = 4, 16, 12
    w = np.random.default_rng(5).standard_normal((n_heads * d_head, d_model))
    swapped = w.reshape(n_heads, d_head // 2, 2, d_model).swapaxes(1, 2).reshape(n_heads * d_head, d_model)
    np.testing.assert_array_equal(permute_for_half(w, n_heads), swapped)


def test_permute_for_interleaved_inverts():
    w = np.random.default_rng(6).standard_normal((6 * 8, 5))
    np.testing.assert_array_equal(permute_for_interleaved(permute_for_half(w, 6), 6), w)
    np.testing.assert_array_equal(permute_for_half(permute_for_interleaved(w, 6), 6), w)
    assert not np.array_equal(permute_for_half(w, 6), w)


def test_permuted_query_is_half_layout_copy_per_head():
    """W_half x = to_half(W x) in every head, i.e. x_half = x_inter[P] within each head."""
    n_heads, d_head = 3, 8
    rng = np.random.default_rng(12)
    w, x = rng.standard_normal((n_heads * d_head, 5)), rng.standard_normal(5)
    np.testing.assert_allclose(
        (permute_for_half(w, n_heads) @ x).reshape(n_heads, d_head),
        to_half((w @ x).reshape(n_heads, d_head)),
        atol=1e-15,
    )


# --- multi-head attention and the checkpoint conversion (all heads distinct; notebook 07's GQA case below) ---


@pytest.fixture(scope="module")
def checkpoint():
    rng = np.random.default_rng(2024)
    n_heads, d_head, d_model, T = 4, 64, 256, 128
    X = rng.standard_normal((T, d_model))
    W_q, W_k, W_v = rng.standard_normal((3, n_heads * d_head, d_model)) / np.sqrt(d_model)
    W_o = rng.standard_normal((d_model, n_heads * d_head)) / np.sqrt(n_heads * d_head)
    meta = loop_attention(X, W_q, W_k, W_v, n_heads, range(T), loop_block_diagonal)
    return {"X": X, "W_q": W_q, "W_k": W_k, "W_v": W_v, "W_o": W_o, "n_heads": n_heads, "T": T, "meta": meta}


def test_multihead_attention_matches_loop(checkpoint):
    c = checkpoint
    S, O = multihead_rope_attention(
        c["X"], c["W_q"], c["W_k"], c["W_v"], c["n_heads"], causal=True, layout="interleaved", base=1e4
    )
    np.testing.assert_allclose(S, c["meta"][0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(O, c["meta"][1], rtol=0, atol=1e-12)
    # per head it is the single-head softmax attention of ropemath.attention.softmax (scores / sqrt(d_head))
    h = 2
    rows = slice(h * 64, (h + 1) * 64)
    single = rope_softmax_attention(
        c["X"] @ c["W_q"][rows].T,
        c["X"] @ c["W_k"][rows].T,
        c["X"] @ c["W_v"][rows].T,
        np.arange(c["T"]),
        causal=True,
        layout="interleaved",
        base=1e4,
    )
    np.testing.assert_allclose(O[:, rows], single, rtol=0, atol=1e-12)


def test_permuted_weights_reproduce_interleaved_scores(checkpoint):
    c = checkpoint
    pq, pk = permute_for_half(c["W_q"], c["n_heads"]), permute_for_half(c["W_k"], c["n_heads"])
    S, O = multihead_rope_attention(c["X"], pq, pk, c["W_v"], c["n_heads"], layout="half", causal=True, base=1e4)
    assert rel(S, c["meta"][0]) < 1e-14 and rel(O, c["meta"][1]) < 1e-14
    # independently: the permuted weights through loop-built half-layout rotations
    S_loop, _ = loop_attention(
        c["X"],
        loop_permute_rows(c["W_q"], 4),
        loop_permute_rows(c["W_k"], 4),
        c["W_v"],
        4,
        range(c["T"]),
        loop_half_rotation,
    )
    assert rel(S_loop, c["meta"][0]) < 1e-13


def test_unpermuted_weights_change_scores(checkpoint):
    """Unpermuted weights under rotate_half, from loop-built half-layout rotations: wrong except at m = n."""
    c = checkpoint
    S_raw, O_raw = loop_attention(c["X"], c["W_q"], c["W_k"], c["W_v"], 4, range(c["T"]), loop_half_rotation)
    S_meta, O_meta = c["meta"]
    S_pkg, O_pkg = multihead_rope_attention(
        c["X"], c["W_q"], c["W_k"], c["W_v"], 4, layout="half", causal=True, base=1e4
    )
    np.testing.assert_allclose(S_pkg, S_raw, rtol=0, atol=1e-12)
    assert rel(S_raw, S_meta) == pytest.approx(1.141, abs=5e-4)
    assert rel(O_raw, O_meta) == pytest.approx(0.670, abs=5e-4)
    distance = np.abs(np.arange(c["T"])[:, None] - np.arange(c["T"])[None, :])
    for (lo, hi), expected in zip(
        [(0, 0), (1, 1), (2, 7), (8, 31), (32, 127)], [0.000, 0.335, 0.753, 1.081, 1.242], strict=True
    ):
        band = (distance >= lo) & (distance <= hi)
        assert rel(S_raw[:, band], S_meta[:, band]) == pytest.approx(expected, abs=5e-4)
    # on the diagonal nothing is rotated relative to anything else: q_m . k_m in both models
    assert np.abs(np.diagonal(S_raw, axis1=1, axis2=2) - np.diagonal(S_meta, axis1=1, axis2=2)).max() < 1e-13


def test_grouped_query_conversion_numbers_of_notebook_07():
    """Notebook 07's table and bands (4 query heads sharing 2 KV heads), recomputed by loops.

    A KV head serving a group acts as that many identical key heads, so the grouped model is the loop model with
    W_k's and W_v's head blocks repeated; W_k must be permuted per KV head (with 2 heads), not with the query count.
    """
    rng = np.random.default_rng(2024)
    n_heads, n_kv, d_head, d_model, T = 4, 2, 64, 256, 128
    X = rng.standard_normal((T, d_model))
    W_q = rng.standard_normal((n_heads * d_head, d_model)) / np.sqrt(d_model)
    W_k, W_v = rng.standard_normal((2, n_kv * d_head, d_model)) / np.sqrt(d_model)

    def per_query_head(w):  # (n_kv * d_head, d_model) -> (n_heads * d_head, d_model): KV head j serves 2j, 2j + 1
        return np.repeat(w.reshape(n_kv, d_head, d_model), n_heads // n_kv, axis=0).reshape(-1, d_model)

    def run(w_q, w_k, rotation):
        return loop_attention(X, w_q, per_query_head(w_k), per_query_head(W_v), n_heads, range(T), rotation)

    S_meta, O_meta = run(W_q, W_k, loop_block_diagonal)
    S_conv, O_conv = run(loop_permute_rows(W_q, n_heads), loop_permute_rows(W_k, n_kv), loop_half_rotation)
    S_wrong, O_wrong = run(loop_permute_rows(W_q, n_heads), loop_permute_rows(W_k, n_heads), loop_half_rotation)
    S_raw, O_raw = run(W_q, W_k, loop_half_rotation)
    assert rel(S_conv, S_meta) < 1e-13 and rel(O_conv, O_meta) < 1e-13
    assert rel(S_wrong, S_meta) == pytest.approx(1.019, abs=5e-4) and rel(O_wrong, O_meta) == pytest.approx(
        0.739, abs=5e-4
    )
    assert rel(S_raw, S_meta) == pytest.approx(1.133, abs=5e-4) and rel(O_raw, O_meta) == pytest.approx(0.663, abs=5e-4)
    distance = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    for (lo, hi), expected in zip(
        [(0, 0), (1, 1), (2, 7), (8, 31), (32, 127)], [0.000, 0.332, 0.748, 1.080, 1.229], strict=True
    ):
        band = (distance >= lo) & (distance <= hi)
        assert rel(S_raw[:, band], S_meta[:, band]) == pytest.approx(expected, abs=5e-4)
    # W_k permuted with the query-head count: wrong at every distance, m = n included
    for (lo, hi), expected in zip(
        [(0, 0), (1, 1), (2, 7), (8, 31), (32, 127)], [1.021, 1.021, 1.021, 1.033, 1.010], strict=True
    ):
        band = (distance >= lo) & (distance <= hi)
        assert rel(S_wrong[:, band], S_meta[:, band]) == pytest.approx(expected, abs=5e-4)


def test_wrong_rotation_uses_a_frequency_of_neither_pair_except_first_and_last():
    """Notebook 07: rotate_half on unpermuted weights turns coordinates i and i + d_h/2 (Meta pairs i // 2 and
    i // 2 + d_h/4) at theta_i, which is one of their two frequencies only for i = 0 and i = d_h/2 - 1."""
    for d_head in (8, 64, 128):
        h = d_head // 2
        matches = []
        for i in range(h):
            pair_a, pair_b = i // 2, (i + h) // 2  # Meta's (interleaved) pairs of the two coordinates
            assert pair_b == pair_a + d_head // 4
            if i in (pair_a, pair_b):  # theta_i is theta_{pair_a} or theta_{pair_b} iff the indices agree
                matches.append(i)
        assert matches == [0, h - 1]


def test_unpermuted_scores_still_relative(checkpoint):
    c = checkpoint
    S, _ = multihead_rope_attention(c["X"], c["W_q"], c["W_k"], c["W_v"], 4, layout="half", base=1e4)
    S_shift, _ = multihead_rope_attention(
        c["X"], c["W_q"], c["W_k"], c["W_v"], 4, m=np.arange(c["T"]) + 1000, layout="half", base=1e4
    )
    assert np.abs(S_shift - S).max() < 1e-12  # notebook: 1.0e-13
    assert np.abs(S).max() == pytest.approx(5.00, abs=5e-3)


def test_permuting_wv_permutes_output_per_head(checkpoint):
    c = checkpoint
    n = c["n_heads"]
    pq, pk, pv = (permute_for_half(c[w], n) for w in ("W_q", "W_k", "W_v"))
    _, O = multihead_rope_attention(c["X"], pq, pk, pv, n, layout="half", causal=True, base=1e4)
    O_meta = c["meta"][1]
    # explicit per-head reordering of Meta's output columns by P
    expected = np.column_stack(
        [O_meta[:, h * 64 + (2 * r if r < 32 else 2 * (r - 32) + 1)] for h in range(n) for r in range(64)]
    )
    assert np.abs(O - expected).max() < 1e-14
    assert rel(O, O_meta) == pytest.approx(1.363, abs=5e-4)
    # undone by the same permutation of the columns of W_o
    W_o = c["W_o"]
    W_o_perm = np.column_stack(
        [W_o[:, h * 64 + (2 * r if r < 32 else 2 * (r - 32) + 1)] for h in range(n) for r in range(64)]
    )
    assert rel(O @ W_o_perm.T, O_meta @ W_o.T) < 1e-14


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [meta_llama_rope, gptj_rope, neox_rope])
def test_rope_implementations_reject_bad_input(fn):
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array"):
        fn(np.arange(8), 1)
    with pytest.raises(ValueError, match=r"^x must have a positive even last axis"):
        fn(np.ones(7), 1)
    with pytest.raises(ValueError, match=r"^m must be broadcastable to x.shape\[:-1\]=\(3,\)"):
        fn(np.ones((3, 8)), [1, 2])
    with pytest.raises(ValueError, match=r"^base must be a finite real number > 0, got -1.0$"):
        fn(np.ones(8), 1, base=-1.0)
    with pytest.raises(TypeError, match=r"^m must be a real number"):
        fn(np.ones(8), True)


def test_rotations_reject_bad_input():
    for fn in (rotate_every_two, rotate_half):
        with pytest.raises(TypeError, match=r"^x must be a real floating-point array"):
            fn(np.array([1j, 2j]))
    with pytest.raises(ValueError, match=r"^d must be a positive even integer, got 5$"):
        meta_freqs_cis(1, 5)


@pytest.mark.parametrize(
    "r, exc, msg",
    [
        (3, ValueError, r"^rotary_dim must be an even integer <= d=8, got 3$"),
        (10, ValueError, r"^rotary_dim must be an even integer <= d=8, got 10$"),
        (0, ValueError, r"^rotary_dim must be an integer >= 2, got 0$"),
        (4.0, TypeError, r"^rotary_dim must be an integer, got float 4.0$"),
        (True, TypeError, r"^rotary_dim must be an integer, got bool True$"),
    ],
)
def test_partial_rotary_rejects_bad_rotary_dim(r, exc, msg):
    with pytest.raises(exc, match=msg):
        partial_rotary(np.ones(8), 1, r, layout="interleaved", base=1e4)


def test_partial_rotary_rejects_bad_layout():
    with pytest.raises(ValueError, match=r"^layout must be one of \('interleaved', 'half'\), got 'halves'$"):
        partial_rotary(np.ones(8), 1, 4, layout="halves", base=1e4)


@pytest.mark.parametrize("fn", [permute_for_half, permute_for_interleaved])
def test_permutation_rejects_bad_input(fn):
    rows = r"^w must have n_heads\*d_head rows with d_head even"
    with pytest.raises(ValueError, match=rows + r" \(n_heads=3\), got 8 rows$"):
        fn(np.ones((8, 4)), 3)
    with pytest.raises(ValueError, match=rows + r" \(n_heads=2\), got 6 rows$"):
        fn(np.ones((6, 4)), 2)
    with pytest.raises(ValueError, match=r"^w must have shape \(n_heads\*d_head, d_model\)"):
        fn(np.ones((2, 4, 4)), 2)
    with pytest.raises(TypeError, match=r"^w must be a real numeric array, got array of dtype complex128"):
        fn(np.ones((8, 4), dtype=complex), 2)
    with pytest.raises(ValueError, match=r"^n_heads must be an integer >= 1, got 0$"):
        fn(np.ones((8, 4)), 0)
    with pytest.raises(TypeError, match=r"^n_heads must be an integer, got float 2.0$"):
        fn(np.ones((8, 4)), 2.0)


def test_multihead_attention_rejects_bad_input():
    x, w = np.ones((5, 6)), np.ones((8, 6))
    with pytest.raises(TypeError, match=r"^x must be a real floating-point array of shape \(T, d_model\)"):
        multihead_rope_attention(np.ones((5, 6), dtype=int), w, w, w, 2, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^x must have shape \(T, d_model\) with T >= 1, got shape \(6,\)$"):
        multihead_rope_attention(np.ones(6), w, w, w, 2, layout="interleaved", base=1e4)
    with pytest.raises(
        ValueError, match=r"^w_k must have shape \(8, 6\) \(d_model = x.shape\[1\]\), got shape \(8, 5\)$"
    ):
        multihead_rope_attention(x, w, np.ones((8, 5)), w, 2, layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^m must have shape \(5,\) \(one position per row of x\), got shape \(4,\)$"):
        multihead_rope_attention(x, w, w, w, 2, m=np.arange(4), layout="interleaved", base=1e4)
    with pytest.raises(ValueError, match=r"^layout must be one of"):
        multihead_rope_attention(x, w, w, w, 2, layout="inter", base=1e4)
    with pytest.raises(TypeError, match=r"^causal must be a bool, got str 'yes'$"):
        multihead_rope_attention(x, w, w, w, 2, causal="yes", layout="interleaved", base=1e4)


def test_bfloat16_port_score_bound_of_notebook_11():
    """Notebook 11 §8, the guarantee behind notebook 04's port test: a half-layout port that rounds x, cos/sin, both
    products and the sum to bfloat16, and the score, errs by less than 18u |q||k| (u = 2^-8) against exact scores,
    for any q and k, with exact angles. Outside that condition (theta rounded to bfloat16, long positions) the bound
    fails."""
    bf = to_bfloat16
    u = 2.0**-8
    g4 = (1 + u) ** 4 - 1
    assert 4 * g4 * (1 + 2 * g4) + u * (1 + 2 * g4) ** 2 < 18 * u  # the inequality the notebook states

    def half_bf16(x, pos, theta):
        emb, x = np.concatenate([np.multiply.outer(pos, theta)] * 2, axis=-1), bf(x)
        return bf(bf(x * bf(np.cos(emb))) + bf(rotate_half(x) * bf(np.sin(emb))))

    theta = frequencies(128, base=1e4)
    worst, worst_rounded_theta = 0.0, 0.0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        q = rng.standard_normal(128) * np.exp(rng.uniform(-4, 4, 128))  # a wide dynamic range
        keys = rng.standard_normal((64, 128)) * np.exp(rng.uniform(-4, 4, (64, 128)))
        n, m = rng.integers(0, 100000, 64), int(rng.integers(0, 100000))
        exact = apply_rope(keys, n, layout="half", base=1e4) @ apply_rope(q, m, layout="half", base=1e4)
        scale = np.linalg.norm(q) * np.linalg.norm(keys, axis=1)
        ported = bf(half_bf16(keys, n, theta) @ half_bf16(q, m, theta))
        rounded = bf(half_bf16(keys, n, bf(theta)) @ half_bf16(q, m, bf(theta)))
        worst = max(worst, float(np.max(np.abs(ported - exact) / scale)))
        worst_rounded_theta = max(worst_rounded_theta, float(np.max(np.abs(rounded - exact) / scale)))
    assert worst < 18 * u
    assert worst_rounded_theta > 18 * u  # outside the condition: angles from bfloat16 theta
