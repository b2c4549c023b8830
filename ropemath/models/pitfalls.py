r"""Pitfalls of RoPE in practice, each measured: pairing, low-precision angles, caches, aliasing.

References: RoFormer, arXiv:2104.09864 v5, §3.2-3.4; Meta ``precompute_freqs_cis``; gpt-neox PR #1016;
transformers ``LlamaRotaryEmbedding.forward`` and PR #29285; emozilla, dynamic NTK (2023).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_layout, check_real_array, check_x
from ropemath.core.apply import apply_rope
from ropemath.core.precision import angles_in_format, phase_error, round_to_format, to_bfloat16
from ropemath.core.rotation import angles, frequencies

__all__ = [
    "layout_pairs",
    "relative_error",
    "distance_band_errors",
    "bfloat16_distances",
    "rope_float32_angles",
    "max_phase_error",
    "attention_outputs",
    "cached_key_scores",
    "aliased_frequency",
    "hf_cos_sin_error",
    "torch_float32_theta",
]

#: torch's float32 θ_i as ulp steps from the correctly rounded float32 θ_i, per pair ("+" up, "-" down, "0" equal)
_TORCH_THETA_STEPS = {(128, 500000.0): "00+0+000+0+000-0000-00+0++000-00--0000000-00+00-000--0000-000000"}  # Llama 3


def layout_pairs(d: int, layout: str) -> np.ndarray:
    r"""The pair index of every coordinate, shape (d,): which coordinates rotate together.

    .. math:: \text{interleaved: } p(j) = \lfloor j/2 \rfloor, \qquad
        \text{half: } p(j) = j \bmod d/2

    >>> layout_pairs(8, "interleaved").tolist(), layout_pairs(8, "half").tolist()
    ([0, 0, 1, 1, 2, 2, 3, 3], [0, 1, 2, 3, 0, 1, 2, 3])
    """
    d = check_d(d)
    layout = check_layout(layout)
    j = np.arange(d)
    return j // 2 if layout == "interleaved" else j % (d // 2)


def relative_error(a: npt.ArrayLike, ref: npt.ArrayLike) -> float:
    r"""Frobenius relative error of ``a`` against ``ref``.

    .. math:: \varepsilon = \|A - A_{\mathrm{ref}}\|_F / \|A_{\mathrm{ref}}\|_F

    >>> relative_error([3.0, 4.0], [3.0, 0.0])
    1.3333333333333333
    """
    a, ref = np.asarray(a, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    if a.shape != ref.shape:
        raise ValueError(f"a and ref must have one shape, got {a.shape} and {ref.shape}")
    norm = np.linalg.norm(ref)
    if norm == 0:
        raise ValueError("ref must not be zero")
    return float(np.linalg.norm(a - ref) / norm)


def distance_band_errors(scores: npt.ArrayLike, reference: npt.ArrayLike, bands: list[tuple[int, int]]) -> list[float]:
    r"""Relative error of (..., T, T) scores over each band ``lo <= |m - n| <= hi`` of distances.

    .. math:: \varepsilon_{[lo,hi]} = \frac{\| (S - S_{\mathrm{ref}})|_{lo\le|m-n|\le hi}\|_F}
        {\| S_{\mathrm{ref}}|_{lo\le|m-n|\le hi}\|_F}

    >>> S = np.eye(3) + np.ones((3, 3)); R = np.ones((3, 3))
    >>> distance_band_errors(S, R, [(0, 0), (1, 2)])
    [1.0, 0.0]
    """
    S, R = np.asarray(scores, dtype=np.float64), np.asarray(reference, dtype=np.float64)
    if S.shape != R.shape or S.ndim < 2 or S.shape[-1] != S.shape[-2]:
        raise ValueError(f"scores and reference must share a shape (..., T, T), got {S.shape} and {R.shape}")
    T = S.shape[-1]
    distance = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    return [
        relative_error(S[..., (distance >= lo) & (distance <= hi)], R[..., (distance >= lo) & (distance <= hi)])
        for lo, hi in bands
    ]


def bfloat16_distances(shifts: npt.ArrayLike, distance: int) -> dict[int, int]:
    r"""Count, over the given shifts :math:`s`, the distance that bfloat16 positions still encode.

    .. math:: \tilde r(s) = \mathrm{fl}_{\mathrm{bf16}}(s + r) - \mathrm{fl}_{\mathrm{bf16}}(s)

    >>> bfloat16_distances([0, 1000, 10_000], 5)
    {0: 1, 4: 1, 5: 1}
    """
    s = check_real_array(shifts, "shifts").reshape(-1)
    seen = round_to_format(s + float(distance), "bfloat16") - round_to_format(s, "bfloat16")
    values, counts = np.unique(seen, return_counts=True)
    return {int(v): int(c) for v, c in zip(values, counts, strict=True)}


def rope_float32_angles(x: npt.ArrayLike, m: float, base: float = 10000.0) -> np.ndarray:
    r"""RoPE of a float32 vector (interleaved) with the angles formed in float32, as frameworks do.

    .. math:: \tilde\phi_i = \mathrm{fl}_{32}\big(\mathrm{fl}_{32}(m)\,\mathrm{fl}_{32}(\theta_i)\big), \quad
        (a, b) \mapsto (a\cos\tilde\phi_i - b\sin\tilde\phi_i,\ a\sin\tilde\phi_i + b\cos\tilde\phi_i)

    >>> y = rope_float32_angles(np.array([1.0, 0.0], dtype=np.float32), 1.0)
    >>> y.dtype == np.float32, [round(float(v), 4) for v in y]
    (True, [0.5403, 0.8415])
    """
    x32 = check_x(x).astype(np.float32)
    phi = np.float32(check_real_array(m, "m")) * frequencies(x32.shape[-1], base).astype(np.float32)
    c, s = np.cos(phi), np.sin(phi)
    out = np.empty_like(x32)
    out[..., 0::2] = x32[..., 0::2] * c - x32[..., 1::2] * s
    out[..., 1::2] = x32[..., 0::2] * s + x32[..., 1::2] * c
    return out


def max_phase_error(
    m: npt.ArrayLike, d: int, base: float = 10000.0, dtype: str = "float32", floor: float = 1e-9
) -> np.ndarray:
    r"""Largest phase error over the pairs at each position, floored at ``floor`` (for a log axis).

    .. math:: E(m) = \max\big(\max_i e_i(m),\ \epsilon_{\mathrm{floor}}\big)

    with :math:`e_i(m)` from :func:`ropemath.phase_error`.

    >>> max_phase_error([257], 128, dtype="bfloat16").round(6).tolist()
    [1.0]
    """
    return np.maximum(phase_error(m, d, base, dtype).max(axis=-1), floor)


def attention_outputs(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    m: npt.ArrayLike,
    *,
    rotate_v: bool,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
) -> np.ndarray:
    r"""Causal softmax attention outputs with RoPE on q and k (and on v if ``rotate_v``), shape (T, d).

    .. math:: o_m = \sum_{n \le m} a_{mn}\, \tilde v_n, \quad
        a_{mn} = \operatorname{softmax}_n\Big(\frac{(R_m q_m)^\top (R_n k_n)}{\sqrt d}\Big), \quad
        \tilde v_n = \begin{cases} R_n v_n & \text{rotate\_v} \\ v_n & \text{otherwise}\end{cases}

    The weights depend on :math:`m - n` only (eq. 16); a rotated value carries its absolute position into the
    output.  Source: RoFormer §3.2 (RoPE is applied to q and k).

    >>> x = np.eye(2)
    >>> attention_outputs(x, x, x, [0, 1], rotate_v=False, layout="interleaved", base=1e4)[0].tolist()
    [1.0, 0.0]
    """
    q, k, v = check_x(q, "q"), check_x(k, "k"), check_x(v, "v")
    m = check_real_array(m, "m")
    if not (q.shape == k.shape == v.shape and q.ndim == 2 and m.shape == (q.shape[0],)):
        raise ValueError(f"q, k, v must be (T, d) and m (T,), got {q.shape}, {k.shape}, {v.shape}, {m.shape}")
    rope = {"layout": layout, "base": base, "theta": theta}
    s = apply_rope(q, m, **rope) @ apply_rope(k, m, **rope).T / np.sqrt(q.shape[1])
    s = np.where(np.tril(np.ones(s.shape, dtype=bool)), s, -np.inf)
    a = np.exp(s - s.max(axis=1, keepdims=True))
    a /= a.sum(axis=1, keepdims=True)
    return a @ (apply_rope(v, m, **rope) if rotate_v else v)


def cached_key_scores(
    q: npt.ArrayLike,
    keys: npt.ArrayLike,
    key_positions: npt.ArrayLike,
    query_position: float,
    *,
    theta_query: npt.ArrayLike,
    theta_keys: npt.ArrayLike,
    layout: str,
) -> np.ndarray:
    r"""Scores of a new query against keys that were rotated when they were cached.

    .. math:: s_j = \big(R^{\theta^{q}}_{m}\, q\big)^\top \big(R^{\theta^{k}}_{n_j}\, k_j\big)

    With :math:`\theta^q = \theta^k` this is :math:`q^\top R_{n_j - m} k_j` (eq. 16); dynamic scaling changes
    :math:`\theta^q` while cached keys keep their :math:`\theta^k`.  Source: RoFormer eq. (16); transformers' KV cache.

    >>> th = np.array([1.0])
    >>> cached_key_scores([1.0, 0.0], [[1.0, 0.0]], [0], 0, layout="interleaved", theta_query=th, theta_keys=th)
    array([1.])
    """
    q, keys = check_x(q, "q"), check_x(keys, "keys")
    kr = apply_rope(keys, check_real_array(key_positions, "key_positions"), layout=layout, theta=theta_keys)
    return kr @ apply_rope(q, query_position, layout=layout, theta=theta_query)


def aliased_frequency(theta: npt.ArrayLike) -> np.ndarray:
    r"""The frequency in :math:`[0, \pi]` that a pair turning by :math:`\theta` per position shows at integers.

    .. math:: \tilde\theta = \big|\big((\theta + \pi) \bmod 2\pi\big) - \pi\big|

    At integer :math:`m`, :math:`m\theta \equiv \pm m\tilde\theta \pmod{2\pi}`: a pair with :math:`\theta > \pi`
    looks like a slower one.

    >>> aliased_frequency([0.5, 2 * np.pi + 0.5, 2 * np.pi - 0.5]).round(12).tolist()
    [0.5, 0.5, 0.5]
    """
    th = check_real_array(theta, "theta")
    return np.abs(np.mod(th + np.pi, 2 * np.pi) - np.pi)


def torch_float32_theta(d: int, base: float) -> np.ndarray:
    r"""Return :math:`\theta_i` as torch computes it in float32 (as float64 values), for a recorded ``(d, base)``.

    .. math:: \theta_i = 1 / b^{2i/d}, \quad \text{with } b^{2i/d} \text{ a float32 pow}

    As transformers 5.24 (``_compute_default_rope_parameters``) and Meta's ``precompute_freqs_cis`` compute it;
    torch's pow is not correctly rounded.  Stored as ulp steps measured with torch 2.13 on CPU (another device's
    pow may differ), the same on every machine; only Llama 3's ``(128, 500000)`` is recorded.

    >>> th = torch_float32_theta(128, 500000.0)
    >>> int(np.sum(th != frequencies(128, 500000.0).astype(np.float32)))  # pairs one ulp off
    18
    """
    d = check_d(d)
    base = check_base(base)
    if (d, base) not in _TORCH_THETA_STEPS:
        raise ValueError(f"d and base: recorded only {list(_TORCH_THETA_STEPS)}, got d={d}, base={base!r}")
    theta = frequencies(d, base).astype(np.float32)
    steps = np.array(["-0+".index(c) - 1 for c in _TORCH_THETA_STEPS[d, base]], dtype=np.float32)
    return np.nextafter(theta, theta + steps).astype(np.float64)  # toward theta +- 1: one ulp, or none


def hf_cos_sin_error(m: npt.ArrayLike, d: int, base: float = 10000.0, *, angle_dtype: str = "float32",
                     theta: npt.ArrayLike | None = None) -> np.ndarray:
    r"""Largest error of a bfloat16 cos/sin table built from ``angle_dtype`` angles, per position.

    .. math:: E(m) = \max_i \max\big(|\mathrm{bf16}(\cos\tilde\phi_i) - \cos m\theta_i|,\
        |\mathrm{bf16}(\sin\tilde\phi_i) - \sin m\theta_i|\big)

    :math:`\tilde\phi_i`: the angles in ``angle_dtype``; cos and sin in float32 (float64 for float64 angles), then
    cast to bfloat16 as Hugging Face does (``cos.to(dtype=x.dtype)``): up to :math:`2^{-9} + 2^{-24}`.
    ``theta`` (float32 angles only): the :math:`\theta_i` the code multiplies by (e.g. :func:`torch_float32_theta`);
    default :math:`b^{-2i/d}` correctly rounded to float32.  The reference is always the exact :math:`m\theta_i`.

    >>> bool(hf_cos_sin_error([0, 1, 2], 128, angle_dtype="float64").max() <= 2.0**-9 + 2.0**-24)
    True
    """
    m = check_real_array(m, "m")
    exact = angles(m, d, base)
    if theta is not None:
        th = round_to_format(check_real_array(theta, "theta"), "float32")
        if angle_dtype != "float32" or th.shape != exact.shape[-1:]:
            raise ValueError(f"theta: d/2 entries, angle_dtype 'float32'; got {th.shape}, {angle_dtype!r}")
        phi, mid = round_to_format(round_to_format(m, "float32")[..., None] * th, "float32"), "float32"
    elif angle_dtype == "float64":
        phi, mid = exact, "float64"
    else:
        phi, mid = angles_in_format(m, d, base, angle_dtype), "float32"
    errs = [np.abs(to_bfloat16(round_to_format(f(phi), mid)) - f(exact)) for f in (np.cos, np.sin)]
    return np.maximum(*errs).max(axis=-1)
