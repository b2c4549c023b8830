r"""Questions people ask about RoPE, each answered by a computation (notebook 10).

Scope:

* :func:`attention_outputs` — causal softmax attention with RoPE on q and k, and optionally
  (wrongly) on v too: why only q and k are rotated;
* :func:`cached_key_scores` — a new query against keys cached at their own positions (KV cache
  with an offset), with separate frequencies for queries and cached keys (dynamic scaling);
* :func:`aliased_frequency` — the frequency a pair shows at integer positions (what the sign of
  the exponent in :math:`\theta_i = b^{-2i/d}` decides);
* :func:`hf_cos_sin_error` — the error of a cos/sin table built as Hugging Face builds it under
  bfloat16 (angles in float32 or float64, cos and sin cast to bfloat16), per position;
* :func:`to_tf32`, :func:`rope_pipeline` — a bfloat16 model's RoPE as transformers runs it (float32
  angles, cos/sin cast to bfloat16, each product and the sum rounded to bfloat16), as Meta's reference
  code runs it (rotation in float32, result cast back), in float64, and with the angle matmul in TF32;
* :func:`left_padded_positions`, :func:`dynamic_ntk_decode_scores` — positions of a left-padded batch
  (``position_ids`` vs the cache slot), and dynamic NTK during decoding as transformers caches it.

References: RoFormer (Su et al., arXiv:2104.09864 v5) §3.2-3.4, eq. (16), (34); Hugging Face
transformers ``LlamaRotaryEmbedding.forward`` (float32 angles, ``cos.to(x.dtype)``) and
``DynamicCache``; transformers PR #29285; transformers issue #48428 and PR #48450 (TF32 angle
matmul); Meta ``llama`` ``apply_rotary_emb`` (``xq.float()``, ``type_as``); transformers
``modeling_rope_utils.dynamic_rope_update`` and ``GenerationMixin`` (``position_ids`` from the attention
mask); emozilla, dynamic NTK (2023).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_positions, check_x
from ropemath.core.apply import apply_rope
from ropemath.core.precision import angles_in_format, round_to_format, to_bfloat16
from ropemath.core.rotation import angles

__all__ = [
    "attention_outputs",
    "cached_key_scores",
    "aliased_frequency",
    "hf_cos_sin_error",
    "to_tf32",
    "rope_pipeline",
    "left_padded_positions",
    "dynamic_ntk_decode_scores",
]


def attention_outputs(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    m: npt.ArrayLike,
    *,
    rotate_v: bool,
    layout: str,
) -> np.ndarray:
    r"""Causal softmax attention outputs with RoPE on q and k (and on v if ``rotate_v``), shape (T, d).

    .. math:: o_m = \sum_{n \le m} a_{mn}\, \tilde v_n, \quad
        a_{mn} = \operatorname{softmax}_n\Big(\frac{(R_m q_m)^\top (R_n k_n)}{\sqrt d}\Big), \quad
        \tilde v_n = \begin{cases} R_n v_n & \text{rotate\_v} \\ v_n & \text{otherwise}\end{cases}

    The weights depend on :math:`m - n` only (eq. 16); a rotated value carries its absolute
    position :math:`n` into the output.  ``layout`` (``"interleaved"`` or ``"half"``) is required: a
    wrong guess would be silent.  Source: RoFormer §3.2 (RoPE is applied to q and k).

    >>> x = np.eye(2)
    >>> attention_outputs(x, x, x, [0, 1], rotate_v=False, layout="interleaved")[0].tolist()
    [1.0, 0.0]
    """
    q, k, v = check_x(q, "q"), check_x(k, "k"), check_x(v, "v")
    m = check_positions(m)
    if not (q.shape == k.shape == v.shape and q.ndim == 2 and m.shape == (q.shape[0],)):
        raise ValueError(f"q, k, v must be (T, d) and m (T,), got {q.shape}, {k.shape}, {v.shape}, {m.shape}")
    s = apply_rope(q, m, layout=layout) @ apply_rope(k, m, layout=layout).T / np.sqrt(q.shape[1])
    s = np.where(np.tril(np.ones(s.shape, dtype=bool)), s, -np.inf)
    a = np.exp(s - s.max(axis=1, keepdims=True))
    a /= a.sum(axis=1, keepdims=True)
    return a @ (apply_rope(v, m, layout=layout) if rotate_v else v)


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

    With :math:`\theta^q = \theta^k` this is :math:`q^\top R_{n_j - m} k_j` (eq. 16), so the
    query must be rotated at its true position :math:`m` (the cache length, not 0).  Dynamic
    scaling changes :math:`\theta^q` as the sequence grows while the cached keys keep the
    :math:`\theta^k` they were rotated with.  ``layout`` (``"interleaved"`` or ``"half"``) is
    required, as in :func:`ropemath.apply_rope`.  Source: RoFormer eq. (16); transformers' KV cache.

    >>> th = np.array([1.0])
    >>> cached_key_scores([1.0, 0.0], [[1.0, 0.0]], [0], 0, layout="interleaved", theta_query=th, theta_keys=th)
    array([1.])
    """
    q, keys = check_x(q, "q"), check_x(keys, "keys")
    kr = apply_rope(keys, check_positions(key_positions, "key_positions"), layout=layout, theta=theta_keys)
    return kr @ apply_rope(q, query_position, layout=layout, theta=theta_query)


