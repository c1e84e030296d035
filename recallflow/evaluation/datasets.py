"""The dataset protocol of the harness: what a retrieval dataset must provide so the
runner can evaluate it without knowing where it came from.

A :class:`Dataset` is a list of :class:`Group` s. A group is one isolated corpus (for
LoCoMo: one conversation) that becomes one principal in the store; its
:class:`Document` s are the retrieval units (beliefs) and its :class:`Case` s the
questions, each with the ids of its relevant documents. Documents belong to episodes
(sessions) with a world time, which is what ingestion needs to build episodes and edges.
A dataset also names its categories, the aggregates the report shows, and optionally a
published anchor to print beside the measured numbers.

To plug a new dataset in, implement :class:`Dataset` (a ``typing.Protocol``); nothing in
the runner changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

Split = Literal["dev", "test"]
SplitChoice = Literal["dev", "test", "all"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Document(_Frozen):
    """One retrieval unit (becomes one belief)."""

    id: str = Field(description="Id unique within its group, as the dataset's labels use it.")
    text: str = Field(min_length=1, description="What is stored and embedded.")
    speaker: str | None = Field(default=None, description="Who said it, when known.")
    episode_id: str = Field(description="The episode (session) it belongs to.")
    episode_time: datetime = Field(description="World time of the episode (timezone-aware).")
    position: int = Field(ge=0, description="Order within the group (for `follows` edges).")


class Case(_Frozen):
    """One question and the documents that answer it."""

    id: str
    query: str = Field(min_length=1)
    relevant: tuple[str, ...] = Field(min_length=1, description="Ids of relevant documents.")
    category: int


class Group(_Frozen):
    """One isolated corpus with its questions; one principal in the store."""

    key: str = Field(description="Stable key, e.g. the conversation id.")
    split: Split
    documents: tuple[Document, ...]
    cases: tuple[Case, ...]
    skipped_cases: int = Field(default=0, ge=0, description="Cases without resolvable labels.")


class Category(_Frozen):
    """A question category and the name the report shows."""

    id: int
    name: str


class AnchorRow(_Frozen):
    """Published numbers for one category or aggregate, in percent."""

    label: str
    values: dict[str, float] = Field(description="Metric key (r5, r10, ...) to value in %.")


class Anchor(_Frozen):
    """A published reference result, printed beside the measured numbers."""

    name: str
    note: str
    rows: tuple[AnchorRow, ...]


class Dataset(Protocol):
    """What the runner needs from a dataset."""

    @property
    def name(self) -> str:
        """Short name used in the report."""
        ...

    @property
    def categories(self) -> tuple[Category, ...]:
        """Every category, in report order."""
        ...

    @property
    def aggregates(self) -> dict[str, tuple[int, ...]]:
        """Named sets of categories the report aggregates over (headline first)."""
        ...

    @property
    def anchor(self) -> Anchor | None:
        """A published reference result, if any."""
        ...

    def groups(self) -> Sequence[Group]:
        """Every group, in the dataset's order."""
        ...


class InMemoryDataset(_Frozen):
    """A dataset held in memory (tests, small custom sets); satisfies :class:`Dataset`."""

    name: str
    categories: tuple[Category, ...]
    aggregates: dict[str, tuple[int, ...]]
    anchor: Anchor | None = None
    group_list: tuple[Group, ...]

    def groups(self) -> Sequence[Group]:
        return self.group_list


def select_groups(
    groups: Sequence[Group], *, split: SplitChoice = "all", limit: int | None = None
) -> list[Group]:
    """The groups of ``split`` (``all`` keeps both), the first ``limit`` of them if given."""
    chosen = [g for g in groups if split == "all" or g.split == split]
    return chosen if limit is None else chosen[:limit]
