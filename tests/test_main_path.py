"""The main path (notebooks 00–08, and the trained-model notebook 12) teaches RoPE, not the project.

Three rules, each with a made-up notebook that breaks it and must be caught:

(a) the Markdown prose of notebooks 00–08 is at most :data:`WORD_BUDGET` words
    (``len(text.split())`` summed over Markdown cells; notebook 12 is not counted);
(b) the Markdown of the main path does not mention the project's checking machinery
    (:data:`FORBIDDEN`), except in one paragraph of notebook 00 that starts with
    :data:`CHECKING_MARKER` and links to the appendix page ``book/checking.md``;
(c) exercises need a prediction: the reference answer (``reference_N = ...`` in the reveal cell)
    does not occur in the exercise's question cell, the three cells before it (Markdown text and
    stored text outputs) or its hint (``hint_N = "..."``); and no two exercises share both their
    answer and their wording;
(d) in notebooks 00, 01, 04 and 06 every call that rotates (``apply_rope``, ``RopeCache``, the attention
    functions) names its pair layout and its ``base=`` or ``theta=``, so it means the same whatever the
    package's defaults.

How an answer "occurs" in text: a number occurs when a number printed in the text lies within the
exercise's tolerance (``tol=`` of its ``check_answer`` call) of it — single-digit integers only when
written as a stated value (``= 4``, ``is 4``, ``: 4``, ``**4**``), since digits such as 0 or 2 appear
everywhere as indices; a sequence of numbers occurs when the same numbers appear in a row; a text
answer occurs as a whole word.  Boolean answers cannot be searched for and are skipped by (c)'s first
half.  Wording is shared when the question texts' sets of words (three letters or more) overlap by at
least :data:`SAME_WORDING` (Jaccard index).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
ALL = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
COUNTED = [p for p in ALL if "00" <= p.name[:2] <= "08"]
MAIN_PATH = COUNTED + [p for p in ALL if p.name.startswith("12_")]
WORD_BUDGET = 21_000
CHECKING_MARKER = "**How this course checks itself.**"
FORBIDDEN = {
    "nbval": re.compile(r"nbval", re.IGNORECASE),
    "tests/": re.compile(r"tests/"),
    "FMA": re.compile(r"\bFMA\b", re.IGNORECASE),
    "AVX": re.compile(r"\bAVX", re.IGNORECASE),
    "BLAS": re.compile(r"\bBLAS\b", re.IGNORECASE),
    "ulp": re.compile(r"\bulps?\b", re.IGNORECASE),
    "negative control": re.compile(r"negative[\s-]+controls?", re.IGNORECASE),
    "earlier version": re.compile(r"earlier\s+version", re.IGNORECASE),
}
SAME_WORDING = 0.5
FLOAT = r"[-+−]?(?:\d{1,3}(?:[,_]\d{3})+(?:\.\d+)?|\d+\.\d+|\.\d+|\d+)(?:[eE][-+]?\d+)?"
NUMBER = re.compile(r"(?<![\w.^])" + FLOAT + r"(?!\w|\.\d)")
STATED = re.compile(r"(?:=|\bis|\bare|\bequals|→|:|\*\*)\s*\**\s*$")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def markdown(nb: dict) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def prose_words(nb: dict) -> int:
    return sum(len(text.split()) for text in markdown(nb))


# ---------------------------------------------------------------- (b) machinery words
def machinery_words(name: str, nb: dict) -> list[str]:
    """Findings: forbidden words in the Markdown, outside the one marked paragraph of notebook 00."""
    findings, exempt_used = [], 0
    for text in markdown(nb):
        for paragraph in re.split(r"\n\s*\n", text):
            if name.startswith("00") and paragraph.lstrip().startswith(CHECKING_MARKER):
                if "book/checking.md" in paragraph:
                    exempt_used += 1
                    continue
            for word, pattern in FORBIDDEN.items():
                if pattern.search(paragraph):
                    findings.append(f"{name}: '{word}' in: {paragraph.strip()[:80]}")
    if exempt_used > 1:
        findings.append(f"{name}: {exempt_used} paragraphs use the checking marker; one is allowed")
    return findings


# ---------------------------------------------------------------- (c) exercises
def _value(node: ast.AST) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return eval(compile(ast.Expression(node), "<reference>", "eval"), {"__builtins__": {}})  # e.g. 2**29


def _assignments(source: str) -> dict[str, ast.AST]:
    try:
        tree = ast.parse("\n".join(line for line in source.splitlines() if not line.lstrip().startswith("%")))
    except SyntaxError:
        return {}
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found[node.targets[0].id] = node.value
    return found


def _cell_text(cell: dict) -> str:
    if cell["cell_type"] == "markdown":
        return "".join(cell["source"])
    parts = []
    for out in cell.get("outputs", []):
        parts.append("".join(out.get("text", "")))
        parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def exercises(nb: dict) -> list[dict]:
    """Every exercise: its number, question text, the text before it, hint, tolerance and reference answer."""
    cells, found = nb["cells"], []
    for index, cell in enumerate(cells):
        source = "".join(cell["source"])
        match = re.search(r"^answer_(\w+)\s*=", source, flags=re.MULTILINE)
        if cell["cell_type"] != "code" or not match or "check_answer(" not in source:
            continue
        tag = match.group(1)
        names = _assignments(source)
        hint = names.get(f"hint_{tag}")
        tol = re.search(r"tol=([^,)]+)", source)
        question_at = max(i for i in range(index) if cells[i]["cell_type"] == "markdown")
        question = "".join(cells[question_at]["source"])
        reference = None
        for later in cells[index + 1:]:
            assigned = _assignments("".join(later["source"])) if later["cell_type"] == "code" else {}
            if f"reference_{tag}" in assigned:
                reference = _value(assigned[f"reference_{tag}"])
                break
        found.append({
            "tag": tag,
            "question": question[question.find("Exercise"):] if "Exercise" in question else question,
            "before": [_cell_text(c) for c in cells[max(0, question_at - 3): question_at + 1]],
            "hint": _value(hint) if hint is not None else "",
            "tol": float(_value(ast.parse(tol.group(1), mode="eval").body)) if tol else 0.0,
            "reference": reference,
        })
    return found


def _numbers(text: str) -> list[tuple[float, str]]:
    """(value, text before it) for every number printed in a text."""
    out = []
    for match in NUMBER.finditer(text):
        token = match.group().replace("−", "-").replace("_", "").replace(",", "")
        try:
            out.append((float(token), text[max(0, match.start() - 12): match.start()]))
        except ValueError:
            continue
    return out


def occurs(answer: object, text: str, tol: float) -> bool:
    """Whether a reference answer is printed in a text (see the module docstring)."""
    if isinstance(answer, bool) or answer is None:
        return False
    if isinstance(answer, str):
        return re.search(rf"(?<!\w){re.escape(answer.strip())}(?!\w)", text, flags=re.IGNORECASE) is not None
    numbers = _numbers(text)
    if isinstance(answer, (int, float)):
        small = float(answer).is_integer() and abs(answer) < 10
        return any(abs(v - answer) <= tol and (not small or STATED.search(before)) for v, before in numbers)
    items = list(answer)
    if not items or not all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in items):
        return any(occurs(a, text, tol) for a in items if not isinstance(a, (int, float)))
    values = [v for v, _ in numbers]
    return any(all(abs(values[s + j] - a) <= tol for j, a in enumerate(items))
               for s in range(len(values) - len(items) + 1))


def answers_shown_early(name: str, nb: dict) -> list[str]:
    findings = []
    for ex in exercises(nb):
        if ex["reference"] is None:
            findings.append(f"{name} exercise {ex['tag']}: no reference_{ex['tag']} in a reveal cell")
            continue
        for where, text in [("the cells before it", t) for t in ex["before"]] + [("its hint", ex["hint"])]:
            if occurs(ex["reference"], text, ex["tol"]):
                findings.append(f"{name} exercise {ex['tag']}: answer {ex['reference']!r} appears in {where}")
                break
    return findings


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{3,}", text.lower()))


def repeated_exercises(named: list[tuple[str, dict]]) -> list[str]:
    """Pairs of exercises (over all given notebooks) with the same answer and overlapping wording."""
    every = [(name, ex) for name, nb in named for ex in exercises(nb)]
    findings = []
    for a in range(len(every)):
        for b in range(a + 1, len(every)):
            (na, ea), (nb_, eb) = every[a], every[b]
            if repr(ea["reference"]) != repr(eb["reference"]):
                continue
            wa, wb = _words(ea["question"]), _words(eb["question"])
            if wa and wb and len(wa & wb) / len(wa | wb) >= SAME_WORDING:
                findings.append(f"{na} exercise {ea['tag']} repeats {nb_} exercise {eb['tag']}")
    return findings


# ---------------------------------------------------------------- tests on the real notebooks
def test_main_path_is_found():
    assert [p.name[:2] for p in COUNTED] == [f"{k:02d}" for k in range(9)]


def test_prose_within_word_budget():
    words = {p.name[:2]: prose_words(load(p)) for p in COUNTED}
    assert sum(words.values()) <= WORD_BUDGET, words


@pytest.mark.parametrize("path", MAIN_PATH, ids=[p.name for p in MAIN_PATH])
def test_no_machinery_words(path):
    assert machinery_words(path.name, load(path)) == []


def test_notebook_00_links_the_checking_appendix_once():
    texts = "\n\n".join(markdown(load(COUNTED[0])))
    marked = [p for p in re.split(r"\n\s*\n", texts) if p.lstrip().startswith(CHECKING_MARKER)]
    assert len(marked) == 1 and "book/checking.md" in marked[0]


@pytest.mark.parametrize("path", MAIN_PATH, ids=[p.name for p in MAIN_PATH])
def test_exercise_answers_not_shown_before(path):
    nb = load(path)
    assert exercises(nb), f"{path.name} has no exercise"
    assert answers_shown_early(path.name, nb) == []


def test_no_two_exercises_share_answer_and_wording():
    assert repeated_exercises([(p.name, load(p)) for p in MAIN_PATH]) == []


# ---------------------------------------------------------------- negative controls: made-up notebooks
def _nb(*cells: tuple[str, str, str]) -> dict:
    """A notebook from (kind, source, stored stdout) triples."""
    nb = nbformat.v4.new_notebook()
    for count, (kind, source, output) in enumerate(cells, 1):
        if kind == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(source))
        else:
            cell = nbformat.v4.new_code_cell(source, execution_count=count)
            if output:
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=output)]
            nb.cells.append(cell)
    return json.loads(nbformat.writes(nb))


def _exercise(question: str, before: str, reference: str, hint: str = "think", tol: str = "0.0",
              printed: str = "") -> dict:
    return _nb(
        ("markdown", before, ""),
        ("code", "print(angle)", printed),
        ("markdown", question, ""),
        ("code", f'answer_1 = ...\nsolution_1 = 1\nhint_1 = "{hint}"\n'
                 f'print(check_answer("exercise 1", answer_1, solution_1, tol={tol}, hint=hint_1))', ""),
        ("markdown", "**Reveal the answer to exercise 1.**", ""),
        ("code", f"reference_1 = {reference}\nprint(reference_1)", ""),
    )


def test_word_budget_says_no():
    long = _nb(("markdown", "word " * (WORD_BUDGET + 1), ""))
    assert prose_words(long) > WORD_BUDGET


def test_machinery_words_say_no():
    bad = _nb(("markdown", "We run nbval; see tests/test_x.py. BLAS and FMA differ by an ulp.", ""),
              ("markdown", "A negative control; an earlier version said otherwise. AVX-512.", ""))
    found = " ".join(machinery_words("03_x.ipynb", bad))
    assert all(f"'{word}'" in found for word in FORBIDDEN)
    link = f"{CHECKING_MARKER} Verdicts and negative controls: [appendix](../book/checking.md)."
    assert machinery_words("00_x.ipynb", _nb(("markdown", link, ""))) == []
    assert machinery_words("01_x.ipynb", _nb(("markdown", link, ""))) != []  # the exemption is 00's only
    unlinked = f"{CHECKING_MARKER} negative controls, no link."
    assert machinery_words("00_x.ipynb", _nb(("markdown", unlinked, ""))) != []
    assert machinery_words("00_x.ipynb", _nb(("markdown", link + "\n\n" + link, ""))) != []


def test_answer_in_the_cells_before_is_caught():
    q = "**Exercise 1.** Where is the hand of pair 2 at m = 1000, in degrees?"
    # printed in an output just above (the clock figure's caption said 213.0°)
    shown = _exercise(q, "The clock.", "213", tol="1.0", printed="pair 2: 213.0 deg\n")
    assert answers_shown_early("00_x", shown) == ["00_x exercise 1: answer 213 appears in the cells before it"]
    # stated in the text, in the hint, or as a sequence
    assert answers_shown_early("00_x", _exercise(q, "It ends at 62.83.", "62.83", tol="0.05")) != []
    assert answers_shown_early("00_x", _exercise(q, "x", "62.83", hint="it is 62.83", tol="0.05")) != []
    assert answers_shown_early("00_x", _exercise(q, "order 0, 2, 4, 1, 3, 5", "[0, 2, 4, 1, 3, 5]")) != []
    assert answers_shown_early("00_x", _exercise(q, "the scores are the same", '"same"')) != []
    assert answers_shown_early("00_x", _exercise(q, "The length is 5.", "5.0")) != []
    # not shown: a different number, a single digit used as an index, an answer three cells further up
    assert answers_shown_early("00_x", _exercise(q, "pair 2 turns at 0.01 rad", "213", tol="1.0")) == []
    assert answers_shown_early("00_x", _exercise(q, "pair 5 and pair 4", "5.0")) == []


def test_repeated_exercise_is_caught():
    q = "**Exercise 1.** How many positions does pair 1 need for one full turn?"
    one, same = _exercise(q, "x", "62.83", tol="0.05"), _exercise(q, "y", "62.83", tol="0.05")
    other = _exercise("**Exercise 1.** What is the score at 2000 and 2007?", "z", "62.83", tol="0.05")
    assert repeated_exercises([("00_x", one), ("03_x", same)]) == ["00_x exercise 1 repeats 03_x exercise 1"]
    assert repeated_exercises([("00_x", one), ("03_x", other)]) == []  # same answer, different question


# ---------------------------------------------------------------- explicit layout and base in notebooks 00, 01, 04, 06
ROTATING = {"apply_rope", "RopeCache", "rope_scores", "rope_softmax_attention", "rope_attention_weights",
            "rope_linear_attention", "rope_linear_attention_prefix", "rope_linear_terms"}
EXPLICIT = [p for p in ALL if p.name[:2] in ("00", "01", "04", "06")]


def implicit_calls(nb: dict) -> list[str]:
    """Calls of the rotating functions that do not pass ``layout=`` (except RopeCache) and ``base=`` or ``theta=``."""
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "\n".join(line for line in "".join(cell["source"]).splitlines() if not line.lstrip().startswith("%"))
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in ROTATING:
                continue
            keywords = {k.arg for k in node.keywords}
            if (name != "RopeCache" and "layout" not in keywords) or not keywords & {"base", "theta"}:
                found.append(f"{name} at line {node.lineno}: {ast.unparse(node)[:60]}")
    return found


@pytest.mark.parametrize("path", EXPLICIT, ids=[p.name for p in EXPLICIT])
def test_rotations_name_layout_and_base(path):
    assert implicit_calls(load(path)) == []


def test_implicit_layout_or_base_is_caught():
    bad = _nb(("code", 'y = apply_rope(x, 3, layout="half")\nz = ropemath.rope_scores(q, k, pos, base=1e4)', ""),
              ("code", "c = RopeCache(64, max_position=8)", ""))
    assert len(implicit_calls(bad)) == 3
    good = _nb(("code", 'y = apply_rope(x, 3, layout="half", theta=t)\nc = RopeCache(64, base=1e4, max_position=9)',
                ""))
    assert implicit_calls(good) == []
