"""The documentation is true: its code runs, its numbers are the policy's, its references
resolve.

- Every ```python block of README.md and docs/*.md runs as written: the blocks of one file
  in order, in one shared namespace, against a fresh embedded PostgreSQL in a temporary
  ``RECALLFLOW_HOME`` with the hashing embedder (``RECALLFLOW_EMBEDDER=hashing``: the
  blocks test the API, not retrieval quality, and MiniLM's load would double the time).
  A failure names the file and the line of the block. A block that is deliberately not
  runnable is fenced as something else (```text, ```sh). Shell blocks are not run: the
  ``recallflow`` commands they show are exercised by tests/test_cli.py, and the rest
  (``make eval``, ``make bench``) take minutes. Each ``recallflow`` command of a shell
  block is parsed here as written, each one named in the prose must name a command and
  flags that exist, and docs/cli.md's table of commands must be the parser's.
- Every ``RECALLFLOW_*`` variable the code reads is in the README's configuration table,
  and every one the docs name is read.
- Every table in docs/architecture.md whose first header cell is ``policy field`` shows
  values of :data:`recallflow.DEFAULT_POLICY`; they are checked here, so the policy stays
  the one source of those numbers. Every policy field the prose names in backticks exists,
  and a number it restates beside one (``sessions.lock_timeout_ms`` (5,000)) is its default
  (the dated history of docs/benchmarks.md and docs/evaluation.md keeps earlier values).
- docs/architecture.md has one section per decision, and every citation of a section
  (``see "Ranking" in docs/architecture.md``) anywhere in the repository names one; every
  link between the pages leads to a file and, with an anchor, to a heading of it.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Iterator
from enum import Enum, IntEnum
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

import recallflow.policy
from recallflow.adapters.postgres.migrate import code_version
from recallflow.evaluation.scenarios import load_scenarios
from recallflow.memory import Memory

ROOT = Path(__file__).resolve().parent.parent
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
ARCHITECTURE = ROOT / "docs" / "architecture.md"

#: The decisions docs/architecture.md explains, one ``##`` section each, in this order.
SECTIONS = (
    "Moments",
    "Hard filters",
    "Transfer across projects",
    "Arms",
    "Subject and entity keys",
    "Fusion",
    "Ranking",
    "Lifecycle and history",
    "Conflicts",
    "Relevance floor",
    "Budgets",
    "Rendering",
    "Trust boundary",
    "The trace",
    "Feedback and corrections",
    "Episodes an agent logs",
    "What memory holds, for the user to see",
    "Sessions",
    "Experiments",
    "Storage",
    "Reliability",
)

_FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")


def fenced_blocks(path: Path) -> list[tuple[str, int, str]]:
    """(language, line of the first code line, code) of every fenced block in ``path``."""
    blocks: list[tuple[str, int, str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        fence, language = opening.groups()
        start = i + 1
        i = start
        while i < len(lines) and lines[i].rstrip() != fence:
            i += 1
        if i == len(lines):
            raise AssertionError(f"{path.name}:{start}: a code fence is never closed")
        blocks.append((language, start + 1, "\n".join(lines[start:i])))
        i += 1
    return blocks


def _python_blocks(path: Path) -> list[tuple[int, str]]:
    return [(line, code) for lang, line, code in fenced_blocks(path) if lang == "python"]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


DOCS_WITH_PYTHON = [doc for doc in DOCS if _python_blocks(doc)]


@pytest.fixture(scope="module")
def docs_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedded server home for the docs; each file's blocks start and stop it."""
    return tmp_path_factory.mktemp("docs-home")


