r"""Checks of note 002 read literally: the scraped goal formula, :math:`k_n` named the query, index bases of §4
against §4.1, the §4.1 sine column, :math:`\otimes` as a Kronecker product, angles under two rotations, a code
comment's tensor shape.

>>> elementwise_display().verdict, elementwise_display(fifth_sine=2).verdict
('fails', 'holds')

References: note 002 of :data:`ropemath.claims.ledger.NOTES`; Su et al., *RoFormer*, arXiv:2104.09864 v5,
eq. (14)-(16), (34).
"""

from __future__ import annotations

import numpy as np

from ropemath.claims._verdict import GAP, TOL, identity, num, refuted, res, shift_change, within_tol
from ropemath.claims.ledger import Outcome
from ropemath.core.apply import apply_rope
from ropemath.core.checks import elementwise_error, norm_error, orthogonality_error, relative_position_error
from ropemath.core.rotation import rotation_2d, rotation_matrix
from ropemath.theory.encodings import additive_scores, sinusoidal_scores

POSITIONS = (-7.0, 0.0, 1.0, 3.0, 1000.0, 123456.0)


def _theta(k: int, d: int) -> float:
    r"""Note 002 §3 written out: :math:`\theta_k = 10000^{-2k/d}` (no index range given)."""
    return 10000.0 ** (-2 * k / d)


def doubled_goal_formula(*, doubled: bool = True) -> Outcome:
    r"""The goal line as scraped, :math:`A = g\,A = g` (a chain), for RoPE's :math:`A = g = q^\top R_{n-m} k`."""
    q = k = np.array([2.0, 0.0])  # m = n = 0: A = g = |q|^2 = 4
    a = float(apply_rope(q, 0.0, layout="interleaved", base=1e4) @ apply_rope(k, 0.0, layout="interleaved", base=1e4))
    g = float(q @ k)
    chain = abs(a - g * a) if doubled else abs(a - g)
    return Outcome(
        "fails" if chain > GAP else "holds",
        f"q = k = (2, 0), m = n = 0: <f_q, f_k> = {num(a)} and g = {num(g)}; "
        + (f"the chain needs <f_q, f_k> = g <f_q, f_k>, i.e. {num(a)} = {num(g * a)}." if doubled else "A = g."),
        {"q = k": [2.0, 0.0], "m = n": 0, "<f_q, f_k>": num(a), "g <f_q, f_k>": num(g * a)},
    )


def kn_named_query(*, symbol: str = "k_n") -> Outcome:
    r""":math:`k_n` named "the query at position m": :math:`\langle R_m k_n, R_n k_n\rangle` vs the true score."""
    q_m, k_n, m, n = np.array([1.0, 0.0]), np.array([0.0, 1.0]), 1.0, 0.0  # W_q = W_k = I, d = 2, theta_0 = 1
    query = k_n if symbol == "k_n" else q_m

    def score(a: np.ndarray, b: np.ndarray, m: float, n: float) -> float:
        return float(
            apply_rope(a, m, layout="interleaved", base=1e4) @ apply_rope(b, n, layout="interleaved", base=1e4)
        )

    stated, actual = score(query, k_n, m, n), score(q_m, k_n, m, n)
    corr = max(abs(score(q_m, k_n, m + s, n + s) - actual) for s in (-5.0, 3.0, 1000.0))  # relative in m - n
    inputs = {"q_m": [1.0, 0.0], "k_n": [0.0, 1.0], "m": 1, "n": 0, "theta": 1.0}
    return refuted(stated, actual, inputs, corr, f"score with {symbol} as the query at m")