def aliased_frequency(theta: npt.ArrayLike) -> np.ndarray:
    r"""The frequency in :math:`[0, \pi]` that a pair turning by :math:`\theta` per position shows at integers.

    .. math:: \tilde\theta = \big|\big((\theta + \pi) \bmod 2\pi\big) - \pi\big|

    Since :math:`\cos(m\theta) = \cos(m\tilde\theta)` and the angle of :math:`m\theta` equals
    :math:`\pm m\tilde\theta` modulo :math:`2\pi` for integer :math:`m`, a pair with
    :math:`\theta > \pi` is indistinguishable from a slower one.

    >>> aliased_frequency([0.5, 2 * np.pi + 0.5, 2 * np.pi - 0.5]).round(12).tolist()
    [0.5, 0.5, 0.5]
    """
    th = check_positions(theta, "theta")
    return np.abs(np.mod(th + np.pi, 2 * np.pi) - np.pi)


def hf_cos_sin_error(m: npt.ArrayLike, d: int, base: float = 10000.0, *, angle_dtype: str = "float32") -> np.ndarray:
    r"""Largest error of a bfloat16 cos/sin table built from ``angle_dtype`` angles, per position.

    .. math:: E(m) = \max_i \max\big(|\mathrm{bf16}(\cos\tilde\phi_i) - \cos m\theta_i|,\
        |\mathrm{bf16}(\sin\tilde\phi_i) - \sin m\theta_i|\big)

    :math:`\tilde\phi_i` are the angles formed in ``angle_dtype`` (:func:`ropemath.angles_in_format`);
    cos and sin are rounded to float32 (Hugging Face evaluates them in float32; for
    ``"float64"`` angles they are evaluated in float64) and then to bfloat16
    (``cos.to(dtype=x.dtype)``).  The bfloat16 cast alone costs up to :math:`2^{-9}` (half a
    bfloat16 spacing just below 1), plus :math:`2^{-24}` for the float32 step.

    >>> bool(hf_cos_sin_error([0, 1, 2], 128, angle_dtype="float64").max() <= 2.0**-9 + 2.0**-24)
    True
    """
    m = check_positions(m)
    exact = angles(m, d, base)
    if angle_dtype == "float64":
        phi, mid = exact, "float64"
    else:
        phi, mid = angles_in_format(m, d, base, angle_dtype), "float32"
    errs = [np.abs(to_bfloat16(round_to_format(f(phi), mid)) - f(exact)) for f in (np.cos, np.sin)]
    return np.maximum(*errs).max(axis=-1)


