r"""Frequencies, angles and rotation matrices of RoPE (numpy).

Scope: the frequencies :math:`\theta_i`, the angles :math:`m\theta_i` (always float64),
the 2×2 rotation :math:`R(a)` and the dense block-diagonal matrix :math:`R^d_{\Theta,m}`.
The dense matrix is the *definition*; the fast elementwise form lives in
:mod:`ropemath.core.apply` and is checked against this one.

Conventions (used everywhere in ropemath):

* index ``i`` runs from 0: :math:`\theta_i = \mathrm{base}^{-2i/d}`, ``i = 0 .. d/2-1``.
  The paper counts from 1 (:math:`\theta_{i} = 10000^{-2(i-1)/d}`), so our
  :math:`\theta_i` is the paper's :math:`\theta_{i+1}`.
* rotation is counter-clockwise, :math:`R(a) = [[\cos a, -\sin a], [\sin a, \cos a]]`.
* layout ``"interleaved"`` pairs ``(x[2i], x[2i+1])`` (the paper); ``"half"`` pairs
  ``(x[i], x[i + d/2])`` (GPT-NeoX, Hugging Face).

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15)-(16).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import check_base, check_d, check_frequencies, check_layout, check_positions, finite_result

__all__ = ["frequencies", "resolve_frequencies", "angles", "rotation_2d", "rotation_matrix", "half_permutation"]


def frequencies(d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the RoPE frequencies :math:`\theta_i` as a float64 array of shape (d//2,).

    .. math:: \theta_i = \mathrm{base}^{-2i/d}, \quad i = 0, \dots, d/2 - 1

    Source: RoFormer eq. (15), :math:`\Theta = \{\theta_i = 10000^{-2(i-1)/d}\}` with the
    paper's 1-based index shifted to 0-based.

    >>> frequencies(4).tolist()
    [1.0, 0.01]
    >>> frequencies(8, base=16.0).tolist()
    [1.0, 0.5, 0.25, 0.125]
    """
    d = check_d(d)
    base = check_base(base)
    return finite_result(np.power(base, -np.arange(0, d, 2, dtype=np.float64) / d), "frequencies", d=d, base=base)


def resolve_frequencies(d: int, base: float | None = None, theta: npt.ArrayLike | None = None) -> np.ndarray:
    r"""Return the per-pair frequencies from exactly one of ``base`` and ``theta``.

    .. math:: \theta_i = \mathrm{base}^{-2i/d} \ \text{(RoFormer eq. 15)} \quad\text{or}\quad
        \theta_i \text{ given (a scaled scheme: PI, NTK, YaRN, Llama 3.1, LongRoPE)}

    The one place where ropemath turns a caller's ``base=``/``theta=`` into frequencies: giving
    neither or both is an error (a model's base is not always RoFormer's 10000).  ``theta`` must
    be ``d/2`` finite numbers > 0 (Hugging Face's ``inv_freq``).

    >>> resolve_frequencies(4, base=1e4).tolist(), resolve_frequencies(4, theta=[1.0, 0.5]).tolist()
    ([1.0, 0.01], [1.0, 0.5])
    """
    if (base is None) == (theta is None):
        given = "both" if base is not None else "neither"
        raise ValueError(
            f"pass exactly one of base and theta (frequencies base**(-2i/d) or theta_i given), got {given}"
        )
    if theta is None:
        return frequencies(d, base)
    return check_frequencies(theta, d=check_d(d))


def angles(m: npt.ArrayLike, d: int, base: float = 10000.0) -> np.ndarray:
    r"""Return the rotation angles :math:`m\theta_i` in float64, shape ``m.shape + (d//2,)``.

    .. math:: \phi_i(m) = m\,\theta_i

    Source: RoFormer eq. (15)-(16).  The product is always formed in float64, whatever
    precision the vectors to be rotated have.

    >>> angles(2, 4).tolist()
    [2.0, 0.02]
    """
    m = check_positions(m)
    return finite_result(m[..., None] * frequencies(d, base), "angles", m=m, d=d, base=base)


def rotation_2d(a: npt.ArrayLike) -> np.ndarray:
    r"""Return the counter-clockwise 2×2 rotation matrix :math:`R(a)`, shape ``a.shape + (2, 2)``.

    .. math:: R(a) = \begin{pmatrix} \cos a & -\sin a \\ \sin a & \cos a \end{pmatrix}

    Source: RoFormer eq. (13).

    >>> rotation_2d(np.pi / 2).round(12).tolist()
    [[0.0, -1.0], [1.0, 0.0]]
    """
    a = check_positions(a, name="a")
    c, s = np.cos(a), np.sin(a)
    return finite_result(np.stack([np.stack([c, -s], axis=-1), np.stack([s, c], axis=-1)], axis=-2), "rotation_2d", a=a)


def half_permutation(d: int) -> np.ndarray:
    r"""Return the index array P with ``x_half = x_interleaved[..., P]``.

    .. math:: P = [0, 2, 4, \dots, d-2, 1, 3, \dots, d-1]

    Pair ``i`` sits at ``(2i, 2i+1)`` in the interleaved layout and at ``(i, i + d/2)``
    in the half layout.  Source: the per-head row permutation of Hugging Face's Llama
    weight conversion (``permute`` in ``convert_llama_weights_to_hf.py``).

    >>> half_permutation(6).tolist()
    [0, 2, 4, 1, 3, 5]
    """
    d = check_d(d)
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


def rotation_matrix(
    m: npt.ArrayLike, d: int, base: float = 10000.0, *, layout: str = "interleaved", theta: npt.ArrayLike | None = None
) -> np.ndarray:
    r"""Return the dense block-diagonal rotation :math:`R^d_{\Theta,m}`, shape ``m.shape + (d, d)``.

    .. math::
        R^d_{\Theta,m} = \operatorname{diag}\big(R(m\theta_0), R(m\theta_1), \dots,
        R(m\theta_{d/2-1})\big)

    Source: RoFormer eq. (15).  With ``layout="half"`` the same rotation is expressed in
    the half layout, :math:`P R P^\top` for the permutation of :func:`half_permutation`.
    ``theta`` (``d/2`` frequencies) replaces :math:`\mathrm{base}^{-2i/d}` (a scaled scheme: PI, NTK, YaRN).

    >>> rotation_matrix(1.0, 4, base=1e4).round(4)
    array([[ 0.5403, -0.8415,  0.    ,  0.    ],
           [ 0.8415,  0.5403,  0.    ,  0.    ],
           [ 0.    ,  0.    ,  1.    , -0.01  ],
           [ 0.    ,  0.    ,  0.01  ,  1.    ]])
    >>> rotation_matrix(np.pi, 2, theta=[0.5]).round(12).tolist()
    [[0.0, -1.0], [1.0, 0.0]]
    """
    d = check_d(d)
    layout = check_layout(layout)
    th = frequencies(d, base) if theta is None else resolve_frequencies(d, theta=theta)
    phi = check_positions(m)[..., None] * th
    c, s = np.cos(phi), np.sin(phi)
    R = np.zeros(phi.shape[:-1] + (d, d), dtype=np.float64)
    if layout == "interleaved":
        even, odd = np.arange(0, d, 2), np.arange(1, d, 2)
    else:
        even, odd = np.arange(d // 2), np.arange(d // 2, d)
    R[..., even, even] = c
    R[..., even, odd] = -s
    R[..., odd, even] = s
    R[..., odd, odd] = c
    return finite_result(R, "rotation_matrix", m=m, d=d, base=base, theta=theta)
