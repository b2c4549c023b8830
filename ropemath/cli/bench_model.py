r"""``ropemath bench --model``: time the numpy Llama forward pass (SmolLM2-135M) against transformers'.

Both read the same GGUF file and run 512 tokens in float32 on the CPU in the same process; the report
gives the loading time, each forward pass's median time, their ratio (goal: numpy at most 1.5x
transformers) and the largest logit difference.  transformers is used only when torch and transformers
are importable (``make conformance`` installs them in ``.venv-conformance``); otherwise only the numpy
side is timed.

.. math:: \text{ratio} = \frac{\operatorname{median} t_{\text{numpy}}}{\operatorname{median} t_{\text{transformers}}}

References: none (project convention; see :mod:`ropemath.cli.dispatch`).
"""

from __future__ import annotations

import importlib.util
import statistics
import time

import numpy as np

from ropemath.models import llama_forward, load_llama, model_path, reading_text

#: the goals: numpy forward at most 1.5x transformers' time; loading at most 10 s
RATIO_GOAL, LOAD_GOAL = 1.5, 10.0


def _median_time(fn, repeats: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def model_bench(tokens: int = 512, repeats: int = 3) -> dict:
    """Time loading and the forward pass of ``tokens`` tokens; the ratio to transformers when it is importable.

    .. math:: \\text{ratio} = t_{\\text{numpy}} / t_{\\text{transformers}}

    >>> model_bench(tokens=0)
    Traceback (most recent call last):
    ...
    ValueError: tokens must be between 2 and 2048, got 0
    """
    if not 2 <= tokens <= 2048:
        raise ValueError(f"tokens must be between 2 and 2048, got {tokens}")
    start = time.perf_counter()
    model, tokenizer = load_llama()
    load_seconds = time.perf_counter() - start
    ids = np.array(tokenizer.encode(reading_text()).ids[:tokens])
    ours = llama_forward(model, ids, layout="interleaved")[0]
    res = {"tokens": tokens, "repeats": repeats, "load_seconds": load_seconds, "load_goal": LOAD_GOAL,
           "numpy_seconds": _median_time(lambda: llama_forward(model, ids, layout="interleaved"), repeats),
           "transformers_seconds": None, "ratio": None, "ratio_goal": RATIO_GOAL, "max_logit_difference": None}
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("transformers") is None:
        return res
    import torch
    from transformers import AutoModelForCausalLM

    path = model_path()
    hf = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name, dtype=torch.float32).eval()
    x = torch.tensor(ids[None])

    def theirs():
        with torch.no_grad():
            return hf(x).logits[0].numpy()

    res["max_logit_difference"] = float(np.max(np.abs(theirs() - ours)))
    res["transformers_seconds"] = _median_time(theirs, repeats)
    res["ratio"] = res["numpy_seconds"] / res["transformers_seconds"]
    return res


def print_report(res: dict) -> None:
    """Print :func:`model_bench`'s result as text.

    .. math:: \\text{met} \\iff \\text{ratio} \\le 1.5

    >>> print_report({"tokens": 4, "repeats": 3, "load_seconds": 1.0, "load_goal": 10.0, "numpy_seconds": 0.5,
    ...               "transformers_seconds": None, "ratio": None, "ratio_goal": 1.5, "max_logit_difference": None})
    <BLANKLINE>
    SmolLM2-135M, 4 tokens, float32, median of 3: loading 1.00 s (goal <= 10 s): met
      numpy forward 0.500 s; transformers not importable (run in .venv-conformance for the ratio)
    """
    met = "met" if res["load_seconds"] <= res["load_goal"] else "MISSED"
    print(f"\nSmolLM2-135M, {res['tokens']} tokens, float32, median of {res['repeats']}: loading "
          f"{res['load_seconds']:.2f} s (goal <= {res['load_goal']:g} s): {met}")
    if res["ratio"] is None:
        print(f"  numpy forward {res['numpy_seconds']:.3f} s; transformers not importable "
              "(run in .venv-conformance for the ratio)")
        return
    met = "met" if res["ratio"] <= res["ratio_goal"] else "MISSED"
    print(f"  numpy forward {res['numpy_seconds']:.3f} s, transformers {res['transformers_seconds']:.3f} s: "
          f"ratio {res['ratio']:.2f} (goal <= {res['ratio_goal']:g}): {met}; "
          f"max |logit difference| {res['max_logit_difference']:.1e}")