def to_tf32(x: npt.ArrayLike) -> np.ndarray:
    r"""Round to the nearest TF32 value (8 exponent bits, 10 fraction bits; ties to even), as float32.

    .. math:: \mathrm{bits}(y) = \big(\mathrm{bits}(x) + \mathtt{0xFFF} + b_{13}\big)\,\&\,\mathtt{0xFFFFE000}

    TF32 is what a float32 matmul's inputs are rounded to when PyTorch may use TF32 tensor cores
    (``torch.set_float32_matmul_precision("high")``): 11 significant bits, so every integer up to
    :math:`2^{11} = 2048` is exact and 2049 is a tie that goes to 2048.  Source: NVIDIA's TF32
    format; transformers issue #48428.

    >>> to_tf32([2047.0, 2048.0, 2049.0, 2051.0, 4097.0]).tolist()
    [2047.0, 2048.0, 2048.0, 2052.0, 4096.0]
    """
    x = np.asarray(check_positions(x, "x"), dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0xFFF + ((bits >> 13) & 1)) & 0xFFFFE000
    return rounded.astype(np.uint32).view(np.float32)


def rope_pipeline(x: npt.ArrayLike, m: npt.ArrayLike, theta: npt.ArrayLike, pipeline: str) -> np.ndarray:
    r"""RoPE (half layout) of a bfloat16 ``x`` as a framework computes it; the result as float64.

    .. math:: y = x \otimes \cos\phi + \mathrm{rotate\_half}(x) \otimes \sin\phi, \qquad \phi = m\theta

    ``pipeline``: ``"float64"`` — everything in float64 (the reference); ``"transformers"`` —
    angles as a float32 product, cos and sin in float32 then cast to bfloat16 (``cos.to(x.dtype)``),
    each product and the sum rounded to bfloat16 (the arithmetic of ``q * cos + rotate_half(q) * sin``
    on bfloat16 tensors); ``"meta"`` — ``x`` cast to float32 (``xq.float()``), rotation in float32
    with float32 angles, the result cast to bfloat16 (``type_as``); ``"transformers_tf32"`` — as
    ``"transformers"`` with the angle matmul's inputs rounded to TF32 (:func:`to_tf32`).  ``x`` is first
    rounded to bfloat16 for every pipeline, so only the rotation's arithmetic differs.  cos and sin are
    evaluated in float64 and rounded, so the result does not depend on the platform's float32 libm.

    >>> x = np.ones((1, 4))
    >>> [float(rope_pipeline(x, [0], [1.0, 0.01], p)[0, 0]) for p in ("float64", "transformers", "meta")]
    [1.0, 1.0, 1.0]
    """
    x = round_to_format(check_x(x), "bfloat16")
    m = check_positions(m)
    theta = np.asarray(theta, dtype=np.float64)
    half = theta.size
    if x.shape[-1] != 2 * half:
        raise ValueError(f"x must have 2 * len(theta) = {2 * half} coordinates, got {x.shape[-1]}")
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    if pipeline == "float64":
        phi = m[..., None] * theta
        c, s = np.cos(phi), np.sin(phi)
        return x * np.concatenate([c, c], -1) + rotated * np.concatenate([s, s], -1)
    if pipeline not in ("transformers", "meta", "transformers_tf32"):
        raise ValueError(f"pipeline must be 'float64', 'transformers', 'transformers_tf32' or 'meta', got {pipeline!r}")
    pos, freq = np.float32(m)[..., None], np.float32(theta)
    if pipeline == "transformers_tf32":
        pos, freq = to_tf32(pos), to_tf32(freq)
    phi = (pos * freq).astype(np.float64)  # one float32 product per angle (exact product, rounded once)
    c, s = (np.concatenate([f(phi), f(phi)], -1).astype(np.float32) for f in (np.cos, np.sin))
    if pipeline == "meta":
        y = x.astype(np.float32) * c + rotated.astype(np.float32) * s
        return round_to_format(y, "bfloat16")
    bf = lambda v: round_to_format(v, "bfloat16")  # noqa: E731 - one rounding, named for the formula below
    return bf(bf(x * bf(c)) + bf(rotated * bf(s)))


