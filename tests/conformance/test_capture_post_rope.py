"""Notebook 07 §3's capture snippet: an attention function registered with ``AttentionInterface.register``
(transformers 5.24 ``utils/generic.py`` l.1245, ``modeling_utils.py`` l.5243) receives q and k *after* RoPE
(``LlamaAttention.forward``, ``modeling_llama.py`` l.249 rotates, l.258 calls the interface), one KV head per group
(``repeat_kv`` runs inside the attention function, l.190).  Checked against `ropemath.apply_rope` (half layout) of
the snippet's ``q_proj``/``k_proj`` hooks' output, reshaped to (batch, heads, T, d_h) as the snippet does; after
``remove()`` the hooks capture nothing.  Wrong variant: q before RoPE (the ``q_proj`` hook's) must differ.
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
from transformers import AttentionInterface, AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM  # noqa: E402
from transformers.integrations.sdpa_attention import repeat_kv, sdpa_attention_forward  # noqa: E402

from ropemath import apply_rope  # noqa: E402

CONFIG = dict(vocab_size=64, hidden_size=128, intermediate_size=64, num_hidden_layers=1, num_attention_heads=4,
              num_key_value_heads=2, max_position_embeddings=256, rope_theta=10000.0)
T = 16


def test_registered_attention_sees_post_rope_q_and_k(tmp_path):
    torch.manual_seed(0)
    path = tmp_path
    LlamaForCausalLM(LlamaConfig(**CONFIG)).save_pretrained(path)
    # the notebook's snippet, line for line (imports at the top of this file)
    captured = []

    def capture(module, query, key, value, attention_mask, **kwargs):
        captured.append((query.detach(), key.detach()))  # (batch, heads, T, d_h)
        return sdpa_attention_forward(module, query, key, value, attention_mask, **kwargs)

    AttentionInterface.register("capture", capture)
    model = AutoModelForCausalLM.from_pretrained(path, attn_implementation="capture")
    before = []
    attn = model.model.layers[0].self_attn
    handles = [m.register_forward_hook(lambda mod, args, out: before.append(out.detach()))
               for m in (attn.q_proj, attn.k_proj)]  # Qwen3, Gemma 3: attn.q_norm, attn.k_norm
    model = model.double().eval()  # not in the snippet: the forward pass, in float64
    assert model.config._attn_implementation == "capture"
    batch, d_h = 1, 32
    with torch.no_grad():
        model(torch.arange(batch * T).view(batch, T) % 64, use_cache=False)
    # after model(input_ids, use_cache=False); input_ids: (batch, T)
    for h in handles:
        h.remove()
    q_pre, k_pre = (out.view(batch, T, -1, d_h).transpose(1, 2) for out in before)
    # end of the snippet
    (q_post, k_post), = captured
    assert q_post.shape == (1, 4, T, 32) and k_post.shape == (1, 2, T, 32)  # KV heads not repeated yet
    assert q_pre.shape == q_post.shape and k_pre.shape == k_post.shape  # the reshape gives the captured layout
    assert repeat_kv(k_post, 2).shape == q_post.shape  # step 3: expand the KV heads before comparing scores
    with torch.no_grad():  # the hooks are gone: a second forward pass captures nothing more
        model(torch.arange(T)[None] % 64, use_cache=False)
    assert len(before) == 2
    q_pre, k_pre = q_pre[0].numpy(), k_pre[0].numpy()  # hooks fire q, then k
    m = np.arange(T)
    want_q = apply_rope(q_pre, m, layout="half", base=10000.0)
    want_k = apply_rope(k_pre, m, layout="half", base=10000.0)
    # float64 model: the float32 angles (inv_freq, position_ids.float()) bound the difference, ~T * 2^-23 rad
    assert np.abs(q_post[0].numpy() - want_q).max() < 1e-4 * np.abs(want_q).max()
    assert np.abs(k_post[0].numpy() - want_k).max() < 1e-4 * np.abs(want_k).max()
    # wrong variant: the q_proj output, before RoPE, is not what the attention function sees
    assert np.abs(q_post[0].numpy() - q_pre).max() > 0.1 * np.abs(q_pre).max()
