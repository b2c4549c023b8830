r"""RoPE as the public implementations write it, in numpy: Meta's complex form, GPT-J's ``rotate_every_two``,
GPT-NeoX / Hugging Face ``rotate_half``, partial rotary, the per-head W_q/W_k permutation between the layouts,
and a small multi-head attention.  Angles in float64, as in :func:`ropemath.apply_rope`.

References: Meta ``llama/model.py``; kingoflolz/mesh-transformer-jax; EleutherAI gpt-neox; transformers
``apply_rotary_pos_emb`` and ``convert_llama_weights_to_hf.py``; RoFormer, arXiv:2104.09864 v5, eq. (34).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import (
    _describe,
    all_finite,
    as_array,
    check_base,
    check_d,
    check_finite,
    check_int,
    check_layout,
    check_real_array,
    check_x,
    finite_result,
)
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import angles, half_permutation

__all__ = [
    "meta_freqs_cis",
    "meta_llama_rope",
    "rotate_every_two",
    "gptj_rope",
    "rotate_half",
    "neox_rope",
    "partial_rotary",
    "permute_for_half",
    "permute_for_interleaved",
    "multihead_rope_attention",
]


def _angles_for(x: np.ndarray, m: object, base: float) -> np.ndarray:
    """Validated float64 angles of shape ``x.shape[:-1] + (d/2,)`` (broadcast over the batch)."""
    m = check_real_array(m, "m", broadcast_to=x.shape[:-1])
    base = check_base(base)
    return np.broadcast_to(angles(m, x.shape[-1], base), x.shape[:-1] + (x.shape[-1] // 2,))


def meta_freqs_cis(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return :math:`e^{\mathrm{i} m\theta_i}` as complex128, shape ``m.shape + (d//2,)``.

    .. math::
        \mathrm{freqs\_cis}[m, i] = \mathrm{polar}(1, m\theta_i) = \cos m\theta_i + \mathrm{i}\sin m\theta_i

    Source: Meta Llama ``precompute_freqs_cis`` (``polar(ones, outer(arange(end), freqs))``), positions explicit.

    >>> meta_freqs_cis(1, 4, base=100.0).round(4).tolist()
    [(0.5403+0.8415j), (0.995+0.0998j)]
    """
    d = check_d(d)
    phi = angles(m, d, base)
    return finite_result(np.cos(phi) + 1j * np.sin(phi), "meta_freqs_cis", m=m, d=d, base=base)