def left_padded_positions(attention_mask: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r"""``position_ids`` of a left-padded batch as transformers' ``generate`` derives them, and the cache slots.

    .. math:: \mathrm{position\_ids} = \mathrm{cumsum}(\mathrm{mask}) - 1 \ (\text{1 where mask} = 0),
        \qquad \mathrm{slot} = 0, 1, \dots, T - 1

    The first real token of every row gets position 0, whatever its slot; ``cache_position`` counts slots
    (padding included), the same for every row.  Source: transformers ``GenerationMixin``
    (``prepare_inputs_for_generation``).

    >>> p, slot = left_padded_positions([[0, 0, 1, 1], [1, 1, 1, 1]])
    >>> p.tolist(), slot.tolist()
    ([[1, 1, 0, 1], [0, 1, 2, 3]], [0, 1, 2, 3])
    """
    mask = np.asarray(attention_mask)
    if mask.ndim != 2 or not np.isin(mask, (0, 1)).all():
        raise ValueError(f"attention_mask must be a 2-D array of 0 and 1, got shape {mask.shape}")
    position_ids = np.cumsum(mask, axis=-1) - 1
    position_ids[mask == 0] = 1
    return position_ids, np.arange(mask.shape[-1])


def dynamic_ntk_decode_scores(q: npt.ArrayLike, keys: npt.ArrayLike, *, d_base: float, factor: float,
                              original_length: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Scores of the last query against cached keys under dynamic NTK, cached vs recomputed.

    .. math:: \text{cached: } \langle R_{\theta(\ell_n), n}\, q,\ R_{\theta(\ell_p), p}\, k_p\rangle, \qquad
        \text{fresh: } \langle R_{\theta(\ell_n), n}\, q,\ R_{\theta(\ell_n), p}\, k_p\rangle,
        \qquad \ell_p = \max(p + 1, L)

    Token ``p`` is decoded at step ``p`` and its key is cached rotated with the frequencies of that step,
    :math:`\theta(\ell_p)` (transformers recomputes ``inv_freq`` whenever ``max(position_ids) + 1``
    exceeds the length it has cached; with the base of ``frequencies_from_config``'s ``dynamic`` type).
    Returns (cached, fresh) for the last position ``n = len(keys) - 1``, half layout.
    Source: transformers ``dynamic_rope_update``; emozilla, dynamic NTK (2023).

    >>> rng = np.random.default_rng(0)
    >>> c, f = dynamic_ntk_decode_scores(rng.standard_normal(8), rng.standard_normal((4, 8)), d_base=1e4,
    ...                                  factor=2.0, original_length=8)
    >>> bool(np.allclose(c, f))  # all positions below L: one set of frequencies
    True
    """
    from ropemath.models.config import frequencies_from_config

    q, keys = check_x(q, "q"), check_x(keys, "keys")
    n, d = keys.shape[0] - 1, keys.shape[-1]
    config = {"rope_theta": d_base, "head_dim": d, "max_position_embeddings": original_length,
              "rope_type": "dynamic", "factor": factor}
    now = frequencies_from_config(config, seq_len=n + 1).theta
    rq = apply_rope(q, n, layout="half", theta=now)
    cached = np.array([rq @ apply_rope(k, p, layout="half", theta=frequencies_from_config(config, seq_len=p + 1).theta)
                       for p, k in enumerate(keys)])
    fresh = apply_rope(keys, np.arange(n + 1), layout="half", theta=now) @ rq
    return cached, fresh