def position_term_absolute(*, structured: bool = False) -> Outcome:
    r""":math:`\langle p_i W_Q, p_j W_K\rangle` is not a function of i - j (learned p; sinusoidal p, generic W)."""
    rng = np.random.default_rng(60)  # seed 60
    zero = np.zeros((12, 8))
    wq, wk = (np.eye(8), np.eye(8)) if structured else tuple(rng.standard_normal((2, 8, 8)))
    learned = additive_scores(zero, rng.standard_normal((12, 8)), wq, wk)
    sinus = sinusoidal_scores(zero, np.arange(12.0), wq, wk)
    gaps = [abs(S[1, 0] - S[6, 5]) for S in ((sinus,) if structured else (learned, sinus))]
    return Outcome(
        "holds" if min(gaps) > GAP else "fails",
        f"Position-only term (no content, {'W = I' if structured else 'random W_Q, W_K'}, seed 60): term(1, 0) vs "
        f"term(6, 5), same i - j = 1, differ by {', '.join(res(g) for g in gaps)} "
        f"({'learned p, sinusoidal p' if not structured else 'sinusoidal p'}).",
    )


def embedding_rotated_before_projection(*, project: bool = True) -> Outcome:
    r"""Rotating the word embedding x and then projecting: :math:`(W_q R_m x_m)^\top (W_k R_n x_n)` is not relative."""
    rng = np.random.default_rng(61)  # seed 61
    x, wq, wk = rng.standard_normal((6, 8)), *rng.standard_normal((2, 8, 8))

    def scores(p: np.ndarray) -> np.ndarray:
        if project:
            return (apply_rope(x, p, layout="interleaved", base=1e4) @ wq.T) @ (
                apply_rope(x, p, layout="interleaved", base=1e4) @ wk.T
            ).T
        return (
            apply_rope(x @ wq.T, p, layout="interleaved", base=1e4)
            @ apply_rope(x @ wk.T, p, layout="interleaved", base=1e4).T
        )

    change = shift_change(scores, np.arange(6.0), 5.0)
    return Outcome(
        "fails" if change > GAP else "holds",
        f"Every position moved by 5 (random x, W_q, W_k, seed 61): the scores change by {res(change)} (relative) "
        f"when {'the embedding is rotated before W_q, W_k' if project else 'q, k are rotated after W_q, W_k'}.",
        {"d": 8, "N": 6, "shift": 5, "relative score change": num(change)} if change > GAP else None,
    )


def score_varies_with_distance(*, speed: float = 1.0) -> Outcome:
    r"""For generic q, k the score :math:`q^\top R_{r} k` takes a different value at each distance r = -10..10."""
    q, k = np.random.default_rng(62).standard_normal((2, 8))  # seed 62
    s = np.array([q @ rotation_matrix(speed * r, 8) @ k for r in range(-10, 11)])
    gap = float(np.min(np.abs(s[:, None] - s[None, :]) + np.eye(21) * 1e9))
    return Outcome(
        "holds" if gap > GAP else "fails",
        f"Random q, k in R^8 (seed 62): the 21 scores at r = -10..10 are pairwise "
        f"{'distinct' if gap > GAP else 'NOT distinct'} (smallest gap {'above' if gap > 1e-3 else 'below'} 1e-3).",
    )


def direction_rotation_unique(*, dim: int = 2) -> Outcome:
    r"""In 2D one rotation takes u to v: no skew :math:`A \ne 0` has :math:`A u = 0` (it does in 3D)."""
    u = np.random.default_rng(67).standard_normal(dim)  # seed 67
    basis = []  # skew-symmetric E_ij - E_ji, i < j: the directions in which a rotation can move
    for i in range(dim):
        for j in range(i + 1, dim):
            a = np.zeros((dim, dim))
            a[i, j], a[j, i] = 1.0, -1.0
            basis.append(a @ u)
    free = len(basis) - int(np.linalg.matrix_rank(np.array(basis)))
    if dim == 2:  # globally too: R(c) u = u only at c = 0 on a grid of 359 non-zero angles
        moved = min(float(np.linalg.norm(rotation_2d(c) @ u - u)) for c in np.linspace(0, 2 * np.pi, 361)[1:-1])
        free += 0 if moved > GAP else 1
    return Outcome(
        "holds" if free == 0 else "fails",
        f"Rotations R of R^{dim} with R u = v for a given unit pair (random u, seed 67): {free} free "
        f"parameter(s) (dim SO({dim}) = {len(basis)} minus the rank of A -> A u over skew A"
        + (", and R(c) u = u at no grid angle c in (0, 2 pi))." if dim == 2 else ").")
        + (" So R(a), a the angle from u to v, is the only one." if free == 0 else " Not unique."),
        None if free == 0 else {"dim": dim, "free parameters": free},
    )


