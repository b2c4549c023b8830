"""The conformance suite: ropemath against the packages people run (torch 2.13 CPU, transformers 5.x,
Meta's llama-models reference code, rotary-embedding-torch).  `make conformance` builds its own venv
(.venv-conformance, requirements-conformance.txt) and runs this folder; in the main venv, where torch is
absent, every test here is skipped with that reason.

References: Hugging Face transformers ``modeling_rope_utils.py``, ``models/llama``, ``models/gptj``;
Meta ``llama_models.llama3.model``; lucidrains ``rotary_embedding_torch``.
"""

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
CONFIGS = {p.stem: json.loads(p.read_text()) for p in sorted(DATA.glob("*.json"))}


def pytest_collection_modifyitems(config, items):
    for item in items:  # transformers and torch emit deprecation warnings we do not own
        item.add_marker(pytest.mark.filterwarnings("ignore::DeprecationWarning"))
        item.add_marker(pytest.mark.filterwarnings("ignore::FutureWarning"))
        item.add_marker(pytest.mark.filterwarnings("ignore::UserWarning"))
