r"""The forward pass of a Llama-architecture language model in numpy, with RoPE from :func:`ropemath.apply_rope`.

Pre-norm residual blocks, :math:`h = x + \operatorname{Attn}(\operatorname{RMSNorm}(x))`,
:math:`x' = h + W_{\mathrm{down}}(\operatorname{silu}(W_{\mathrm{gate}} u) \odot W_{\mathrm{up}} u)`,
:math:`u = \operatorname{RMSNorm}(h)`; grouped-query attention (query head :math:`h` uses key/value head
:math:`\lfloor h/g \rfloor`); output tied to the embedding.  The causal mask follows the token order; positions
enter only through :math:`R_{\Theta,m}`.  Loading: :func:`ropemath.models.load_llama` (GGUF).

References: Touvron et al., *LLaMA*, arXiv:2302.13971 (pre-norm RMSNorm, SwiGLU, rotary embeddings); Ainslie
et al., *GQA*, arXiv:2305.13245; Su et al., RoFormer, arXiv:2104.09864 (eq. 34 for the rotation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ropemath.core.apply import apply_rope
from ropemath.core.precision import to_bfloat16
from ropemath.core.rotation import frequencies

#: names of the per-layer arrays :func:`llama_forward` can record
RECORDABLE = ("q", "k", "q_rot", "k_rot", "weights")


@dataclass(frozen=True)
class LlamaConfig:
    r"""Shape and constants of a Llama model.

    .. math:: d_h = d_{\mathrm{model}} / n_{\mathrm{heads}}, \qquad
        \theta_i = b^{-2i/d_{\mathrm{rope}}}, \ i = 0, \dots, d_{\mathrm{rope}}/2 - 1

    Source: the GGUF metadata keys ``llama.*`` (llama.cpp).

    >>> LlamaConfig(2, 8, 2, 1, 16, 1e-5, 100.0, 4, 64, 10).theta.tolist()
    [1.0, 0.1]
    """

    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    d_ff: int
    eps: float
    rope_base: float
    rope_dim: int
    context_length: int
    vocab_size: int

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    @property
    def theta(self) -> np.ndarray:
        return frequencies(self.rope_dim, self.rope_base)


@dataclass
class LlamaLayer:
    """Weights of one layer, float32, shaped like ``torch.nn.Linear.weight`` (out, in): :math:`q = W_q x`."""

    attn_norm: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    ffn_norm: np.ndarray
    w_gate: np.ndarray
    w_up: np.ndarray
    w_down: np.ndarray


@dataclass
class LlamaModel:
    """A Llama model's configuration and float32 weights (``embed``: (vocab, d_model), tied output)."""

    config: LlamaConfig
    embed: np.ndarray
    layers: list[LlamaLayer]
    out_norm: np.ndarray


def rms_norm(x: np.ndarray, g: np.ndarray, eps: float) -> np.ndarray:
    r"""Root-mean-square normalisation over the last axis, then a gain.

    .. math:: \operatorname{RMSNorm}(x) = \frac{x}{\sqrt{\frac{1}{d}\sum_j x_j^2 + \epsilon}} \odot g

    Source: Zhang & Sennrich, *Root Mean Square Layer Normalization*, arXiv:1910.07467.

    >>> rms_norm(np.array([3.0, 4.0]), np.ones(2), 0.0).round(4).tolist()
    [0.8485, 1.1314]
    """
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * g


def silu(z: np.ndarray) -> np.ndarray:
    r"""The sigmoid-weighted linear unit.

    .. math:: \operatorname{silu}(z) = \frac{z}{1 + e^{-z}}

    Source: Shazeer, *GLU Variants Improve Transformer*, arXiv:2002.05202 (SwiGLU).

    >>> silu(np.array([0.0, 1.0])).round(4).tolist()
    [0.0, 0.7311]
    """
    return z / (1.0 + np.exp(-z))


