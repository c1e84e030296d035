"""What the ``belief_history`` tool shows of a belief's history on one surface, pure (see
"The tools" in docs/tools.md and "Trust boundary" in docs/architecture.md).

The history itself (:class:`~recallflow.models.history.BeliefHistory`) is the principal's
whole record; a tool answers a model on a bound surface, so what reaches it is filtered
the way a recall's block is:

- a belief above the surface's ceiling is not found, exactly like a missing one;
- another belief of its chain above the ceiling is withheld: its place, state and
  validity stay, its id and statement do not, and no event names it;
- a citation's or a rejection's recall shown on a surface that may show more than this
  one keeps its kind and time, not its trace id or the user's note; no other text of the
  history names a recall this surface may not name either (a rejection's lifecycle event
  records its trace id in its reason);
- a project name the policy ranks above the ceiling is ``[redacted]``, and so is a
  marked entity's name in any text;
- every statement, reason and note is scanned as recalled text is: one that reads as
  instructions is ``[BLOCKED]``, and the rest is made inert as a block line is.
"""

from __future__ import annotations

import re

from recallflow.core.lifecycle import not_found
from recallflow.core.redaction import NameRedaction, Redactor
from recallflow.core.render import BLOCKED, inert
from recallflow.ingestion import generated_ids
from recallflow.models.history import BeliefHistory, ChainLink, HistoryEvent
from recallflow.models.store import Sensitivity
from recallflow.models.trace_view import REDACTED
from recallflow.policy import SURFACE_CEILINGS, RetrievalPolicy
from recallflow.ports import InjectionScanner
from recallflow.tools.results import BeliefHistoryView, HistoryEventView, HistoryLinkView

#: A recall's trace id in a text.
_TRACE_IDS = generated_ids("tr")


class ShownText:
    """How a text of memory is shown to a model on one surface: a belief's history here,
    and what memory holds (:mod:`recallflow.tools.listing`)."""

    def __init__(
        self,
        scanner: InjectionScanner,
        names: NameRedaction,
        ceiling: Sensitivity,
        policy: RetrievalPolicy,
        traces: frozenset[str] = frozenset(),
    ) -> None:
        self._scanner = scanner
        self._traces = traces
        self._ceiling = ceiling
        self._policy = policy
        self._redact = Redactor.of(names, ceiling)
        hidden = sorted(
            (p for p, level in policy.project_sensitivity.items() if level > ceiling),
            key=len,
            reverse=True,
        )
        self._projects = (
            re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, hidden)) + r")(?![\w-])")
            if hidden
            else None
        )

    def project(self, name: str | None) -> str | None:
        """A project field: its name as a recall's origin is judged (the policy's
        ``name_sensitivity`` against the ceiling)."""
        return name if self._policy.name_sensitivity(name) <= self._ceiling else REDACTED

    def text(self, value: str) -> str:
        if self._scanner.scan(value) is not None:
            return BLOCKED
        text = self._redact(value)[0]
        # A recall is named only where its event may name it: default deny, so a trace id
        # whose event is past the kept ones, or gone, is withheld too.
        text = _TRACE_IDS.sub(lambda m: m[0] if m[0] in self._traces else REDACTED, text)
        if self._projects is not None:
            text = self._projects.sub(REDACTED, text)
        return inert(text)


def history_view(
    history: BeliefHistory,
    ceiling: Sensitivity,
    scanner: InjectionScanner,
    names: NameRedaction,
    policy: RetrievalPolicy,
) -> BeliefHistoryView:
    """``history`` as a surface with ``ceiling`` may show it.

    :raises NotFoundError: the belief is above the ceiling (the message of a missing id).
    """
    b = history.belief
    if b.sensitivity > ceiling:
        raise not_found(b.tenant_id, b.principal_id, b.id)

    def recall_seen(e: HistoryEvent) -> bool:
        """Whether the recall of a citation or rejection may be named on this surface."""
        return e.surface is not None and SURFACE_CEILINGS[e.surface] <= ceiling

    named = frozenset(e.trace_id for e in history.events if e.trace_id and recall_seen(e))
    shown = ShownText(scanner, names, ceiling, policy, named)
    visible = {b.id} | {
        link.id
        for link in (*history.predecessors, *history.successors)
        if link.sensitivity <= ceiling
    }

    def link_view(link: ChainLink) -> HistoryLinkView:
        withheld = link.id not in visible
        return HistoryLinkView(
            belief_id=None if withheld else link.id,
            hops=link.hops,
            state=link.state.value,
            valid_from=link.valid_from,
            valid_to=link.valid_to,
            statement=None if withheld else shown.text(link.statement),
            withheld=withheld,
        )

    def event_view(e: HistoryEvent) -> HistoryEventView:
        # A recall shown where more may be seen than here is not this surface's to name.
        seen = recall_seen(e)
        return HistoryEventView(
            kind=e.kind.value,
            at=e.at,
            effective_at=e.effective_at,
            related_id=e.related_id if e.related_id in visible else None,
            project=shown.project(e.project),
            trace_id=e.trace_id if seen else None,
            reason=None if e.reason is None else shown.text(e.reason),
            note=shown.text(e.note) if seen and e.note is not None else None,
        )

    # A belief cited on every turn has an event a turn: the model reads the latest ones.
    keep = policy.feedback.history_events
    return BeliefHistoryView(
        belief_id=b.id,
        statement=shown.text(b.statement),
        state=b.state.value,
        valid_from=b.valid_from,
        valid_to=b.valid_to,
        recorded_at=b.recorded_at,
        retracted_at=b.retracted_at,
        predecessors=[link_view(link) for link in history.predecessors],
        successors=[link_view(link) for link in history.successors],
        more_predecessors=history.more_predecessors,
        more_successors=history.more_successors,
        events=[event_view(e) for e in history.events[-keep:]],
        earlier_events=history.earlier_events + max(0, len(history.events) - keep),
    )
