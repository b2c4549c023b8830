r"""Block-diagonal assembly by a plain Python loop: the reference construction of R^d_{Θ,m}.

Scope: :func:`block_diagonal` places square blocks one after another on the diagonal of a
zero matrix, one block per loop iteration.  It knows nothing of RoPE; it exists so that
the vectorised index arithmetic of :func:`ropemath.rotation_matrix` can be compared with
the most literal reading of RoFormer eq. (15),

.. math:: R^d_{\Theta,m} = \operatorname{diag}\big(R(m\theta_0), \dots, R(m\theta_{d/2-1})\big),

as ``block_diagonal(rotation_2d(angles(m, d, base)))``.

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2.2 eq. (15).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ropemath.core._validate import as_array, finite_result

__all__ = ["block_diagonal"]


def block_diagonal(blocks: Sequence[npt.ArrayLike] | np.ndarray) -> np.ndarray:
    r"""Return the float64 block-diagonal matrix with the given square blocks, built by a loop.

    .. math:: \operatorname{diag}(B_0, B_1, \dots) =
        \begin{pmatrix} B_0 & 0 & \cdots \\ 0 & B_1 & \cdots \\ \vdots & \vdots & \ddots \end{pmatrix}

    ``blocks`` is a non-empty sequence of square real matrices (sizes may differ), or an
    array of shape ``(count, b, b)``.  Source: RoFormer eq. (15) (the shape of
    :math:`R^d_{\Theta,m}`).

    >>> block_diagonal([[[1.0, 2.0], [3.0, 4.0]], [[5.0]]]).tolist()
    [[1.0, 2.0, 0.0], [3.0, 4.0, 0.0], [0.0, 0.0, 5.0]]
    """
    if isinstance(blocks, (str, bytes)) or not hasattr(blocks, "__len__"):
        raise TypeError(f"blocks must be a sequence of square matrices, got {type(blocks).__name__}")
    if len(blocks) == 0:
        raise ValueError("blocks must be a non-empty sequence of square matrices, got an empty one")
    arrays = []
    for j, block in enumerate(blocks):
        arr = as_array(block, "blocks")
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"blocks[{j}] must be a real matrix, got array of dtype {arr.dtype}")
        if arr.ndim != 2 or arr.shape[0] != arr.shape[1] or arr.shape[0] == 0:
            raise ValueError(f"blocks[{j}] must be a non-empty square matrix, got shape {arr.shape}")
        arrays.append(arr.astype(np.float64))
    size = sum(arr.shape[0] for arr in arrays)
    out = np.zeros((size, size), dtype=np.float64)
    start = 0
    for arr in arrays:
        stop = start + arr.shape[0]
        out[start:stop, start:stop] = arr
        start = stop
    return finite_result(out, "block_diagonal", blocks=blocks)