@pytest.fixture
def opened_memories(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Memory]]:
    """Every Memory opened while a test runs; any left open is closed afterwards."""
    opened: list[Memory] = []
    original = Memory.__init__

    def recording_init(self: Memory, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(Memory, "__init__", recording_init)
    try:
        yield opened
    finally:
        for memory in opened:
            memory.close()


def test_the_readme_and_the_architecture_have_runnable_examples() -> None:
    assert {ROOT / "README.md", ARCHITECTURE} <= set(DOCS_WITH_PYTHON)


@pytest.mark.parametrize("doc", DOCS_WITH_PYTHON, ids=_rel)
def test_every_python_block_runs_as_written(
    doc: Path,
    docs_home: Path,
    opened_memories: list[Memory],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALLFLOW_HOME", str(docs_home))
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    monkeypatch.delenv("RECALLFLOW_DSN", raising=False)
    monkeypatch.chdir(tmp_path)  # anything a block writes lands here
    namespace: dict[str, Any] = {"__name__": f"docs_{doc.stem.lower()}"}
    for line, code in _python_blocks(doc):
        # Padding keeps a traceback's line numbers equal to the file's.
        compiled = compile("\n" * (line - 1) + code, str(doc), "exec")
        try:
            exec(compiled, namespace)
        except Exception as exc:
            raise AssertionError(f"the python block at {_rel(doc)}:{line} failed: {exc!r}") from exc
    left_open = [m for m in opened_memories if not m._closed]
    assert not left_open, f"{_rel(doc)} leaves {len(left_open)} Memory open; close it in the doc"
    assert not (docs_home / "pgdata" / "postmaster.pid").exists(), "the server was not stopped"


def test_every_code_fence_names_its_language() -> None:
    bare = [
        where
        for doc in DOCS
        for lang, line, _ in fenced_blocks(doc)
        if not lang
        for where in [f"{_rel(doc)}:{line - 1}"]
    ]
    assert not bare, f"fences without a language (use python, sh or text): {bare}"


# --- the policy tables of docs/architecture.md ------------------------------------------


def _tables(text: str) -> list[list[list[str]]]:
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _unquoted(cell: str) -> str:
    return cell.strip().strip("`")


def _resolve(path: str) -> Any:
    """The value at a policy path like ``budgets[in_turn].max_items``."""
    parts = re.findall(r"(\w+)|\[([^\]]+)\]", path)
    first = parts[0][0]
    if first.isupper():
        value: Any = getattr(recallflow.policy, first)
    else:
        value = getattr(recallflow.policy.DEFAULT_POLICY, first)
    for name, key in parts[1:]:
        if name:
            value = getattr(value, name)
            continue
        mapping = dict(value) if isinstance(value, tuple) else value
        matches = [v for k, v in mapping.items() if str(getattr(k, "value", k)) == key]
        if len(matches) != 1:
            raise KeyError(f"{path}: no key {key!r}")
        value = matches[0]
    return value


def _matches(value: Any, shown: str) -> bool:
    if isinstance(value, bool):
        return shown == ("true" if value else "false")
    if isinstance(value, IntEnum):
        return shown == value.name.lower()
    if isinstance(value, Enum):
        return shown == str(value.value)
    if isinstance(value, int | float):
        return math.isclose(float(shown), float(value))
    if isinstance(value, tuple):
        items = [s.strip() for s in shown.split(",")]
        return len(items) == len(value) and all(map(_matches, value, items))
    return bool(shown == str(value))


def policy_cells(text: str) -> list[tuple[str, str]]:
    """(policy path, value shown) of every value cell of every ``policy field`` table."""
    cells: list[tuple[str, str]] = []
    for header, *rows in _tables(text):
        if header[0] != "policy field":
            continue
        columns = [
            (i, "" if cell == "default" else _unquoted(cell) + ".")
            for i, cell in enumerate(header)
            if i > 0 and (cell == "default" or cell.startswith("`"))
        ]
        assert columns and rows, f"a policy table shows no values: {header}"
        for row in rows:
            cells += [(prefix + _unquoted(row[0]), _unquoted(row[i])) for i, prefix in columns]
    return cells


def test_the_architecture_shows_the_default_policy() -> None:
    cells = policy_cells(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(cells) >= 50  # the tables are there and were read
    wrong = [(path, shown, _resolve(path)) for path, shown in cells]
    wrong = [(path, shown, value) for path, shown, value in wrong if not _matches(value, shown)]
    assert not wrong, f"docs/architecture.md disagrees with DEFAULT_POLICY: {wrong}"


def test_a_policy_table_that_drifts_fails() -> None:
    table = "| policy field | default |\n| --- | --- |\n| `rrf_k` | 61 |\n"
    [(path, shown)] = policy_cells(table)
    assert not _matches(_resolve(path), shown)


# --- policy fields and numbers the prose names -------------------------------------------

#: The first word of a path into the policy, as the prose writes one (``floor.score``,
#: ``sessions.budgets[child].max_items``); a path starting otherwise is not read as one.
_POLICY_HEADS = (
    "floor|limits|sessions|relevance|feedback|retention|writes|penalties|budgets|bands"
    "|state_factor|authority_factor|portability_affinity|admissible_states|arm_weights"
)
_POLICY_PATH = rf"(?:policy\.)?((?:{_POLICY_HEADS})(?:\[[a-z_]+\])?(?:\.[a-z_]+(?:\[[a-z_]+\])?)*)"
#: A number as the prose writes one: ``5,000``, ``0.5``, ``-1.5``, ``2 %``.
_NUMBER = r"(-?\d[\d,]*(?:\.\d+)?)(\s*%)?"
#: ``floor.score`` (0.3), ``sessions.min_window`` (16,000 by default): a field and its
#: value in brackets right after it ...
_QUOTED_AFTER = re.compile(rf"`{_POLICY_PATH}`\s+\({_NUMBER}(?=[)\s,;])")
#: ... or (``replacement_hops``, 8): the field and its value in one bracket. A bare leaf
#: name is allowed here when it names one field of the policy.
_QUOTED_WITHIN = re.compile(r"\(`(?:policy\.)?([a-z_]+(?:\.[a-z_]+)*)`,\s*" + _NUMBER + r"(?=[);])")
#: A placeholder where the prose means every key (``sessions.budgets[kind]``).
_PLACEHOLDERS = {"kind", "moment", "surface", "state", "arm"}
#: Pages whose dated sections record earlier values on purpose.
_HISTORY = {"benchmarks.md", "evaluation.md"}


def _policy_value(path: str) -> Any:
    """The default value at ``path`` in the retrieval policy, else in the episode policy
    (archival search's ``floor.coverage``); ``KeyError`` when neither has it."""
    path = re.sub(r"\[(" + "|".join(_PLACEHOLDERS) + r")\]", "", path)
    for policy in (recallflow.policy.DEFAULT_POLICY, recallflow.policy.DEFAULT_EPISODE_POLICY):
        value: Any = policy
        try:
            for name, key in re.findall(r"(\w+)|\[([^\]]+)\]", path):
                if name:
                    value = getattr(value, name)
                    continue
                mapping = dict(value) if isinstance(value, tuple) else value
                [value] = [v for k, v in mapping.items() if str(getattr(k, "value", k)) == key]
        except (AttributeError, ValueError):
            continue
        return value
    raise KeyError(path)


def _leaf_paths() -> dict[str, list[str]]:
    """Every leaf name of the retrieval policy → the paths that end with it."""
    paths: dict[str, list[str]] = {}

    def walk(model: Any, prefix: str) -> None:
        for name in type(model).model_fields:
            value = getattr(model, name)
            if isinstance(value, BaseModel):
                walk(value, f"{prefix}{name}.")
            else:
                paths.setdefault(name, []).append(prefix + name)

    walk(recallflow.policy.DEFAULT_POLICY, "")
    return paths


def quoted_policy_numbers(text: str) -> list[tuple[int, str, str]]:
    """(line, policy path, number shown) of every value the prose gives beside a field."""
    leaves = _leaf_paths()
    found = []
    for match in [*_QUOTED_AFTER.finditer(text), *_QUOTED_WITHIN.finditer(text)]:
        path, number, percent = match.groups()
        if "." not in path and not re.match(_POLICY_HEADS, path):
            if len(leaves.get(path, ())) != 1:
                continue  # not a field's name, or one several parts of the policy share
            [path] = leaves[path]
        shown = number.replace(",", "")
        if percent:
            shown = str(float(shown) / 100)
        found.append((text.count("\n", 0, match.start()) + 1, path, shown))
    return found


def test_every_policy_field_the_docs_name_exists() -> None:
    """A field the prose names in backticks (``sessions.lock_timeout_ms``) is one a reader
    can set: renamed or moved, it must take its mentions with it."""
    wrong = []
    named = 0
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(rf"`{_POLICY_PATH}`", text):
            if match.group(1).endswith((".py", ".md", ".json")):
                continue  # a file (``sessions.py``), not a field
            named += 1
            try:
                _policy_value(match.group(1))
            except KeyError:
                line = text.count("\n", 0, match.start()) + 1
                wrong.append(f"{_rel(doc)}:{line}: {match.group(1)}")
    assert named >= 150  # the scan read the prose
    assert not wrong, f"policy fields the docs name that the policy does not have: {wrong}"


def test_every_policy_number_the_prose_quotes_is_the_policys() -> None:
    """The tables are checked above; a number the prose restates beside a field's name
    (``sessions.lock_timeout_ms`` (5,000), (``replacement_hops``, 8)) must be its default
    too, so a changed default cannot leave a page telling the old one."""
    wrong = []
    quoted = 0
    for doc in DOCS:
        if doc.name in _HISTORY:
            continue
        for line, path, shown in quoted_policy_numbers(doc.read_text(encoding="utf-8")):
            quoted += 1
            value = _policy_value(path)
            if not _matches(value, shown):
                wrong.append(f"{_rel(doc)}:{line}: {path} shown as {shown}, default {value!r}")
    assert quoted >= 15  # the scan found the prose's numbers
    assert not wrong, wrong


def test_a_quoted_policy_number_that_drifts_fails() -> None:
    text = (
        "waits at most `sessions.lock_timeout_ms` (4,000); looks down the chain"
        " (`replacement_hops`, 9), within `window_share` (3 %)"
    )
    quoted = quoted_policy_numbers(text)
    assert [path for _, path, _ in quoted] == [
        "sessions.lock_timeout_ms",
        "sessions.replacement_hops",
    ]  # a leaf several parts share (window_share: each budget's) is not guessed
    assert not any(_matches(_policy_value(path), shown) for _, path, shown in quoted)


# --- sections and the citations of them --------------------------------------------------


def _sections() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    return re.findall(r"^## (.+?)\s*$", text, flags=re.MULTILINE)


def test_the_architecture_has_one_section_per_decision_in_order() -> None:
    assert tuple(_sections()) == SECTIONS


_CITATION = re.compile(r'"([^"\n]{3,60})"\s+in\s+(?:#\s*)?\[?(?:docs/)?architecture\.md')
_ANCHOR = re.compile(r"architecture\.md#([a-z0-9-]+)")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def test_every_citation_of_a_section_names_one() -> None:
    sections = set(_sections())
    anchors = {_slug(s) for s in sections}
    files = [
        *DOCS,
        *(p for d in ("recallflow", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py")),
    ]
    cited = 0
    broken = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        for title in _CITATION.findall(text):
            cited += 1
            if title not in sections:
                broken.append(f"{_rel(path)}: {title!r}")
        for anchor in _ANCHOR.findall(text):
            cited += 1
            if anchor not in anchors:
                broken.append(f"{_rel(path)}: #{anchor}")
    assert cited > 0
    assert not broken, f"citations of sections docs/architecture.md does not have: {broken}"


#: A Markdown link: ``[text](target)``.
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def broken_links(doc: Path) -> list[str]:
    """The relative links of ``doc`` that name no file, or a heading its page lacks."""
    text = doc.read_text(encoding="utf-8")
    broken = []
    for match in _LINK.finditer(text):
        target = match.group(1)
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        page = (doc.parent / path).resolve() if path else doc.resolve()
        line = text.count("\n", 0, match.start()) + 1
        if not page.exists():
            broken.append(f"{doc.name}:{line}: {target} (no such file)")
        elif anchor and page.suffix == ".md":
            headings = re.findall(r"^#+ (.+?)\s*$", page.read_text(encoding="utf-8"), re.M)
            if anchor not in {_slug(h) for h in headings}:
                broken.append(f"{doc.name}:{line}: {target} (no such heading)")
    return broken


def test_every_link_of_the_docs_resolves(tmp_path: Path) -> None:
    """A link from one page to another (``[corrections.md](corrections.md)``, with or
    without a heading's anchor) leads somewhere: a page renamed or a heading reworded must
    take its links with it."""
    assert sum(len(_LINK.findall(doc.read_text(encoding="utf-8"))) for doc in DOCS) >= 20
    assert not [where for doc in DOCS for where in broken_links(doc)]
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[a](page.md#title) [b](gone.md) [c](#no-such-heading)\n")
    assert [w.split(": ", 1)[1] for w in broken_links(page)] == [
        "gone.md (no such file)",
        "#no-such-heading (no such heading)",
    ]


#: A quoted title followed by the document it is in: ``"The floor" in docs/benchmarks.md``,
#: wrapped across lines (and comment markers) as prose and docstrings wrap it.
_DOC_CITATION = re.compile(
    r'"([^"]{3,240}?)"\s*,?\s+(?:in|of)\s+(?:the\s+)?\[?(?:docs/)?([A-Za-z_-]+\.md)\b'
)
#: A bold run-in label (``**Why rank by reciprocal rank?**``) is cited like a heading.
_LABEL = re.compile(r"\*\*([^*\n]{3,240}?)\.?\*\*")


def _titles(path: Path) -> list[str]:
    """What a citation of ``path`` may name: its headings and its bold run-in labels."""
    text = path.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+?)\s*$", text, flags=re.MULTILINE)
    return [*headings, *(label.rstrip(".") for label in _LABEL.findall(text))]


def _names(title: str, titles: list[str]) -> bool:
    """Whether ``title`` is one of ``titles``, or the start of one before its date or
    subtitle ("The 1M run" names "The 1M run (2026-12-04)")."""
    return any(t == title or re.match(re.escape(title) + r"\s*[(:;,]", t) for t in titles)


def test_every_citation_of_a_heading_in_another_document_names_one() -> None:
    """A reader who follows ``see "…" in docs/x.md`` finds that heading: a section renamed
    (a date added to it, "this round" replaced) must take its citations with it."""
    targets = {p.name: p for p in DOCS}
    files = [
        *DOCS,
        *(p for d in ("recallflow", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py")),
    ]
    titles = {name: _titles(path) for name, path in targets.items()}
    cited = 0
    broken = []
    for path in files:
        for raw, doc in _DOC_CITATION.findall(path.read_text(encoding="utf-8")):
            title = re.sub(r"\s+", " ", re.sub(r"\n\s*#?", " ", raw)).strip()
            cited += 1
            if doc not in titles:
                broken.append(f"{_rel(path)}: {doc} (no such document)")
            elif not _names(title, titles[doc]):
                broken.append(f"{_rel(path)}: {title!r} in {doc}")
    assert cited > 100
    assert not broken, f"citations of headings their document does not have: {broken}"


def test_every_scenario_covers_sections_of_the_architecture() -> None:
    sections = set(_sections())
    scenarios = load_scenarios(ROOT / "benchmarks" / "scenarios")
    assert scenarios
    for scenario in scenarios:
        assert scenario.covers, scenario.name
        assert set(scenario.covers) <= sections, (scenario.name, scenario.covers)


# --- the environment: every variable read is documented, every one documented is read ---

#: A name the code reads a variable by: the literal, or a constant spelled in full.
_ENV_NAME = re.compile(r"\bRECALLFLOW_[A-Z0-9_]*[A-Z0-9]\b")


def _configuration_table() -> dict[str, list[str]]:
    """The README's table of every environment variable: name → its row's cells (a row
    may name several)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [row for table in _tables(section) for row in table if row[0] != "variable"]
    return {name: row for row in rows for name in _ENV_NAME.findall(row[0])}


def _variables_in(paths: list[Path]) -> dict[str, str]:
    """Every ``RECALLFLOW_*`` name in the code of ``paths`` → the first file naming it."""
    found: dict[str, str] = {}
    for path in paths:
        for name in _ENV_NAME.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, _rel(path))
    return found


def test_every_environment_variable_the_code_reads_is_in_the_readme() -> None:
    """The README's configuration table says it lists every variable recallflow reads: one
    read by the library, the command, the benchmarks or the test suite and missing there is
    a setting no user can find; one listed and read nowhere is a setting that does nothing."""
    code = [
        p
        for d in ("recallflow", "benchmarks", "tests")
        for p in sorted((ROOT / d).rglob("*.py"))
        if p != Path(__file__).resolve()
    ]
    read = _variables_in([*code, ROOT / "Makefile"])
    listed = _configuration_table()
    assert len(read) >= 8  # the scan found the code's reads
    assert not sorted(set(read) - set(listed)), {n: read[n] for n in set(read) - set(listed)}
    assert not sorted(set(listed) - set(read)), "listed in README.md but read nowhere"
    documented = _variables_in(list(DOCS))
    assert not sorted(set(documented) - set(read)), "named in the docs but read nowhere"


# --- the command line: what docs/cli.md and the shell examples show exists ---------------


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name: sub for action in actions for name, sub in action.choices.items()}


def _commands(
    parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every command the parser runs (``("session", "open")``, ...) → its parser."""
    subs = _subparsers(parser)
    if not subs:
        return {words: parser}
    return {k: v for name, sub in subs.items() for k, v in _commands(sub, (*words, name)).items()}


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def test_every_command_in_the_cli_table_exists_with_the_flags_it_lists() -> None:
    """docs/cli.md's table of commands is the command line as built: each row's command
    and every flag it lists exist, and every command the parser runs has a row."""
    from recallflow.cli.main import build_parser

    commands = _commands(build_parser())
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## Commands", 1)[1].split("\n## ", 1)[0]
    [table] = _tables(section)
    documented: set[tuple[str, ...]] = set()
    wrong = []
    for row in table[1:]:
        shown = _unquoted(row[0]).split()
        assert shown[0] == "recallflow", row[0]
        words = tuple(w for w in shown[1:] if re.fullmatch(r"[a-z][a-z_-]*", w))
        if not words:  # ``recallflow --version``
            continue
        documented.add(words)
        if words not in commands:
            wrong.append(f"{' '.join(words)}: no such command")
            continue
        listed = {f for cell in (row[0], row[2]) for f in re.findall(r"`(--[a-z][a-z-]*)", cell)}
        listed |= {w for w in shown if w.startswith("--")}
        wrong += [f"{' '.join(words)} {f}: no such flag" for f in listed - _flags(commands[words])]
    assert len(documented) >= 15  # the table was read
    assert not wrong, wrong
    assert not sorted(set(commands) - documented), "commands docs/cli.md does not list"


def _shell_commands() -> list[tuple[str, str]]:
    """(where, command line) of every ``recallflow`` command in a shell block of the docs."""
    shown: list[tuple[str, str]] = []
    for doc in DOCS:
        for lang, line, code in fenced_blocks(doc):
            if lang not in ("sh", "bash", "console", "shell"):
                continue
            pending, first = "", line  # a command continued on the next line (``\\``)
            for i, raw in enumerate(code.splitlines()):
                text = raw.rstrip()
                if not pending:
                    first = line + i
                pending += text.removesuffix("\\") + " "
                if text.endswith("\\"):
                    continue
                command, pending = pending.split("|")[0].strip(), ""
                if command.startswith("recallflow "):
                    shown.append((f"{_rel(doc)}:{first}", command))
    return shown


def test_every_recallflow_command_in_a_shell_block_runs_as_written() -> None:
    """A command copied from a shell example is one the command line takes as it is: its
    subcommand, its flags, their values and the arguments it needs (an id shown as
    ``tr-...`` is a valid identifier)."""
    import shlex

    from recallflow.cli.main import build_parser

    shown = _shell_commands()
    assert len(shown) >= 20
    refused = []
    for where, command in shown:
        try:
            build_parser().parse_args(shlex.split(command, comments=True)[1:])
        except SystemExit as stop:
            if stop.code:
                refused.append(f"{where}: {command}")
    assert not refused, refused


def test_every_recallflow_command_named_in_the_prose_exists() -> None:
    """``recallflow eval --split dev`` in a sentence names a command and flags that exist
    (the values and the arguments it leaves out are the sentence's business)."""
    from recallflow.cli.main import build_parser

    commands = _commands(build_parser())
    named = 0
    wrong = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"`recallflow ((?:[a-z][a-z_-]* ?)+)([^`]*)`", text):
            words = tuple(match.group(1).split())
            while words and words not in commands:
                words = words[:-1]  # a trailing word is an argument (``graph in_turn``)
            where = f"{_rel(doc)}:{text.count(chr(10), 0, match.start()) + 1}"
            named += 1
            if not words:
                wrong.append(f"{where}: {match.group(0)}: no such command")
                continue
            flags = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", match.group(0)))
            wrong += [f"{where}: {match.group(0)}: no {f}" for f in flags - _flags(commands[words])]
    assert named >= 30
    assert not wrong, wrong


def release_numbers(text: str) -> list[str]:
    """Every schema version a text gives for this release: the ``recallflow/N`` of a
    connection's name and the ``< N`` that ends earlier releases' connections."""
    return re.findall(r"recallflow/(\d+)", text) + re.findall(r"::int < (\d+)", text)


def test_the_upgrade_steps_name_this_releases_schema_version() -> None:
    """The operator's steps for ending an earlier release's connections name the version
    this code writes in every connection's name: one behind, the query spares the release
    just before this one, and the upgrade it is there to unblock keeps waiting."""
    numbers = release_numbers((ROOT / "docs" / "operations.md").read_text())
    assert numbers, "docs/operations.md no longer shows a release's connection name"
    assert set(numbers) == {str(code_version())}
