"""LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0) as a harness :class:`Dataset`
Read from ``../shared/datasets/locomo/locomo10.json`` by default (``recallflow eval --locomo
PATH``); never downloaded, never copied into the repository.

* Groups = conversations, in file order; the first five are the **dev** split and the last
  five the **test** split; tuning looks at dev only, so test stays an honest check.
* Documents = dialog turns, text ``"<speaker>: <text>"`` plus ``" [image: <blip_caption>]"``
  when the turn shared an image; the episode is the session and its world time the
  session's ``session_<n>_date_time`` (parsed as UTC).
* Cases = every QA item of categories 1–5 whose evidence resolves to at least one turn
  after :func:`repair_evidence_ids`, the one place the dataset's id quirks are repaired;
  items with none are skipped and counted.
* Anchor = the paper's DRAGON retriever, turn level, all 1,986 questions (Table 3).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recallflow.evaluation.datasets import Anchor, AnchorRow, Case, Category, Document, Group

#: Where the harness expects the file, relative to the repository root.
DEFAULT_PATH = Path("..") / "shared" / "datasets" / "locomo" / "locomo10.json"

#: How many conversations (in file order) form the dev split; the rest are test.
DEV_CONVERSATIONS = 5

_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y")

CATEGORIES: tuple[Category, ...] = (
    Category(id=4, name="single-hop"),
    Category(id=1, name="multi-hop"),
    Category(id=2, name="temporal"),
    Category(id=3, name="open-domain"),
    Category(id=5, name="adversarial"),
)

DRAGON_ANCHOR = Anchor(
    name="DRAGON (LoCoMo paper, Table 3)",
    note=(
        "Published, not measured here: DRAGON retriever, dialog turns as the unit, "
        "all 1,986 questions including category 5."
    ),
    rows=(
        AnchorRow(label="single-hop", values={"r5": 68.0, "r10": 77.7}),
        AnchorRow(label="multi-hop", values={"r5": 35.4, "r10": 46.6}),
        AnchorRow(label="temporal", values={"r5": 70.4, "r10": 77.3}),
        AnchorRow(label="open-domain", values={"r5": 33.1, "r10": 40.8}),
        AnchorRow(label="adversarial", values={"r5": 43.9, "r10": 54.7}),
        AnchorRow(label="1–5", values={"r5": 56.7, "r10": 66.2}),
    ),
)


def repair_evidence_ids(evidence: Iterable[str]) -> tuple[str, ...]:
    """Normalise LoCoMo evidence strings to ``D<session>:<turn>`` ids (the one repair).

    The dataset README lists the quirks: several ids in one string (``"D8:6; D9:17"``,
    ``"D9:1 D4:4 D4:6"``), a leading zero (``"D30:05"``), an extra colon (``"D:11:26"``)
    and a bare ``"D"``. Every match of ``D:?(\\d+):(\\d+)`` becomes ``D<int>:<int>``;
    strings with no match contribute nothing. Order is kept, duplicates dropped. Whether
    an id names a real turn is checked by the caller.
    """
    out: dict[str, None] = {}
    for raw in evidence:
        for session, turn in _EVIDENCE_ID.findall(str(raw)):
            out[f"D{int(session)}:{int(turn)}"] = None
    return tuple(out)


def parse_session_time(text: str) -> datetime:
    """Parse a ``session_<n>_date_time`` value such as ``"1:56 pm on 8 May, 2023"`` (UTC)."""
    cleaned = " ".join(text.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo session time {text!r}")


def turn_text(turn: dict[str, Any]) -> str:
    """``"<speaker>: <text>"`` plus ``" [image: <caption>]"`` when the turn shared an image."""
    text = f"{turn['speaker']}: {turn.get('text', '')}".strip()
    caption = turn.get("blip_caption")
    if caption:
        text += f" [image: {caption}]"
    return text


def _documents(conversation: dict[str, Any]) -> list[Document]:
    sessions = sorted(
        (int(m.group(1)), key)
        for key in conversation
        if (m := _SESSION_KEY.match(key)) and conversation[key]
    )
    documents: list[Document] = []
    for number, key in sessions:
        when = parse_session_time(conversation[f"{key}_date_time"])
        for turn in conversation[key]:
            documents.append(
                Document(
                    id=str(turn["dia_id"]),
                    text=turn_text(turn),
                    speaker=str(turn["speaker"]),
                    episode_id=f"session-{number}",
                    episode_time=when,
                    position=len(documents),
                )
            )
    return documents


def _cases(sample_id: str, qa: Sequence[dict[str, Any]], ids: set[str]) -> tuple[list[Case], int]:
    cases: list[Case] = []
    skipped = 0
    for index, item in enumerate(qa):
        relevant = tuple(i for i in repair_evidence_ids(item.get("evidence") or ()) if i in ids)
        if not relevant:
            skipped += 1
            continue
        cases.append(
            Case(
                id=f"{sample_id}/q{index}",
                query=str(item["question"]),
                relevant=relevant,
                category=int(item["category"]),
            )
        )
    return cases, skipped


class LocomoDataset:
    """LoCoMo's ``locomo10.json`` as a :class:`~recallflow.evaluation.datasets.Dataset`."""

    name = "LoCoMo"
    categories = CATEGORIES

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.aggregates: dict[str, tuple[int, ...]] = {"1–4": (1, 2, 3, 4), "1–5": (1, 2, 3, 4, 5)}
        self.anchor: Anchor | None = DRAGON_ANCHOR
        self._groups: list[Group] | None = None

    def groups(self) -> Sequence[Group]:
        if self._groups is None:
            self._groups = self._load()
        return self._groups

    def _load(self) -> list[Group]:
        samples = json.loads(self.path.read_text(encoding="utf-8"))
        # Judged here, so that a file of another shape is named as such (not an error about
        # string indices), and an empty one is not a run that "measured" no question.
        if not isinstance(samples, list) or not all(isinstance(s, dict) for s in samples):
            raise ValueError("is not a list of LoCoMo conversations, as locomo10.json is")
        if not samples:
            raise ValueError("holds no conversation: there would be nothing to measure")
        groups: list[Group] = []
        for index, sample in enumerate(samples):
            documents = _documents(sample["conversation"])
            cases, skipped = _cases(
                str(sample["sample_id"]), sample.get("qa", ()), {d.id for d in documents}
            )
            groups.append(
                Group(
                    key=str(sample["sample_id"]),
                    split="dev" if index < DEV_CONVERSATIONS else "test",
                    documents=tuple(documents),
                    cases=tuple(cases),
                    skipped_cases=skipped,
                )
            )
        return groups
