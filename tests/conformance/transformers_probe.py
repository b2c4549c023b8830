"""What an installed transformers version does with RoPE, observed by running it (tiny Llama config, no weights).

Run ``python tests/conformance/transformers_probe.py`` in any venv with torch and a transformers 4.36 or later:
it prints one JSON object.  book/conventions.md lists what it printed for each version run;
``test_transformers_versions.py`` asserts the pinned version's row.

* ``positions``: the ``position_ids`` and ``cache_position`` that ``generate`` passes to the model for a
  left-padded batch (three pads in row 0), read with forward pre-hooks;
* ``cos_sin``: rotary modules per model, rotary forwards per model forward, a ``cos_cached`` buffer;
* ``matmul_angles``: whether building and calling the rotary module runs a matrix product (``mm``/``bmm``),
  the op that ``torch.set_float32_matmul_precision("high")`` may run in TF32 on a GPU;
* ``yarn``: the attention factor and θ_i for Qwen2.5-7B-Instruct with its model card's YaRN block (factor 4,
  original 32768, max 32768) and a DeepSeek-V3-like block (factor 40, original 4096, max 163840);
* ``dynamic``: the last θ_i after a forward past ``max_position_embeddings`` and after a shorter one;
* ``sink_cache``: whether ``transformers.SinkCache`` can be constructed.
"""

import json
import math
import warnings

import torch
import transformers
from torch.utils._python_dispatch import TorchDispatchMode
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.models.llama import modeling_llama

MASK = [[0, 0, 0, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 1]]


def tiny(**extra) -> LlamaConfig:
    keys = dict(hidden_size=64, num_attention_heads=2, num_key_value_heads=2, num_hidden_layers=2,
                intermediate_size=32, vocab_size=32, max_position_embeddings=64)
    keys.update(extra)
    return LlamaConfig(**keys)


def model_rotary(model):
    """The rotary module the model runs (model-level since 4.4x; one per layer before)."""
    rotaries = [m for m in model.modules() if type(m).__name__.endswith("RotaryEmbedding")]
    return getattr(model.model, "rotary_emb", None) or rotaries[0], rotaries


def positions() -> dict:
    model = LlamaForCausalLM(tiny()).eval()
    seen = {}

    def hook(module, args, kwargs):
        if not seen:
            seen.update({k: None if kwargs.get(k) is None else kwargs[k].tolist()
                         for k in ("position_ids", "cache_position")})
    model.model.register_forward_pre_hook(hook, with_kwargs=True)
    ids = torch.tensor([[0, 0, 0, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 7, 8]])
    with torch.no_grad():
        model.generate(ids, attention_mask=torch.tensor(MASK), max_new_tokens=1, do_sample=False, pad_token_id=0)
    return seen


def cos_sin() -> dict:
    model = LlamaForCausalLM(tiny()).eval()
    rotary, rotaries = model_rotary(model)
    calls = []
    for r in rotaries:
        r.register_forward_hook(lambda *_: calls.append(1))
    with torch.no_grad():
        model(torch.tensor([[1, 2, 3, 4]]))
    return {"rotary_modules": len(rotaries), "rotary_calls_per_forward": len(calls),
            "cos_cached_buffer": "cos_cached" in dict(rotary.named_buffers())}


class RecordOps(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.ops = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.add(func.overloadpacket.__name__)
        return func(*args, **(kwargs or {}))


def runs_matmul(fn) -> bool:
    with RecordOps() as rec:
        fn()
    return bool(rec.ops & {"mm", "bmm", "matmul"})


def matmul_angles() -> bool:
    def build_and_call():
        try:
            rotary = modeling_llama.LlamaRotaryEmbedding(config=tiny())
        except TypeError:  # 4.36-4.44: (dim, max_position_embeddings, base)
            rotary = modeling_llama.LlamaRotaryEmbedding(32, max_position_embeddings=64)
        x = torch.zeros(1, 4, 32)
        try:
            rotary(x, torch.arange(4)[None])
        except (TypeError, RuntimeError):  # 4.36-4.37: forward(x, seq_len)
            rotary(x, seq_len=4)
    return runs_matmul(build_and_call)


def yarn(max_pos: int, original: int, factor: float, head_dim: int, base: float) -> dict:
    config = tiny(hidden_size=2 * head_dim, max_position_embeddings=max_pos, rope_theta=base,
                  rope_scaling={"type": "yarn", "factor": factor, "original_max_position_embeddings": original})
    rotary = modeling_llama.LlamaRotaryEmbedding(config=config)
    return {"attention_factor": float(rotary.attention_scaling), "theta": rotary.inv_freq.double().tolist()}


def dynamic() -> dict:
    model = LlamaForCausalLM(tiny(rope_scaling={"type": "dynamic", "factor": 2.0})).eval()
    rotary, _ = model_rotary(model)
    out = {"before": rotary.inv_freq[-1].item()}
    with torch.no_grad():
        model(torch.arange(80)[None] % 32)
        out["after_80"] = rotary.inv_freq[-1].item()
        model(torch.arange(10)[None] % 32)
        out["after_10"] = rotary.inv_freq[-1].item()
    return out


def sink_cache() -> str:
    try:
        from transformers import SinkCache
    except ImportError:
        return "absent"
    try:
        SinkCache(window_length=8, num_sink_tokens=2)
    except NotImplementedError:
        return "raises NotImplementedError"
    return "works"


def probe() -> dict:
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = {"transformers": transformers.__version__, "positions": positions(), "cos_sin": cos_sin(),
                  "matmul_angles": matmul_angles(), "dynamic": dynamic(), "sink_cache": sink_cache()}
        try:
            result["yarn"] = {"qwen2_5_card": yarn(32768, 32768, 4.0, 128, 1e6),
                              "deepseek_like": yarn(163840, 4096, 40.0, 64, 1e4)}
        except ValueError as e:  # before 4.43 (llama): the block must have exactly two fields, type and factor
            result["yarn"] = f"refused: {str(e)[:80]}"
    for value in result["yarn"].values() if isinstance(result["yarn"], dict) else ():
        value["scale_from_attention_factor"] = round(math.exp((value["attention_factor"] - 1) / 0.1), 6)
    return result


if __name__ == "__main__":
    print(json.dumps(probe()))
