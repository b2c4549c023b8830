"""The conformance suite's data: the model configs shipped in ropemath/models/published_configs, loaded once.

The suite (this folder) checks ropemath against the packages people run (torch 2.13 CPU, transformers 5.24,
Meta's llama-models reference code, rotary-embedding-torch).  `make conformance` builds its own venv
(.venv-conformance, requirements-conformance.txt) and runs it; in the main venv, where torch is absent,
every test here is skipped with that reason.

References: the models' config.json files on the Hugging Face Hub (provenance, derived files and what is not
shipped: ropemath/models/published_configs/README.md).
"""

from ropemath import published_config
from ropemath.models.config import PUBLISHED

CONFIGS = {p.stem: published_config(p.stem) for p in sorted(PUBLISHED.glob("*.json"))}
