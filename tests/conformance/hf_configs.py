"""The conformance suite's data: real-model configs shipped as tests/data/hf_configs/*.json, loaded once.

The suite (this folder) checks ropemath against the packages people run (torch 2.13 CPU, transformers 5.24,
Meta's llama-models reference code, rotary-embedding-torch).  `make conformance` builds its own venv
(.venv-conformance, requirements-conformance.txt) and runs it; in the main venv, where torch is absent,
every test here is skipped with that reason.

References: the models' config.json files on the Hugging Face Hub (each file names its source; provenance, derived
files and what is not shipped: tests/data/hf_configs/README.md).
"""

import json
from pathlib import Path

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
CONFIGS = {p.stem: json.loads(p.read_text()) for p in sorted(DATA.glob("*.json"))}