def causal_softmax(scores: np.ndarray) -> np.ndarray:
    r"""Softmax over the last axis of ``scores`` (..., T, T), keys after the query masked out.

    .. math:: A_{mn} = \frac{e^{a_{mn}}}{\sum_{n' \le m} e^{a_{mn'}}} \ (n \le m), \qquad A_{mn} = 0 \ (n > m)

    >>> causal_softmax(np.zeros((2, 2))).tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    t = scores.shape[-1]
    future = np.triu(np.ones((t, t), dtype=bool), k=1)
    s = np.where(future, -np.inf, scores)
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s


def llama_forward(
    model: LlamaModel,
    tokens: npt.ArrayLike,
    positions: npt.ArrayLike | None = None,
    *,
    layout: str,
    theta: npt.ArrayLike | None = None,
    attention_factor: float = 1.0,
    rope: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    record: tuple[str, ...] = (),
    record_layers: tuple[int, ...] | None = None,
) -> tuple[np.ndarray, dict]:
    r"""Logits (T, vocab) of ``tokens`` at ``positions``, and the recorded per-layer arrays.

    .. math::
        a_{mn} = \frac{s^2\,(R_{\Theta,m} W_q x_m)^{\top} (R_{\Theta,n} W_k x_n)}{\sqrt{d_h}},
        \quad s = \texttt{attention\_factor}

    ``positions`` default to 0..T-1 (any reals allowed).  ``layout``: the pair layout the weights expect
    ("interleaved" for GGUF, whose W_q, W_k rows llama.cpp permuted); ``theta`` defaults to the model's.
    ``rope(x, m)`` replaces ``apply_rope(x, m, layout=layout, theta=theta)`` (e.g. lower precision).
    ``record``: names of :data:`RECORDABLE` to return per layer in ``record_layers`` (default all).

    >>> cfg = LlamaConfig(1, 4, 2, 1, 8, 1e-5, 100.0, 2, 16, 5)
    >>> rng = np.random.default_rng(0)
    >>> w = lambda *s: rng.standard_normal(s).astype(np.float32)
    >>> layer = LlamaLayer(np.ones(4, np.float32), w(4, 4), w(2, 4), w(2, 4), w(4, 4),
    ...                    np.ones(4, np.float32), w(8, 4), w(8, 4), w(4, 8))
    >>> model = LlamaModel(cfg, w(5, 4), [layer], np.ones(4, np.float32))
    >>> logits, rec = llama_forward(model, [1, 2, 3], layout="interleaved", record=("weights",))
    >>> logits.shape, rec["weights"][0].shape
    ((3, 5), (2, 3, 3))
    """
    cfg = model.config
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or tokens.size == 0 or not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError("tokens: must be a non-empty 1-d array of integer ids")
    if tokens.min() < 0 or tokens.max() >= cfg.vocab_size:
        raise ValueError(f"tokens: ids must lie in 0..{cfg.vocab_size - 1}")
    t = tokens.size
    positions = np.arange(t) if positions is None else np.asarray(positions)
    if positions.shape != (t,):
        raise ValueError(f"positions: must have shape ({t},) like tokens, got {positions.shape}")
    unknown = set(record) - set(RECORDABLE)
    if unknown:
        raise ValueError(f"record: unknown names {sorted(unknown)}; choose from {RECORDABLE}")
    theta = cfg.theta if theta is None else np.asarray(theta, dtype=np.float64)
    if rope is None:
        def rope(x, m):
            return apply_rope(x, m, layout=layout, theta=theta)
    keep = range(cfg.n_layers) if record_layers is None else record_layers
    recorded: dict[str, list] = {name: [] for name in record}

    h_q, h_kv, d_h = cfg.n_heads, cfg.n_kv_heads, cfg.d_head
    group = h_q // h_kv
    scale = attention_factor**2 / np.sqrt(d_h)
    x = model.embed[tokens]  # (T, d_model), float32
    for index, layer in enumerate(model.layers):
        u = rms_norm(x, layer.attn_norm, cfg.eps)
        q = (u @ layer.w_q.T).reshape(t, h_q, d_h).transpose(1, 0, 2)  # (heads, T, d_h)
        k = (u @ layer.w_k.T).reshape(t, h_kv, d_h).transpose(1, 0, 2)
        v = (u @ layer.w_v.T).reshape(t, h_kv, d_h).transpose(1, 0, 2)
        q_rot, k_rot = rope(q, positions), rope(k, positions)
        # query head h uses key/value head h // group: view the queries as (kv heads, group, T, d_h)
        scores = q_rot.reshape(h_kv, group, t, d_h) @ k_rot[:, None].transpose(0, 1, 3, 2) * np.float32(scale)
        weights = causal_softmax(scores)  # (kv heads, group, T, T)
        out = (weights @ v[:, None]).reshape(h_q, t, d_h).transpose(1, 0, 2).reshape(t, h_q * d_h)
        x = x + out @ layer.w_o.T
        u = rms_norm(x, layer.ffn_norm, cfg.eps)
        x = x + (silu(u @ layer.w_gate.T) * (u @ layer.w_up.T)) @ layer.w_down.T
        if index in keep:
            arrays = {"q": q, "k": k, "q_rot": q_rot, "k_rot": k_rot, "weights": weights.reshape(h_q, t, t)}
            for name in record:
                recorded[name].append(arrays[name])
    logits = rms_norm(x, model.out_norm, cfg.eps) @ model.embed.T
    return logits, recorded


def perplexity(logits: np.ndarray, tokens: npt.ArrayLike) -> float:
    r"""Perplexity of ``tokens[1:]`` under ``logits[:-1]`` (next-token prediction), in float64.

    .. math:: \mathrm{PPL} = \exp\Big(-\frac{1}{T-1}\sum_{m=0}^{T-2} \log \operatorname{softmax}(\ell_m)_{t_{m+1}}\Big)

    >>> perplexity(np.zeros((3, 4)), [0, 1, 2])  # uniform over 4 tokens
    4.0
    """
    tokens = np.asarray(tokens)
    z = np.asarray(logits, dtype=np.float64)[:-1]
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -logp[np.arange(len(tokens) - 1), tokens[1:]]
    return float(np.exp(nll.mean()))


# --- tools for looking inside: other rotations, per-pair norms, attention statistics --------------------------


def low_precision_rope(theta: npt.ArrayLike, *, bfloat16: bool) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    r"""A rotation as Hugging Face's Llama code computes it: float32 angles, optionally bfloat16 products.

    .. math:: \phi_{m,i} = \mathrm{fl}_{32}(\mathrm{fl}_{32}(m)\,\mathrm{fl}_{32}(\theta_i)), \quad
        q' = \mathrm{bf}(\mathrm{bf}(q \odot \mathrm{bf}(\cos\phi)) + \mathrm{bf}(\bar q \odot \mathrm{bf}(\sin\phi)))

    (:math:`\bar q` = the pair partner with its sign, RoFormer eq. 34).  With ``bfloat16=False`` every
    step is float32.  Interleaved pairs; the arithmetic per pair is the same as ``rotate_half``'s.
    Source: transformers' ``LlamaRotaryEmbedding`` (``inv_freq`` float32, ``cos``/``sin`` cast to the
    model's dtype) and ``apply_rotary_pos_emb``.

    >>> rope = low_precision_rope([1.0], bfloat16=False)
    >>> [round(v, 4) for v in rope(np.float32([[1.0, 0.0]]), np.array([1]))[0].tolist()]
    [0.5403, 0.8415]
    """
    inv_freq = np.asarray(theta, dtype=np.float32)
    cast = to_bfloat16 if bfloat16 else np.float32

    def rope(x: np.ndarray, m: np.ndarray) -> np.ndarray:
        phi = np.asarray(m, dtype=np.float32)[:, None] * inv_freq  # (T, d/2), float32
        cos, sin = cast(np.repeat(np.cos(phi), 2, axis=-1)), cast(np.repeat(np.sin(phi), 2, axis=-1))
        x = cast(x)
        partner = np.stack([-x[..., 1::2], x[..., 0::2]], axis=-1).reshape(x.shape)
        return cast(cast(x * cos) + cast(partner * sin)).astype(np.float32)

    return rope


def pairs_removed_rope(rope: Callable, pairs: npt.ArrayLike) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    r"""``rope`` followed by zeroing the given pairs (interleaved), so they add nothing to any score.

    .. math:: a_{mn} = \sum_{i \notin P} \operatorname{Re}\big[q^{(i)}_m \overline{k^{(i)}_n}\,
        e^{\mathrm{i}(m-n)\theta_i}\big]

    >>> rope = pairs_removed_rope(lambda x, m: x, [0])
    >>> rope(np.ones((1, 4)), np.zeros(1)).tolist()
    [[0.0, 0.0, 1.0, 1.0]]
    """
    pairs = np.asarray(pairs, dtype=int)

    def removed(x: np.ndarray, m: np.ndarray) -> np.ndarray:
        out = rope(x, m).copy()
        out[..., 2 * pairs] = 0
        out[..., 2 * pairs + 1] = 0
        return out

    return removed


def pair_norms(x: np.ndarray) -> np.ndarray:
    r"""Root-mean-square norm of each pair (interleaved) over the tokens: shape (..., heads, d/2).

    .. math:: \nu_i = \Big(\frac{1}{T}\sum_m x_{m,2i}^2 + x_{m,2i+1}^2\Big)^{1/2}

    A rotation leaves each pair's norm unchanged, so queries before and after rotation give the same.

    >>> pair_norms(np.array([[[3.0, 4.0, 0.0, 1.0]]])).tolist()
    [[5.0, 1.0]]
    """
    x = np.asarray(x, dtype=np.float64)
    sq = x[..., 0::2] ** 2 + x[..., 1::2] ** 2  # (..., heads, T, d/2)
    return np.sqrt(sq.mean(axis=-2))


def mean_by_distance(a: np.ndarray) -> np.ndarray:
    r"""Average of ``a[..., m, n]`` over all pairs with the same distance r = m - n >= 0.

    .. math:: \bar a(r) = \frac{1}{T - r}\sum_{m=r}^{T-1} a_{m, m-r}

    >>> mean_by_distance(np.array([[1.0, 0.0], [3.0, 5.0]])).tolist()
    [3.0, 3.0]
    """
    t = a.shape[-1]
    return np.array([np.diagonal(a, offset=-r, axis1=-2, axis2=-1).mean() for r in range(t)])


def attention_entropy(weights: np.ndarray) -> float:
    r"""Mean entropy (nats) of the attention distributions in ``weights`` (..., T, T), rows m >= 1.

    .. math:: H = -\frac{1}{|\cdot|}\sum_{m} \sum_{n \le m} A_{mn} \ln A_{mn}

    >>> round(attention_entropy(np.array([[1.0, 0.0], [0.5, 0.5]])), 4)  # ln 2
    0.6931
    """
    w = np.asarray(weights, dtype=np.float64)[..., 1:, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log(w), 0.0)
    return float(terms.sum(axis=-1).mean())
