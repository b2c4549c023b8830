r"""Operation counts of RoPE linear attention: the O(N²) form against the O(N) prefix-sum form.

Scope: :func:`linear_attention_cost`, the multiply-adds of one layer of RoPE linear attention
(RoFormer eq. 19) computed both ways, as notebook 06 tabulates them.  Counts, not timings: they are
the same on every machine, so a stored notebook output that shows them is portable.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.3 eq. (18)-(19); Katharopoulos et al.,
"Transformers are RNNs" (ICML 2020), §3.2-3.3 (associativity and running sums).
"""

from __future__ import annotations

from ropemath.core._validate import check_int

__all__ = ["linear_attention_cost"]


def linear_attention_cost(n_tokens: int, d_feat: int, d_v: int) -> tuple[int, int]:
    r"""Return the multiply-adds ``(quadratic, prefix)`` of RoPE linear attention for ``n_tokens`` tokens.

    .. math:: C_{\text{quad}} = 2N^2D + N^2 d_v, \qquad C_{\text{prefix}} = 2\,(N D d_v + N D)

    The quadratic form builds the numerator and the denominator matrices (:math:`N\times N`, each entry a
    dot product of length :math:`D`) and multiplies the numerator by :math:`V` (:math:`N\times d_v`); the
    prefix-sum form updates the state :math:`U_m` (:math:`D\times d_v`) and :math:`z_m` (:math:`D`) once
    per token and reads both once per query.  Source: RoFormer eq. (19); Katharopoulos et al. (2020).

    >>> linear_attention_cost(256, 32, 16)
    (5242880, 278528)
    >>> linear_attention_cost(1, 1, 1)
    (3, 4)
    """
    n = check_int(n_tokens, "n_tokens", minimum=1)
    dim = check_int(d_feat, "d_feat", minimum=1)
    dv = check_int(d_v, "d_v", minimum=1)
    return 2 * n * n * dim + n * n * dv, 2 * (n * dim * dv + n * dim)
