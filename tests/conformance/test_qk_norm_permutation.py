"""QK-norm weights must be permuted with W_q/W_k when a checkpoint changes pair layout (transformers 5.24).

Qwen3 and Gemma 3 apply an RMSNorm over the head dimension to q and k before RoPE (``Qwen3Attention.__init__``
``modeling_qwen3.py`` l.229-230 and ``forward`` l.245-250; ``Gemma3Attention``, ``modeling_gemma3.py`` l.310-311,
329-333); OLMo 2 applies one over all heads of the projection (``Olmo2Attention``, ``modeling_olmo2.py`` l.213-214,
228-229).  If the rows of W_q/W_k are permuted by P (interleaved -> half, per head), the norm's input is permuted by P;
the mean square does not change, so the norm commutes with P exactly when its elementwise weight is permuted by P too.
Each check has a wrong variant (weight left in the old order) that must fail.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
from transformers.models.gemma3.modeling_gemma3 import Gemma3RMSNorm  # noqa: E402
from transformers.models.olmo2.modeling_olmo2 import Olmo2RMSNorm  # noqa: E402
from transformers.models.qwen3.modeling_qwen3 import Qwen3RMSNorm  # noqa: E402

D_HEAD, N_HEADS = 64, 4


def _perm(d):  # interleaved -> half within one head: [0, 2, ..., d-2, 1, 3, ..., d-1]
    return np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])


def _check(norm_cls, width, per_head_width):
    gen = torch.Generator().manual_seed(width)
    norm = norm_cls(width, eps=1e-6).double()
    with torch.no_grad():
        norm.weight.copy_(torch.randn(width, generator=gen, dtype=torch.float64))
    x = torch.randn(3, 5, N_HEADS * D_HEAD, generator=gen, dtype=torch.float64)  # q = x W_q^T, all heads
    p_head = _perm(D_HEAD)
    p_all = torch.from_numpy(np.concatenate([h * D_HEAD + p_head for h in range(N_HEADS)]))
    p_w = torch.from_numpy(p_head) if per_head_width else p_all

    def run(n, t):  # Qwen3/Gemma 3 normalise each head (view to (..., heads, d_head)); OLMo 2 the whole projection
        return n(t.view(3, 5, N_HEADS, D_HEAD)).reshape(3, 5, -1) if per_head_width else n(t)

    reference = run(norm, x)[..., p_all]  # the original model's normed q, rows then permuted
    permuted = norm_cls(width, eps=1e-6).double()
    with torch.no_grad():
        permuted.weight.copy_(norm.weight[p_w])
    # the norms reduce in float32, so a permuted sum may differ by float32 rounding: bound 1e-5 (values are O(1))
    assert (run(permuted, x[..., p_all]) - reference).abs().max() < 1e-5
    assert (run(norm, x[..., p_all]) - reference).abs().max() > 0.1  # wrong variant: weight left unpermuted


@pytest.mark.parametrize("norm_cls", [Qwen3RMSNorm, Gemma3RMSNorm])
def test_per_head_qk_norm_weight_is_permuted_by_p(norm_cls):
    _check(norm_cls, D_HEAD, per_head_width=True)


def test_olmo2_qk_norm_over_all_heads_is_permuted_per_head():
    _check(Olmo2RMSNorm, N_HEADS * D_HEAD, per_head_width=False)