def matrix_sparse(*, dims: tuple[int, ...] = (64, 128, 512)) -> Outcome:
    r""":math:`R^d_{\Theta,m}` has 2d non-zero entries of :math:`d^2`: sparse (at most 1/16 filled) for d >= 32."""
    filled = {d: int(np.count_nonzero(rotation_matrix(1.0, d))) for d in dims}
    ok = all(n == 2 * d and n / d**2 <= 1 / 16 for d, n in filled.items())
    return Outcome(
        "holds" if ok else "fails",
        "Non-zero entries of R^d_(Theta,1): "
        + ", ".join(f"{n} of {d * d} at d = {d}" for d, n in filled.items())
        + " (bound: at most 1/16 filled).",
    )


def _display_matrix(m: float, d: int, first: int) -> np.ndarray:
    """§4's block matrix written out, blocks R(m theta_first), ..., with theta_k = 10000^(-2k/d)."""
    R = np.zeros((d, d))
    for b in range(d // 2):
        R[2 * b : 2 * b + 2, 2 * b : 2 * b + 2] = rotation_2d(m * _theta(first + b, d))
    return R


def index_shift(*, matrix_first: int = 1) -> Outcome:
    r"""§4 (:math:`\theta_1..\theta_{d/2}`) and §4.1 (:math:`\theta_0..\theta_{d/2-1}`) with §3's :math:`\theta_k`."""
    d, m, q = 8, 1.0, np.eye(8)[0]  # theta_k = 10^-k at d = 8
    matrix = _display_matrix(m, d, matrix_first) @ q
    fast = apply_rope(q, m, layout="interleaved", base=1e4)  # eq. (34), theta_0..theta_(d/2-1)
    corr = max(float(np.max(np.abs(_display_matrix(p, d, 0) - rotation_matrix(p, d)))) for p in POSITIONS)
    inputs = {"d": 8, "theta_k": "10^-k", "m": 1, "q": "e_0", "coordinate": 1}
    return refuted(
        float(matrix[1]),
        float(fast[1]),
        inputs,
        corr,
        f"§4 matrix (blocks from theta_{matrix_first}) vs the §4.1 formula",
    )


def elementwise_display(*, fifth_sine: int = 1) -> Outcome:
    r"""§4.1 as written (d = 8), every entry of R_m: sine entry 4 is :math:`\sin m\theta_1`, not :math:`\theta_2`'s."""
    d, m, q = 8, 1.0, np.eye(8)  # the display applied to every q = e_j at once: column j is the result for e_j
    sines = [0, 0, 1, 1, fifth_sine, 2, 3, 3]  # as displayed; the vertical dots stand for the one entry left
    cosines = [0, 0, 1, 1, 2, 2, 3, 3]
    turned = np.array([-q[1], q[0], -q[3], q[2], -q[5], q[4], -q[7], q[6]])
    stated = q * np.cos([[m * _theta(i, d)] for i in cosines]) + turned * np.sin([[m * _theta(i, d)] for i in sines])
    actual = rotation_matrix(m, d) @ q
    x = np.random.default_rng(63).standard_normal(8)  # seed 63: eq. (34), each sin m theta_i twice
    corr = max(elementwise_error(x, p) for p in POSITIONS)
    i, j = (int(t) for t in np.unravel_index(np.argmax(np.abs(stated - actual)), (d, d)))  # the worst entry
    inputs = {"d": 8, "theta_i": "10^-i", "m": 1, "q": f"e_{j}", "coordinate": i}
    return refuted(float(stated[i, j]), float(actual[i, j]), inputs, corr, f"(R_m q)_{i} from the displayed vectors")


def lengths_and_same_angle(*, stretch: float = 1.0) -> Outcome:
    r""":math:`\|R_m x\| = \|x\|` and :math:`\angle(R_m a, R_m b) = \angle(a, b)`: :math:`R_m` is orthogonal."""
    a, b = np.random.default_rng(65).standard_normal((2, 16, 16))  # seed 65

    def angle(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.arccos(np.clip(np.sum(u * v, -1) / np.linalg.norm(u, axis=-1) / np.linalg.norm(v, axis=-1), -1, 1))

    worst = 0.0
    for m in POSITIONS:
        ra, rb = (
            stretch * apply_rope(a, m, layout="interleaved", base=1e4),
            stretch * apply_rope(b, m, layout="interleaved", base=1e4),
        )
        lengths = float(np.max(np.abs(np.linalg.norm(ra, axis=-1) / np.linalg.norm(a, axis=-1) - 1)))
        worst = max(worst, lengths, float(np.max(np.abs(angle(ra, rb) - angle(a, b)))))
    worst = max(worst, norm_error(a, 3.0) if stretch == 1.0 else 0.0, orthogonality_error(3.0, 16))
    what = "R_m" if stretch == 1.0 else f"{stretch:g} R_m"
    return identity(
        worst, f"{what}: relative length change and angle change, 16 pairs in R^16 (seed 65), 6 positions; R^T R = I",
        tol=1e-9,
    )


def angle_under_different_rotations(*, n_offset: float = -1.0) -> Outcome:
    r"""Refutes :math:`\angle(R_m q, R_n k) = \angle(q, k)` for :math:`m \ne n`; it is :math:`\angle(q, R_{n-m} k)`."""
    q = k = np.array([1.0, 0.0])
    m, n = 1.0, 1.0 + n_offset

    def angle(u: np.ndarray, v: np.ndarray) -> float:
        return float(np.arccos(np.clip(u @ v / np.linalg.norm(u) / np.linalg.norm(v), -1, 1)))

    actual = angle(rotation_2d(m) @ q, rotation_2d(n) @ k)
    rng = np.random.default_rng(66)  # seed 66: the correction in d = 8 with the RoPE frequencies
    corr = max(
        relative_position_error(a, b, mm, nn) for a, b in rng.standard_normal((5, 2, 8))
        for mm, nn in ((3.0, -4.0), (1000.0, 5.0))
    )
    inputs = {"q = k": [1.0, 0.0], "theta": 1.0, "m": 1, "n": num(n)}
    return refuted(angle(q, k), actual, inputs, corr, "angle before vs after rotating by m theta and n theta")


def flash_shape_comment(*, stated: tuple[str, ...] = ("batch_size", "seq_length", "head_dim", "hidden_dim")) -> Outcome:
    r"""The comment's [batch_size x seq_length x head_dim x hidden_dim] vs the tensor the code's ``view`` makes."""
    size = {"batch_size": 1, "seq_length": 3, "num_heads": 2, "head_dim": 4, "hidden_dim": 8}
    hidden = np.arange(24.0).reshape(1, 3, 8)  # bsz x q_len x hidden_dim, as q_proj returns it
    viewed = hidden.reshape(1, 3, 2, 4)  # .view(bsz, q_len, num_heads, head_dim)
    claimed = tuple(size[s] for s in stated)
    back = float(np.max(np.abs(viewed.transpose(0, 2, 1, 3).transpose(0, 2, 1, 3).reshape(1, 3, 8) - hidden)))
    inputs = {**size, "stated shape": list(claimed), "shape after view": list(viewed.shape)}
    return Outcome(
        "holds" if claimed == viewed.shape else "fails",
        f"hidden_states of shape (1, 3, 8) viewed as (bsz, q_len, num_heads, head_dim) = {viewed.shape}; the "
        f"comment's shape is {claimed} ({int(np.prod(claimed))} entries for {viewed.size} numbers). Correction "
        f"[batch_size x seq_length x num_heads x head_dim], then transpose(1, 2): the round trip back to "
        f"(1, 3, 8) has residual {within_tol(back)}.",
        inputs,
        back <= TOL,
    )
