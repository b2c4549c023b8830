r"""RoPE as deployed: bfloat16 and TF32 pipelines, left-padded positions, dynamic NTK while decoding.

References: transformers ``LlamaRotaryEmbedding.forward`` and ``dynamic_rope_update``; the TF32 angle matmul:
https://github.com/huggingface/transformers/issues/48428 and /pull/48450; Meta ``llama`` ``apply_rotary_emb``;
emozilla, dynamic NTK (2023).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_real_array, check_x
from ropemath.core.apply import apply_rope
from ropemath.core.precision import round_to_format
from ropemath.models.config import frequencies_from_config

__all__ = []


def to_tf32(x: npt.ArrayLike) -> np.ndarray:
    r"""Round to the nearest TF32 value (8 exponent bits, 10 fraction bits; ties to even), as float32.

    .. math:: \mathrm{bits}(y) = \big(\mathrm{bits}(x) + \mathtt{0xFFF} + b_{13}\big)\,\&\,\mathtt{0xFFFFE000}

    TF32 is what a float32 matmul's inputs are rounded to when PyTorch may use TF32 tensor cores
    (``torch.set_float32_matmul_precision("high")``): 11 significant bits, so every integer up to
    :math:`2^{11} = 2048` is exact and 2049 is a tie that goes to 2048.  Source: NVIDIA's TF32
    format; https://github.com/huggingface/transformers/issues/48428.

    >>> to_tf32([2047.0, 2048.0, 2049.0, 2051.0, 4097.0]).tolist()
    [2047.0, 2048.0, 2048.0, 2052.0, 4096.0]
    """
    x = np.asarray(check_real_array(x, "x"), dtype=np.float32)
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
    ``"transformers"`` with the angle matmul's inputs rounded to TF32 (:func:`to_tf32`); ``"vllm_cuda"`` —
    vLLM's CUDA kernel (``csrc/pos_encoding_kernels.cu``): the cos/sin table cast to bfloat16 as in
    ``"transformers"``, then ``x_f * cos_f - y_f * sin_f`` in float32 and one rounding, as in ``"meta"``
    (read from the source, not run; a fused multiply-add would round one product less).  ``x`` is first
    rounded to bfloat16 for every pipeline, so only the rotation's arithmetic differs.  cos and sin are
    evaluated in float64 and rounded, so the result does not depend on the platform's float32 libm.

    >>> x = np.ones((1, 4))
    >>> [float(rope_pipeline(x, [0], [1.0, 0.01], p)[0, 0]) for p in ("float64", "transformers", "meta", "vllm_cuda")]
    [1.0, 1.0, 1.0, 1.0]
    """
    x = round_to_format(check_x(x), "bfloat16")
    m = check_real_array(m, "m")
    theta = np.asarray(theta, dtype=np.float64)
    half = theta.size
    if x.shape[-1] != 2 * half:
        raise ValueError(f"x must have 2 * len(theta) = {2 * half} coordinates, got {x.shape[-1]}")
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    if pipeline == "float64":
        phi = m[..., None] * theta
        c, s = np.cos(phi), np.sin(phi)
        return x * np.concatenate([c, c], -1) + rotated * np.concatenate([s, s], -1)
    if pipeline not in ("transformers", "meta", "transformers_tf32", "vllm_cuda"):
        raise ValueError("pipeline must be 'float64', 'transformers', 'transformers_tf32', 'meta' or 'vllm_cuda', "
                         f"got {pipeline!r}")
    pos, freq = np.float32(m)[..., None], np.float32(theta)
    if pipeline == "transformers_tf32":
        pos, freq = to_tf32(pos), to_tf32(freq)
    phi = (pos * freq).astype(np.float64)  # one float32 product per angle (exact product, rounded once)
    c, s = (np.concatenate([f(phi), f(phi)], -1).astype(np.float32) for f in (np.cos, np.sin))
    bf = lambda v: round_to_format(v, "bfloat16")  # noqa: E731 - one rounding, named for the formulas below
    if pipeline == "vllm_cuda":  # the kernel reads a bfloat16 table, then computes in float32
        c, s = bf(c).astype(np.float32), bf(s).astype(np.float32)
    if pipeline in ("meta", "vllm_cuda"):
        y = x.astype(np.float32) * c + rotated.astype(np.float32) * s
        return bf(y)
    return bf(bf(x * bf(c)) + bf(rotated * bf(s)))


def left_padded_positions(attention_mask: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    r"""``position_ids`` of a left-padded batch as transformers' ``generate`` derives them, and the cache slots.

    .. math:: \mathrm{position\_ids} = \mathrm{cumsum}(\mathrm{mask}) - 1 \ (\text{1 where mask} = 0),
        \qquad \mathrm{slot} = 0, 1, \dots, T - 1

    The first real token of every row gets position 0, whatever its slot; ``cache_position`` counts slots
    (padding included).  Pads at 1 as in transformers 4.36-5.1 (0 from 5.2 on; both observed by running).
    Source: transformers ``GenerationMixin`` (``prepare_inputs_for_generation`` in 4.x,
    ``_prepare_position_ids_for_generation`` in 5.x), ``masked_fill(mask == 0, 1)``.

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


def dynamic_ntk_kept_theta(lengths: npt.ArrayLike, *, d: int, base: float, factor: float, original_length: int
                           ) -> np.ndarray:
    r"""θ_i that transformers' dynamic NTK holds after inputs of the given lengths, in order.

    Source: transformers 5.24 ``dynamic_frequency_update`` (``modeling_rope_utils.py``). It keeps c, the length last
    scaled for (first L): ℓ > c sets c = ℓ, θ = θ(ℓ) (``dynamic`` type); ℓ < L resets c = L, θ plain; else θ is kept.

    >>> kept = [dynamic_ntk_kept_theta(x, d=4, base=1e4, factor=2, original_length=16) for x in ([64, 32], [64, 8, 32])]
    >>> [round(1 / th[1]) for th in kept]  # theta(64) kept; reset, then theta(32)
    [700, 300]
    """
    cached = original_length
    for n in lengths:
        if n > cached:  # growth: scale for this longer input
            cached = n
        elif n < original_length:  # reset: plain theta below the original length
            cached = original_length
    config = {"rope_theta": base, "head_dim": d, "max_position_embeddings": original_length,
              "rope_type": "dynamic", "factor": factor}
    return frequencies_from_config(config, seq_len=cached).theta
