r"""Which pairing each implementation uses, as a table of verdicts: offline re-typings and, if installed, the real code.

Scope: :func:`layout_verdicts` compares ropemath's numpy re-typings of Meta's complex form, GPT-J's
``rotate_every_two`` and GPT-NeoX / Hugging Face's ``rotate_half`` with :func:`ropemath.apply_rope` in both
layouts and returns, per implementation and layout, whether they agree within a stated bound.
:func:`real_layout_verdicts` runs the same comparison on the real packages (transformers' Llama and GPT-J
``apply_rotary_pos_emb``, Meta's ``llama_models`` ``apply_rotary_emb``, ``rotary_embedding_torch``) when they are
installed (``make conformance``) and returns ``None`` otherwise, so a notebook's stored output does not
depend on torch being present: it prints the offline table and asserts that the real one, when there is one,
is identical.  Both feed every implementation the same float64 angles, so only pairing and arithmetic are
compared.

References: Meta ``llama_models.llama3.model.apply_rotary_emb``; transformers ``models/llama`` and
``models/gptj``; lucidrains ``rotary_embedding_torch``; ``tests/conformance/test_apply_conformance.py`` pins
the real packages with more dtypes, head dims and positions.
"""

from __future__ import annotations

import numpy as np

from ropemath.core._validate import LAYOUTS, check_d, check_int
from ropemath.core.apply import apply_rope
from ropemath.core.rotation import frequencies
from ropemath.models.implementations import gptj_rope, meta_llama_rope, neox_rope

__all__ = ["LAYOUTS", "TOLERANCE", "layout_verdicts", "real_layout_verdicts"]

TOLERANCE = 2.0**-20  # relative to max |x|: float32 accuracy (Meta casts to float32), far below a layout mix-up


def _sample(d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    d = check_d(d, maximum=4096)
    rng = np.random.default_rng(check_int(seed, "seed", minimum=0))
    return rng.standard_normal((9, d)), np.array([0, 1, 7, 100, 4095, 8191, 32768, 100_003, 131_071])


def _agree(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.max(np.abs(np.asarray(a, dtype=np.float64) - b)) <= TOLERANCE * np.max(np.abs(b)))


def layout_verdicts(d: int = 64, seed: int = 0) -> dict[str, dict[str, bool]]:
    r"""Return, per re-typed implementation, whether it equals ``apply_rope`` in each layout.

    .. math:: \max |f(x, m) - R^d_{\Theta,m} x| \le 2^{-20} \max |x| \quad\text{(layout by layout)}

    Source: RoFormer eq. (34) (interleaved); Hugging Face ``rotate_half`` (half).

    >>> layout_verdicts()["GPT-NeoX / HF rotate_half"]
    {'interleaved': False, 'half': True}
    """
    x, m = _sample(d, seed)
    outputs = {"Meta complex form": meta_llama_rope(x, m), "GPT-J rotate_every_two": gptj_rope(x, m),
               "GPT-NeoX / HF rotate_half": neox_rope(x, m)}
    return {name: {layout: _agree(y, apply_rope(x, m, layout=layout, base=10000.0)) for layout in LAYOUTS}
            for name, y in outputs.items()}


def real_layout_verdicts(d: int = 64, seed: int = 0) -> dict[str, dict[str, bool]] | None:
    r"""The same table from the real packages, or ``None`` if torch / transformers / llama_models are absent.

    .. math:: \max |f_{\text{real}}(x, m) - R^d_{\Theta,m} x| \le 2^{-20} \max |x|

    Source: transformers 5.x, Meta ``llama_models`` 0.3, ``rotary_embedding_torch`` (``make conformance``).

    >>> result = real_layout_verdicts()
    >>> result is None or result["Meta complex form"]["interleaved"]
    True
    """
    _sample(d, seed)  # the arguments are checked whether or not the packages are installed
    try:
        import torch
        from llama_models.llama3.model import apply_rotary_emb
        from rotary_embedding_torch.rotary_embedding_torch import apply_rotary_emb as lucid_apply
        from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb as gptj_apply
        from transformers.models.llama.modeling_llama import apply_rotary_pos_emb as llama_apply
    except ImportError:
        return None
    x, m = _sample(d, seed)
    phi = m[:, None] * frequencies(d)
    t = torch.from_numpy(x)
    cos2, sin2 = (torch.from_numpy(np.concatenate([f(phi), f(phi)], axis=-1)) for f in (np.cos, np.sin))
    hf, _ = llama_apply(t[None, None], t[None, None], cos2[None], sin2[None])
    cis = torch.polar(torch.ones(phi.shape, dtype=torch.float64), torch.from_numpy(phi))
    meta, _ = apply_rotary_emb(t[None, :, None], t[None, :, None], cis)
    sin, cos = (torch.from_numpy(f(phi))[None] for f in (np.sin, np.cos))
    gptj = gptj_apply(t[None, :, None], sin, cos)
    lucid = lucid_apply(torch.from_numpy(np.repeat(phi, 2, axis=-1)), t, seq_dim=-2)
    outputs = {"Meta complex form": meta[0, :, 0].numpy(), "GPT-J rotate_every_two": gptj[0, :, 0].numpy(),
               "GPT-NeoX / HF rotate_half": hf[0, 0].numpy(), "rotary-embedding-torch": lucid.numpy()}
    return {name: {layout: _agree(y, apply_rope(x, m, layout=layout, base=10000.0)) for layout in LAYOUTS}
            for name, y in outputs.items()}