def meta_llama_rope(x: npt.ArrayLike, m: npt.ArrayLike, *, base: float = 10000.0) -> np.ndarray:
    r"""Rotate ``x`` (shape (..., d)) the Meta Llama way: each pair, as a complex number, times a phase.

    .. math::
        (x_{2i} + \mathrm{i}\,x_{2i+1})\, e^{\mathrm{i} m\theta_i}
        = (x_{2i}\cos m\theta_i - x_{2i+1}\sin m\theta_i)
        + \mathrm{i}\,(x_{2i}\sin m\theta_i + x_{2i+1}\cos m\theta_i)

    Source: Meta Llama ``apply_rotary_emb`` (``view_as_complex``, times ``freqs_cis``, view back as real pairs);
    here ``ndarray.view`` on a complex128 copy, result in ``x``'s dtype.  Interleaved layout.

    >>> meta_llama_rope(np.array([1.0, 0.0, 1.0, 0.0]), 1, base=1e4).round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    """
    x = check_x(x)
    phi = _angles_for(x, m, base)
    pairs = np.ascontiguousarray(x, dtype=np.float64).reshape(x.shape[:-1] + (x.shape[-1] // 2, 2))
    z = pairs.view(np.complex128)[..., 0]  # (..., d/2) complex: x[2i] + i x[2i+1]
    rotated = z * (np.cos(phi) + 1j * np.sin(phi))
    return finite_result(
        rotated[..., None].view(np.float64).reshape(x.shape).astype(x.dtype),
        "meta_llama_rope", x=x, m=m, base=base,
    )


def rotate_every_two(x: npt.ArrayLike) -> np.ndarray:
    r"""Return :math:`(-x_1, x_0, -x_3, x_2, \dots)`: each interleaved pair turned by +90°.

    .. math::
        \mathrm{rotate\_every\_two}(x)_{2i} = -x_{2i+1}, \quad
        \mathrm{rotate\_every\_two}(x)_{2i+1} = x_{2i}

    Source: mesh-transformer-jax / GPT-J ``rotate_every_two``; the second vector of RoFormer eq. (34).

    >>> rotate_every_two(np.array([1.0, 2.0, 3.0, 4.0])).tolist()
    [-2.0, 1.0, -4.0, 3.0]
    """
    x = check_x(x)
    return np.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)


def gptj_rope(x: npt.ArrayLike, m: npt.ArrayLike, *, base: float = 10000.0) -> np.ndarray:
    r"""Rotate ``x`` the GPT-J way: ``x * cos + rotate_every_two(x) * sin`` (sin/cos repeated per pair).

    .. math:: x \otimes (\cos m\theta_0, \cos m\theta_0, \cos m\theta_1, \dots)
        + (-x_1, x_0, -x_3, x_2, \dots) \otimes (\sin m\theta_0, \sin m\theta_0, \sin m\theta_1, \dots)

    Source: mesh-transformer-jax ``apply_rotary_pos_emb`` with ``fixed_pos_embedding``; RoFormer eq. (34).

    >>> gptj_rope(np.array([1.0, 0.0, 1.0, 0.0]), 1, base=1e4).round(4)
    array([0.5403, 0.8415, 1.    , 0.01  ])
    """
    x = check_x(x)
    phi = _angles_for(x, m, base)
    cos = np.repeat(np.cos(phi), 2, axis=-1)
    sin = np.repeat(np.sin(phi), 2, axis=-1)
    return finite_result(
        (x * cos + rotate_every_two(x) * sin).astype(x.dtype, copy=False),
        "gptj_rope", x=x, m=m, base=base,
    )


def rotate_half(x: npt.ArrayLike) -> np.ndarray:
    r"""Return ``cat(-x2, x1)`` where ``x1, x2`` are the first and second halves of the last axis.

    .. math:: \mathrm{rotate\_half}(x) = (-x_{d/2}, \dots, -x_{d-1}, x_0, \dots, x_{d/2-1})

    Source: GPT-NeoX / Hugging Face ``rotate_half``: each half-layout pair ``(x[i], x[i+d/2])`` turned by +90°.

    >>> rotate_half(np.array([1.0, 2.0, 3.0, 4.0])).tolist()
    [-3.0, -4.0, 1.0, 2.0]
    """
    x = check_x(x)
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def neox_rope(x: npt.ArrayLike, m: npt.ArrayLike, *, base: float = 10000.0) -> np.ndarray:
    r"""Rotate ``x`` the GPT-NeoX / Hugging Face way: ``x * cos + rotate_half(x) * sin``.

    .. math:: \cos = \cos(\mathrm{cat}(m\theta, m\theta)), \quad \sin = \sin(\mathrm{cat}(m\theta, m\theta)),
        \quad x' = x \otimes \cos + \mathrm{rotate\_half}(x) \otimes \sin

    Source: Hugging Face ``LlamaRotaryEmbedding`` and ``apply_rotary_pos_emb``; GPT-NeoX ``RotaryEmbedding``.

    >>> neox_rope(np.array([1.0, 1.0, 0.0, 0.0]), 1, base=1e4).round(4)
    array([0.5403, 1.    , 0.8415, 0.01  ])
    """
    x = check_x(x)
    phi = _angles_for(x, m, base)
    emb = np.concatenate([phi, phi], axis=-1)
    return finite_result(
        (x * np.cos(emb) + rotate_half(x) * np.sin(emb)).astype(x.dtype, copy=False),
        "neox_rope", x=x, m=m, base=base,
    )


def partial_rotary(
    x: npt.ArrayLike,
    m: npt.ArrayLike,
    rotary_dim: int,
    *,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
) -> np.ndarray:
    r"""Rotate only the first ``rotary_dim`` coordinates of ``x`` (shape (..., d)); pass the rest through.

    .. math:: x' = \big(R^{r}_{\Theta,m}\, x_{[0:r]},\; x_{[r:d]}\big), \quad
        \theta_i = \mathrm{base}^{-2i/r},\ i = 0, \dots, r/2 - 1

    ``layout`` applies inside the rotated slice.  Source: GPT-J (``rotary_dim``, interleaved) and GPT-NeoX
    (``rotary_ndims = int(head_size * rotary_pct)``, half layout).

    >>> partial_rotary(np.array([1.0, 0.0, 5.0, 6.0]), 1, 2, layout="interleaved", base=10000.0).round(4).tolist()
    [0.5403, 0.8415, 5.0, 6.0]
    """
    x = check_x(x)
    r = check_int(rotary_dim, "rotary_dim", minimum=2)
    if r % 2 or r > x.shape[-1]:
        raise ValueError(f"rotary_dim must be an even integer <= d={x.shape[-1]}, got {r}")
    layout = check_layout(layout)
    out = x.copy()
    out[..., :r] = apply_rope(x[..., :r], m, layout=layout, base=base, theta=theta)
    return finite_result(out, "partial_rotary", x=x, m=m, rotary_dim=rotary_dim, base=base, theta=theta)


def _check_weight(w: object, n_heads: object, name: str) -> tuple[np.ndarray, int, int]:
    """Validate a (n_heads*d_head, d_model) weight or (n_heads*d_head,) bias; return it, n_heads, d_head."""
    arr = as_array(w, name)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must be a real numeric array, got {_describe(arr)}")
    if arr.ndim not in (1, 2):
        raise ValueError(
            f"{name} must have shape (n_heads*d_head, d_model) or (n_heads*d_head,), got shape {arr.shape}"
        )
    check_finite(arr, name)
    h = check_int(n_heads, "n_heads", minimum=1)
    rows = arr.shape[0]
    if rows % h or (rows // h) % 2 or rows == 0:
        raise ValueError(
            f"{name} must have n_heads*d_head rows with d_head even (n_heads={h}), got {rows} rows"
        )
    return arr, h, rows // h


def permute_for_half(w: npt.ArrayLike, n_heads: int) -> np.ndarray:
    r"""Permute the rows of a query/key weight, head by head, from the interleaved to the half layout.

    .. math:: W^{\mathrm{half}}_{h} = W^{\mathrm{inter}}_{h}[P, :], \quad
        P = [0, 2, \dots, d_h - 2, 1, 3, \dots, d_h - 1]

    for each head ``h``; apply it to :math:`W_q`, :math:`W_k` (and biases), not :math:`W_v`.
    Source: Hugging Face ``convert_llama_weights_to_hf.py`` (``permute``).

    >>> permute_for_half(np.arange(8.0), 2).tolist()
    [0.0, 2.0, 1.0, 3.0, 4.0, 6.0, 5.0, 7.0]
    """
    arr, h, d_head = _check_weight(w, n_heads, "w")
    p = half_permutation(d_head)
    return arr.reshape((h, d_head) + arr.shape[1:])[:, p].reshape(arr.shape)


def permute_for_interleaved(w: npt.ArrayLike, n_heads: int) -> np.ndarray:
    r"""Undo :func:`permute_for_half`: rows of each head back from the half to the interleaved layout.

    .. math:: W^{\mathrm{inter}}_{h}[P, :] = W^{\mathrm{half}}_{h}

    Source: the inverse of Hugging Face's ``permute``.

    >>> permute_for_interleaved(np.array([0.0, 2.0, 1.0, 3.0, 4.0, 6.0, 5.0, 7.0]), 2).tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    """
    arr, h, d_head = _check_weight(w, n_heads, "w")
    inverse = np.argsort(half_permutation(d_head))
    return arr.reshape((h, d_head) + arr.shape[1:])[:, inverse].reshape(arr.shape)


def multihead_rope_attention(
    x: npt.ArrayLike,
    w_q: npt.ArrayLike,
    w_k: npt.ArrayLike,
    w_v: npt.ArrayLike,
    n_heads: int,
    *,
    m: npt.ArrayLike | None = None,
    layout: str,
    base: float | None = None,
    theta: npt.ArrayLike | None = None,
    causal: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Multi-head softmax attention with RoPE on queries and keys; return ``(scores, output)``.

    .. math:: s^{h}_{mn} = \frac{(R_{\Theta,m} W^h_q x_m)^\top (R_{\Theta,n} W^h_k x_n)}{\sqrt{d_h}}, \quad
        o^h_m = \sum_n \mathrm{softmax}_n(s^h_{m\cdot})\, W^h_v x_n

    ``x``: (T, d_model); ``w_q, w_k, w_v``: (n_heads*d_head, d_model), head ``h`` in rows
    ``h*d_head ..``; ``m``: the T positions (default ``0..T-1``).  Returns the unmasked scores (n_heads, T, T)
    and the output (T, n_heads*d_head), masked to ``n <= m`` if ``causal``.  Source: RoFormer eq. (16).

    >>> x = np.eye(4)
    >>> s, o = multihead_rope_attention(x, np.eye(4), np.eye(4), np.eye(4), 2, layout="interleaved", base=10000.0)
    >>> s.shape, o.shape
    ((2, 4, 4), (4, 4))
    """
    x = as_array(x, "x")
    if x.dtype.kind != "f":
        raise TypeError(f"x must be a real floating-point array of shape (T, d_model), got {_describe(x)}")
    if x.ndim != 2 or x.shape[0] == 0:
        raise ValueError(f"x must have shape (T, d_model) with T >= 1, got shape {x.shape}")
    check_finite(x, "x")
    wq, h, d_head = _check_weight(w_q, n_heads, "w_q")
    wk, _, _ = _check_weight(w_k, n_heads, "w_k")
    wv, _, _ = _check_weight(w_v, n_heads, "w_v")
    for name, w in (("w_q", wq), ("w_k", wk), ("w_v", wv)):
        if w.shape != (h * d_head, x.shape[1]):
            raise ValueError(
                f"{name} must have shape {(h * d_head, x.shape[1])} (d_model = x.shape[1]), got shape {w.shape}"
            )
    T = x.shape[0]
    pos = np.arange(T, dtype=np.float64) if m is None else check_real_array(m, "m")
    if pos.shape != (T,):
        raise ValueError(f"m must have shape ({T},) (one position per row of x), got shape {pos.shape}")
    layout = check_layout(layout)
    if not isinstance(causal, (bool, np.bool_)):
        raise TypeError(f"causal must be a bool, got {_describe(causal)}")

    def heads(w: np.ndarray) -> np.ndarray:  # (n_heads, T, d_head)
        return (x @ w.T).reshape(T, h, d_head).transpose(1, 0, 2)

    projected = {}
    for name, w in (("w_q", wq), ("w_k", wk), ("w_v", wv)):
        with np.errstate(over="ignore", invalid="ignore"):
            projected[name] = heads(w)
        if not all_finite(projected[name]):
            raise ValueError(
                f"x and {name}: the projection x @ {name}.T overflows float64 (largest |x| "
                f"{float(np.max(np.abs(x))):.3g}, largest |{name}| {float(np.max(np.abs(w))):.3g})"
            )
    q = apply_rope(projected["w_q"], pos, layout=layout, base=base, theta=theta)
    k = apply_rope(projected["w_k"], pos, layout=layout, base=base, theta=theta)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_head)
    masked = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf) if causal else scores
    weights = np.exp(masked - masked.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    out = (weights @ projected["w_v"]).transpose(1, 0, 2).reshape(T, h * d_head)
    return finite_result(
        (scores, out),
        "multihead_rope_attention", x=x, w_q=w_q, w_k=w_k, w_v=w_v, n_heads=n_heads, m=m, base=base, theta=theta,
    )
