"""ropemath's numpy Llama forward pass against transformers on the same GGUF file (SmolLM2-135M-Instruct, Q4_1).

transformers loads the file with ``from_pretrained(..., gguf_file=...)``: it dequantizes the same blocks with the
``gguf`` package, undoes llama.cpp's per-head permutation of W_q and W_k, and rotates with ``rotate_half``;
ropemath keeps the file's rows and rotates adjacent (interleaved) pairs.  Both run in float32.

The bound: logits agree to ``ATOL`` = 2e-3 absolute (logits here are of size 10-30; float32 sums over 30 layers
in two different orders, and transformers' float32 angles against ropemath's float64 ones at positions < 128,
differ by about 1e-4).  Negative control: the half layout on the file's rows misses by more than 1,
orders of magnitude beyond the bound.  The token ids equal those of transformers' tokenizer for the file, and
the header parsed with ``struct`` equals what ``gguf.GGUFReader`` reads.
"""

import numpy as np
import pytest

pytest.importorskip("torch", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("transformers", reason="the conformance extra is not installed: run `make conformance`")
pytest.importorskip("gguf", reason="the conformance extra is not installed: run `make conformance`")
WARNINGS = ("DeprecationWarning", "FutureWarning", "UserWarning")
pytestmark = [pytest.mark.filterwarnings(f"ignore::{w}") for w in WARNINGS]

import gguf
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

from ropemath.models import load_llama, model_path, reading_text
from ropemath.models.gguf_file import read_header, read_tensor
from ropemath.models.llama import llama_forward

ATOL = 2e-3
#: a second text, written for this test (MIT, like the project)
SECOND_TEXT = (
    "The lighthouse keeper climbed the stairs every evening at dusk. She counted the steps aloud, one hundred "
    "and twelve of them, and at the top she wiped the salt from the glass before lighting the lamp. Ships far "
    "out at sea saw the beam turn slowly, once every ten seconds, and knew where the rocks were."
)


@pytest.fixture(scope="module")
def ours():
    return load_llama()


@pytest.fixture(scope="module")
def theirs():
    path = model_path()
    model = AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name, dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    return model.eval(), tokenizer


def texts():
    return {"python docs": reading_text()[:1500], "lighthouse": SECOND_TEXT}


@pytest.mark.parametrize("name", ["python docs", "lighthouse"])
def test_token_ids_equal_transformers_tokenizer(ours, theirs, name):
    text = texts()[name]
    assert ours[1].encode(text).ids == theirs[1](text, add_special_tokens=False)["input_ids"]


@pytest.mark.parametrize("name", ["python docs", "lighthouse"])
def test_logits_equal_transformers_and_the_wrong_layout_does_not(ours, theirs, name):
    model, tok = ours
    ids = np.array(tok.encode(texts()[name]).ids[:128])
    with torch.no_grad():
        expected = theirs[0](torch.tensor(ids[None])).logits[0].numpy()
    logits, _ = llama_forward(model, ids, layout="interleaved")
    error = float(np.max(np.abs(logits - expected)))
    assert error < ATOL, f"{name}: max |Δlogit| = {error:.2e}"
    wrong, _ = llama_forward(model, ids, layout="half")
    assert np.max(np.abs(wrong - expected)) > 1.0 > 100 * ATOL


def test_header_and_blocks_equal_gguf_reader():
    path = model_path()
    contents = read_header(path)
    reader = gguf.GGUFReader(path)
    for key in ("llama.rope.freq_base", "llama.rope.dimension_count", "llama.block_count", "tokenizer.ggml.model"):
        assert contents.metadata[key] == reader.fields[key].contents()
    merges = reader.fields["tokenizer.ggml.merges"].contents()
    assert list(contents.metadata["tokenizer.ggml.merges"]) == merges
    names = ("blk.7.attn_q.weight", "blk.7.attn_k.weight", "token_embd.weight", "output_norm.weight")
    expected = {t.name: gguf.dequantize(t.data, t.tensor_type) for t in reader.tensors if t.name in names}
    for name in names:
        assert np.array_equal(read_tensor(path, contents, name), expected[name])
    wrong = read_tensor(path, contents, "blk.8.attn_k.weight")  # negative control: another layer's rows
    assert not np.array_equal(wrong, expected["blk.7.attn_k.weight"])
