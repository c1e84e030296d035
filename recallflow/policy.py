"""The retrieval policy: which arms run and how their votes are fused, the ranking
function's weight vectors, the relevance floor, the budgets, the bands and every limit an
arm works within.

Every tunable number of a recall lives here and nowhere else, so that its
:attr:`RetrievalPolicy.version` (a hash of the policy's content, recorded as
``retrieval_policy_version`` in every trace) says exactly which numbers produced a block.
The policy is frozen all the way down (nested models are frozen, mappings are
:class:`FrozenMapping`), so a policy cannot change behind a version already handed out.
Derive a variant with ``policy.model_copy(update=...)``, which validates the update like
construction does. The ranking function itself is documented beside its code, in
:mod:`recallflow.core.scoring`.

Named recipes (the default policy and the ablations) are at the end of this module.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Callable, Iterator, Mapping
from enum import StrEnum
from typing import Annotated, Any, Self, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    WrapSerializer,
    field_validator,
    model_validator,
)

from recallflow.core.calibration import CalibrationRef
from recallflow.models.fields import of_their_kinds
from recallflow.models.request import Moment, Surface
from recallflow.models.result import Arm as Arm  # re-exported: the policy names its arms
from recallflow.models.result import ConfidenceBand
from recallflow.models.session import SessionKind
from recallflow.models.store import (
    BeliefType,
    LifecycleState,
    Portability,
    Sensitivity,
    SourceAuthority,
)

K = TypeVar("K")
V = TypeVar("V")


class FrozenMapping(Mapping[K, V]):
    """A read-only mapping: ``m[key] = value`` raises ``TypeError``. Unlike
    ``types.MappingProxyType`` it can be copied and pickled with the policy that holds it."""

    def __init__(self, data: Mapping[K, V]) -> None:
        self._data = dict(data)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    # The dict's own look-ups: ``Mapping``'s inherited ones go through ``__getitem__`` and
    # an exception handler, some 0.3 µs per read on the ranking path.
    def get(self, key: K, default: Any = None) -> Any:
        return self._data.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMapping({self._data!r})"


def _frozen(value: Mapping[K, V]) -> FrozenMapping[K, V]:
    return FrozenMapping(value)


def _as_dict(value: Mapping[K, V], handler: SerializerFunctionWrapHandler) -> Any:
    return handler(dict(value))


#: A mapping field of the policy: validated key by key, stored read-only, dumped as a dict.
FrozenMap = Annotated[Mapping[K, V], AfterValidator(_frozen), WrapSerializer(_as_dict)]

#: The sensitivity ceiling of each surface: part of the isolation boundary (the hard
#: filter), not a tuning knob, so it is not in the policy's content; read-only.
SURFACE_CEILINGS: Mapping[Surface, Sensitivity] = FrozenMapping(
    {
        Surface.VAULT: Sensitivity.SECRET,
        Surface.DIRECT: Sensitivity.PERSONAL,
        Surface.TEAM: Sensitivity.INTERNAL,
        Surface.PUBLIC: Sensitivity.PUBLIC,
    }
)


class Ranking(StrEnum):
    """Which implementation of the scoring node a policy selects (``@config.when``)."""

    HAND_WEIGHTED = "hand_weighted"
    MATCH_ONLY = "match_only"


class _Frozen(BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="forbid", validate_default=True, allow_inf_nan=False
    )

    @model_validator(mode="before")
    @classmethod
    def _of_their_kinds(cls, data: Any) -> Any:
        """Numbers, flags and lists given as what they are, as in every input model (a cap
        of ``True``, a switch of ``"false"`` or a set of arms is refused, not converted)."""
        return of_their_kinds(cls, data)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied and validated as at construction.

        (pydantic's own ``model_copy`` skips validation, so a misspelt arm would be kept
        silently and a plain dict would make the copy mutable.)
        """
        copied = super().model_copy(deep=deep)
        if not update:
            return copied
        fields = {name: getattr(copied, name) for name in type(self).model_fields}
        return self.model_validate({**fields, **update})


class Weights(_Frozen):
    """One weight vector over the ranking function's features (they sum to 1)."""

    match: float = Field(ge=0)
    relevance: float = Field(default=0.0, ge=0)
    confidence_state: float = Field(ge=0)
    corroboration: float = Field(ge=0)
    authority: float = Field(ge=0)
    scope_affinity: float = Field(ge=0)
    utility: float = Field(ge=0)


class Penalties(_Frozen):
    """Additive penalties (negative numbers) of the ranking function."""

    provisional: float = -0.08
    flagged: float = -0.10
    transferred_uncorroborated: float = -0.04
    conflicted: float = -0.02
    local_outside_origin: float = -1.0


class Budget(_Frozen):
    """An absolute item and token cap, the token cap also bounded by a share of the window."""

    max_items: int = Field(ge=0)
    max_tokens: int = Field(ge=0)
    window_share: float = Field(default=0.02, gt=0, le=1)


class FloorOdds(_Frozen):
    """The floor's last cut: the estimated log-odds that a candidate within the floor's
    distances is evidence the question needs, from what the floor already reads — how far
    under the best clearing score it is, its place among the candidates within the
    distances before it (a goal listing several things gives each of them a first place)
    and the neighbour support it has — and the least probability a kept candidate must
    have. A clear single answer stands alone at the top (what follows is far under it and
    late), so the block is small; a question whose parts score close together keeps them
    (see "Relevance floor" in docs/architecture.md). Fitted on the LoCoMo dev split's
    evidence labels (a logistic model, each question weighing 1 in all); ``min_probability``
    is set again when the ranking improves (a better ranking buys a smaller block): the
    highest at which every scenario request still keeps its parts; 0 turns the cut off."""

    intercept: float = Field(default=-0.68, description="Log-odds at the best score, first place.")
    distance: float = Field(
        default=-8.31, description="Log-odds per unit of score under the best clearing score."
    )
    place: float = Field(
        default=-1.25,
        description="Log-odds per unit of ln(1 + place), the place counted from 0 among the"
        " candidates within the distances before this one, less the goal's parts but one.",
    )
    support: float = Field(
        default=1.07,
        description="Log-odds per unit of neighbour support (the best linked candidate's own"
        " relevance times the link's weight).",
    )
    min_probability: float = Field(
        default=0.049,
        ge=0,
        lt=1,
        description="The least estimated probability a candidate is kept with (0: the cut is off).",
    )


class Floor(_Frozen):
    """The relevance floor: a candidate is kept only when its own evidence shows it is about
    the query — its similarity stands clear of what unrelated text scores against the same
    query, or it holds most of the query's rare words — when its score is near the best
    candidate's (nearer for partial evidence, less near for strong), and when its total
    score is not weak, and when it is likely evidence by the estimate of ``odds`` (see
    "Relevance floor" in docs/architecture.md). Tuned on the LoCoMo dev split and the
    scenario suites: the distances and the estimate decide the block's size, not the
    budget."""

    semantic_standing: float = Field(
        default=1.25,
        description="Minimum standing: how many unrelated-pair spreads the cosine must stand"
        " above the query's most similar unrelated sentence.",
    )
    lexical_coverage: float = Field(
        default=0.4,
        ge=0,
        le=1,
        description="Minimum rarity-weighted share of the query's terms the belief holds.",
    )
    lexical_standing: float = Field(
        default=-1.5,
        description="Coverage alone clears only a candidate whose similarity stands at least"
        " this high (a belief sharing one rare word with the query but further from it than"
        " unrelated text is not about it); a candidate without a similarity (its vector"
        " could not be read) clears on coverage alone.",
    )
    coverage_words: int = Field(
        default=2,
        ge=0,
        description="Coverage clears a candidate alone (lexical_coverage) only when it holds"
        " at least this many of the text query's words, or all of them; with fewer it clears"
        " only jointly with its similarity: one word a short question shares with a belief"
        " is half its rarity-weighted words in a small memory, and says nothing of what it"
        " asks (0 or 1: off).",
    )
    joint_coverage: float = Field(
        default=0.2,
        ge=0,
        le=1,
        description="With joint_standing: partial evidence of both kinds also clears.",
    )
    joint_standing: float = Field(
        default=0.75,
        description="With joint_coverage: partial evidence of both kinds also clears.",
    )
    relative: float = Field(
        default=0.0,
        ge=0,
        le=1,
        description="Minimum total score as a share of the best score of a candidate that"
        " clears (the block holds what is about as good as its best item).",
    )
    near_best: float = Field(
        default=0.2,
        ge=0,
        description="A candidate is kept only when its total score is within this much of"
        " the best score of a candidate that clears (the block holds what is about as good"
        " as its best item; 1 or more: off).",
    )
    strong_standing: float = Field(
        default=2.5,
        description="Strong evidence: a candidate whose standing is at least this high is"
        " kept within strong_near_best of the best instead of near_best (a goal naming"
        " several things keeps each thing's belief, which stands far above unrelated text"
        " but covers only its part of the goal).",
    )
    strong_coverage: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Strong evidence, the lexical kind: a candidate that holds at least this"
        " rarity-weighted share of the query's terms is kept within strong_near_best too.",
    )
    strong_near_best: float = Field(
        default=0.25,
        ge=0,
        description="How far under the best score a candidate with strong evidence may be.",
    )
    partial_standing: float = Field(
        default=0.0,
        description="Partial evidence: a standing at least this high (or partial_coverage)"
        " lets a candidate that does not clear on its own evidence be kept when it scores"
        " within partial_near_best of the best candidate that does.",
    )
    partial_coverage: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="Partial evidence: a rarity-weighted coverage at least this high (or"
        " partial_standing).",
    )
    partial_near_best: float = Field(
        default=0.2,
        ge=0,
        description="How far under the best score of a candidate that clears a candidate"
        " with only partial evidence may be and still be kept (0: partial evidence never"
        " suffices).",
    )
    score: float = Field(default=0.30, description="Minimum total score of a candidate.")
    mostly_asking: float = Field(
        default=0.5,
        gt=0,
        description="A candidate whose statement ends by asking, with at least this share of"
        " its words in questions, is not kept: a turn that mostly asks echoes the query's"
        " words and tells none of the answer (above 1: off).",
    )
    names_aside: bool = Field(
        default=True,
        description="A candidate that holds nothing of a query but the names it mentions"
        " does not clear by its coverage of it: a name is a rare word every belief about"
        " the person holds, whatever the query asks of them (off: names count as words).",
    )
    unknown_names: bool = Field(
        default=True,
        description="A text query that asks about names (the owner of a possessive, the"
        ' subject of an auxiliary verb, after "of") no loaded candidate holds (someone the'
        " memory does not know) clears no candidate by its coverage, alone or jointly: what"
        " it asks is about the name, and a belief that holds only its other words answers"
        " another question; nor by its similarity unless unknown_names_similarity. A task"
        ' for such a person ("Tell Gregor my phone number") clears as any query (off: its'
        " coverage clears as any query's).",
    )
    unknown_names_similarity: bool = Field(
        default=False,
        description="Whether a text query that asks about names (the owner of a possessive,"
        ' the subject of an auxiliary verb, after "of") no loaded candidate holds, nor'
        " carries as a word of its keys, nor the principal is called by, clears a candidate"
        " by its similarity (with unknown_names on). Off: it clears nothing by its own"
        " evidence, which is about someone the memory does not know; a task for such a"
        ' person ("Tell Helga how I take my coffee") still clears. Every model puts'
        ' "Is Bruno allergic to penicillin?" as close to the user\'s own penicillin allergy'
        " as a question about the user, spreads above unrelated text, and no belief says"
        " anything of Bruno.",
    )
    bridge_neighbours: bool = Field(
        default=True,
        description="For a query that names no one (no key, no entity of the working"
        " state), the load adds the other holders of a bridge (see limits.bridge_holders),"
        " and a candidate the floor would drop is kept after the rest when it shares with"
        " the first kept candidate that clears by its own evidence an entity that"
        " candidate's statement writes as a name and at most limits.bridge_holders loaded"
        " candidates hold: the second belief of a chain through a person holds nothing of"
        " the question but the name. The trace names it (floor_bridged).",
    )
    unknown_asked_names: bool = Field(
        default=True,
        description="With unknown_names on, a text query that mentions names the memory"
        " knows beside the names it asks about is judged by the asked ones alone: "
        '"When is Chidi\'s flight to Lisbon?" asks about Chidi, whom no loaded candidate'
        " holds as a word of its statement or keys, nor the principal is called by, and"
        " clears nothing by its own evidence however much the memory knows of Lisbon"
        " (off: a query is a stranger's only when none of the names it mentions is known).",
    )
    lowercase_names: bool = Field(
        default=True,
        description="A text query written without a capital letter names the words in a"
        ' name\'s place (the subject of "does" or "did", the owner of a possessive):'
        ' "what does alice like?" asks about Alice as "What does Alice like?" does. Read'
        " only as a name the memory may not know (unknown_names): one a loaded candidate"
        " holds is read as the query's other words (off: such a query names nobody).",
    )
    lowercase_copula: bool = Field(
        default=True,
        description='With lowercase_names on, the subject of "is" or "was" before a'
        " participle or an adjective (told by its ending) or before a word whose"
        " preposition ends the question is in a name's place too: \"what is zainab allergic"
        ' to" asks about Zainab; "what is the capital of", "what is my dentist\'s name" name'
        " nobody (a determiner or a pronoun in that place). Off: only the subject of"
        ' "does" or "did" and the owner of a possessive are.',
    )
    request_words_aside: bool = Field(
        default=True,
        description="A text query of nothing but names and words that ask the memory for"
        ' what it holds ("tell", "know", "remember", "say", "anything", "about") asks for'
        ' all the memory holds of the names: "Tell me about Ada" is covered by every'
        ' belief that holds "Ada", where "tell", which none holds, weighed as much as the'
        " name and a belief that holds only the name did not clear. A query with other"
        " words keeps these (an answer may say them). Off: they count as words.",
    )
    request_frame_aside: bool = Field(
        default=True,
        description="A text query that opens by asking the memory itself for what it holds"
        ' ("What do you know about …", "Tell me about …", "Do you remember anything'
        ' about …") is covered by what follows the opening: "What do you know about my'
        ' work?" by a belief that holds "work", where "know", which no answer holds,'
        " weighed as much. Off: the opening's words count as words.",
    )
    names_peers: int = Field(
        default=3,
        ge=0,
        description="A candidate that holds nothing of a text query but the names it"
        " mentions clears by its similarity only when its standing stands semantic_standing"
        " above the names_quantile of the standings of the loaded candidates that hold only"
        " those names, when at least this many do, no loaded candidate holds anything of"
        " the query beyond its names and that quantile is above 0: a shared"
        " name lifts every belief about the person alike, whatever the query asks of them"
        " (0: off). As partial or strong evidence its standing is read as it is.",
    )
    names_quantile: float = Field(
        default=0.75,
        ge=0,
        le=1,
        description="Which quantile of the name-only candidates' standings is their null"
        " (0.5: the median; 1: the best of them).",
    )
    odds: FloorOdds = Field(
        default=FloorOdds(),
        description="The last cut: the estimated odds a candidate within the distances is"
        " evidence (see FloorOdds).",
    )

    @property
    def asking_cut(self) -> float | None:
        """The mostly-asking share in force; None when the cut is off (above 1)."""
        return self.mostly_asking if self.mostly_asking <= 1 else None


class Relevance(_Frozen):
    """How a candidate's absolute relevance is made of its evidence (see "Ranking" in
    docs/architecture.md)."""

    semantic_share: float = Field(
        default=0.5, ge=0, le=1, description="Weight of similarity against lexical coverage."
    )
    semantic_scale: float = Field(
        default=10.0,
        gt=0,
        description="Unrelated-pair spreads above their mean at which similarity counts 1.",
    )
    neighbour_share: float = Field(
        default=0.3, ge=0, le=1, description="Share of a linked candidate's relevance it adds."
    )
    adjacency: float = Field(
        default=0.65,
        ge=0,
        le=1,
        description="A candidate linked to one of the adjacency_seeds most relevant"
        " candidates is at least this times that seed's relevance times the link's weight"
        " (0: off).",
    )
    period_match: float = Field(
        default=0.15,
        ge=0,
        le=1,
        description="Relevance added to a candidate whose world time falls in a period the"
        ' query names ("in May 2023"); 0: off.',
    )
    says_when: float = Field(
        default=0.15,
        ge=0,
        le=1,
        description='Relevance added to a candidate whose statement tells a time ("last'
        ' Friday", "in 2022") when the query asks when ("When did ..."); 0: off.',
    )
    asking: float = Field(
        default=0.18,
        ge=0,
        le=1,
        description="Relevance taken, times the share of its words that ask, from a"
        ' candidate whose statement ends by asking ("What made you choose it?" echoes the'
        " words of the question it raises, not its answer); 0: off.",
    )
    adjacency_seeds: int = Field(
        default=3,
        ge=0,
        description="The most relevant candidates whose neighbours adjacency lifts.",
    )
    reply: float = Field(
        default=0.4,
        ge=0,
        description="What adjacency lends the candidate that follows a seed which ends by"
        " asking is (1 + reply × the seed's asking share) times what it lends otherwise: the"
        " turn said right after a question is its answer (0: off).",
    )
    pool_centring: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Share of the loaded candidates' mean direction taken from the query and"
        " from each candidate before their similarity is read for ranking (what every"
        " candidate shares says little about which one answers); the floor's standing reads"
        " the plain cosine. 0: off.",
    )


class ArmLimits(_Frozen):
    """How many hits each arm returns and how it bounds its own work.

    The database arms receive this whole object (see :class:`~recallflow.ports.BeliefSearch`),
    so an adapter reads its numbers here rather than keeping defaults of its own.
    """

    per_arm: int = Field(default=20, ge=1, le=1000, description="Hits returned per arm.")
    lexical_candidate_cap: int = Field(
        default=80, ge=1, description="Matches gathered per word or key before scoring."
    )
    common_share: float = Field(
        default=0.25,
        gt=0,
        le=1,
        description="A word or key on more than this share of the beliefs in the caller's view"
        " (those the hard filter passes) is ignored.",
    )
    min_common: int = Field(
        default=50,
        ge=0,
        description="A word or key on at most this many beliefs is never ignored as common"
        " (so a small memory keeps all its words).",
    )
    rarity_exclusion_cap: int = Field(
        default=1_000,
        ge=0,
        description="Rarity is counted from the view's per-class counts less the beliefs the"
        " filter's time predicates leave out; past this many of those, the view is counted"
        " row by row instead (a read of the past: exact, but its cost grows with the view).",
    )
    coverage_min_view: int = Field(
        default=10,
        ge=1,
        description="Rarity for a candidate's coverage of the query is counted as if the"
        " caller's view held at least this many beliefs (in a memory of two beliefs, a word"
        " both share still weighs something).",
    )
    seed_lexemes: int = Field(
        default=4,
        ge=1,
        description="The lexical arm gathers candidates from this many of the query's rarest"
        " words (every word still scores).",
    )
    structured_subject_weight: float = Field(
        default=2.0,
        ge=0,
        description="In the structured arm, a key equal to a belief's subject counts this"
        " many times a key among its entities.",
    )
    bm25_k1: float = Field(default=1.2, ge=0, description="BM25 k1 (lexical arm).")
    bm25_b: float = Field(default=0.75, ge=0, le=1, description="BM25 b (lexical arm).")
    trigram_threshold: float = Field(default=0.5, ge=0, le=1, description="word_similarity min.")
    trigram_max_keys: int = Field(
        default=24, ge=0, description="Structured keys the trigram arm matches, at most."
    )
    trigram_max_words: int = Field(
        default=16,
        ge=0,
        description="Content words of the text queries the trigram arm matches when there"
        " are no keys, at most.",
    )
    trigram_min_word_length: int = Field(
        default=5, ge=1, description="Shorter words of the text queries are not trigram terms."
    )
    trigram_min_term_length: int = Field(
        default=3, ge=1, description="Shorter terms are not matched by the trigram arm."
    )
    trigram_term_matches: int = Field(
        default=32,
        ge=1,
        description="A trigram term within the threshold of more of the principal's keys"
        " than this says little of which key is meant: it is matched to the key it spells"
        " exactly, and the arm reads no more than this many and one of its matches.",
    )
    semantic_min_similarity: float = Field(
        default=0.3, ge=-1, le=1, description="Cosine similarity below which a hit is noise."
    )
    semantic_min_standing: float | None = Field(
        default=2.5,
        ge=0,
        description="The same cut on the embedder's own scale: spreads of its unrelated-pair"
        " cosine above their mean (its calibration). A hit under either is noise, so the raw"
        " cut is lowered for a model whose cosines all sit lower than MiniLM's (where 0.3 is"
        " far into what related text scores) and never raised (see semantic_cut). None, or"
        " no calibration: the raw cut alone.",
    )
    hnsw_ef_search: int = Field(
        default=40,
        ge=1,
        le=1000,
        description="pgvector's hnsw.ef_search (raised to per_arm when lower, so a filtered"
        " scan does not return too few rows).",
    )
    # A filtered HNSW scan visits about (hits wanted) / (the principal's share of the
    # table) index entries before it has enough of the principal's rows, while comparing
    # every vector of the principal costs its size: measured on the 1.1M-row store, a
    # 10k-belief principal took 118 ms through the index and 13 ms exactly (and found more
    # of its true neighbours); a 100k one took 8 ms through the index. Exact costs less
    # when size < factor x sqrt(total rows): 26k beliefs at 1.1M rows, 9k at 130k rows.
    semantic_exact_factor: float = Field(
        default=25.0,
        ge=0,
        description="A principal with fewer beliefs than this times the square root of all"
        " stored beliefs is searched exactly instead of through the HNSW index (0: never).",
    )
    # Only principals searched through the index are in it (see "Storage" in
    # docs/architecture.md): a principal is graduated into the index when it reaches this
    # share of the size above which it is searched through it, so its rows are all indexed
    # before the first search that uses the index (the table's row count is an estimate
    # that lags growth). Read by the writer from the default policy.
    semantic_graduation_share: float = Field(
        default=0.8,
        gt=0,
        le=1,
        description="A principal's beliefs enter the HNSW index once it holds this share of"
        " the size above which it is searched through the index (semantic_exact_factor).",
    )
    # The arms' plans are only as good as the planner's statistics, which autovacuum
    # refreshes up to a minute after a write: right after a bulk write into a fresh store
    # recall ran 2x (1k beliefs) to 20x (10k) slower until it came round (see "Statistics
    # after a bulk write" in docs/operations.md). A write after which a table has changed
    # since its last ANALYZE by more than this share of the rows its statistics know (and
    # by at least statistics_min_rows), counting the write's own changes and those of
    # every write before it, analyzes it once it has committed. At 1.0 a table is
    # analyzed once it has at least doubled what its statistics counted, whether in one
    # write or in many small ones (a session's turns): an ingest in batches pays a number
    # of ANALYZEs that grows with the logarithm of its size, not one per batch, and the
    # statistics are never off by more than a factor of two (autovacuum refines them at
    # its 10 %).
    # Read by the writer from the default policy.
    statistics_growth_share: float = Field(
        default=1.0,
        gt=0,
        description="A write after which more than this share of the rows a table's planner"
        " statistics counted were inserted, updated or deleted since its last ANALYZE"
        " analyzes the table after it commits.",
    )
    statistics_min_rows: int = Field(
        default=500,
        ge=1,
        description="A table analyzed before that has changed by fewer rows than this since"
        " its last ANALYZE is left to autovacuum by every write.",
    )
    max_candidates: int = Field(
        default=40,
        ge=1,
        description="Top fused candidates loaded and scored (the rest are"
        " too far down every arm to clear the floor).",
    )
    graph_seeds: int = Field(default=5, ge=0, description="Top fused seeds expanded.")
    graph_loaded: int = Field(
        default=10,
        ge=0,
        description="The first this many graph-expansion hits are loaded and scored even"
        " below max_candidates (a top seed's neighbours, which adjacency may lift).",
    )
    graph_depth: int = Field(default=1, ge=1, le=3, description="Hops walked from a seed.")
    graph_fanout: int = Field(default=8, ge=1, description="Neighbours kept per seed.")
    graph_hop_decay: float = Field(
        default=0.5,
        gt=0,
        le=1,
        description="A neighbour's score is the edge weights along its path times this per hop.",
    )
    bridge_holders: int = Field(
        default=4,
        ge=0,
        description="An entity of one of the first graph_seeds candidates, held by at least"
        " two and at most this many beliefs the caller can see and not named by the query,"
        " is a bridge: the load adds its other holders, with no arm's vote, for the floor's"
        " floor.bridge_neighbours (0: no bridges). A key more beliefs hold says less of which"
        " belief is meant.",
    )
    timeout_ms: int = Field(
        default=500,
        ge=1,
        description="An arm still running after this long is cancelled and degrades the"
        " recall (a database arm by PostgreSQL's statement_timeout, an external provider by"
        " being abandoned); the recall goes on without it.",
    )

    def semantic_cut(self, calibration: CalibrationRef | None) -> float:
        """The cosine under which the semantic arm drops a hit as noise, for an embedder of
        ``calibration``: ``semantic_min_similarity``, or the cosine ``semantic_min_standing``
        spreads above the unrelated-pair mean when that is lower (a calibrated embedder
        whose unrelated text scores about 0.05 and related text half what MiniLM gives
        would otherwise lose its answers to the raw 0.3)."""
        cut = self.semantic_min_similarity
        if self.semantic_min_standing is None or calibration is None or not calibration.calibrated:
            return cut
        own = calibration.pair_mean + self.semantic_min_standing * calibration.pair_std
        return own if own < cut else cut


class Feedback(_Frozen):
    """What the write path back into memory does with feedback, evidence and misses (see
    "Feedback and corrections" in docs/architecture.md)."""

    citation_utility: float = Field(
        default=1.0, gt=0, description="Utility a citation adds (confidence never changes)."
    )
    corroboration_gain: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="Share of the remaining doubt (1 - confidence) one corroboration removes.",
    )
    promotion_projects: int = Field(
        default=2, ge=2, description="Distinct corroborating projects that promote to user scope."
    )
    miss_threshold: int = Field(
        default=3, ge=1, description="Misses of one subject within the window that queue a hint."
    )
    miss_window_hours: float = Field(
        default=24.0, gt=0, description="How long misses of one subject are counted together."
    )
    miss_subject_keys: int = Field(
        default=12, ge=1, description="At most this many normalised keys name a missed subject."
    )
    miss_min_word: int = Field(
        default=3, ge=1, description="Shortest content word that names a subject without keys."
    )
    history_links: int = Field(
        default=32,
        ge=1,
        le=1000,
        description="Beliefs a belief's history lists each way along its supersession chain"
        " (predecessors, successors), the nearest first; past them it says the chain goes on.",
    )
    history_events: int = Field(
        default=50,
        ge=1,
        le=10_000,
        description="Events the belief_history tool shows a model, the latest kept (a belief"
        " cited on every turn would otherwise fill its context); it says how many earlier"
        " ones it left out. The Python API and the CLI return them all unless asked for the"
        " latest so many (history(..., events=N), belief history --events N).",
    )


class SessionPolicy(_Frozen):
    """How a session's frozen snapshot is composed (see "Sessions" in docs/architecture.md).

    The item cap is primary and the token cap the backstop, each bounded by the window
    share; about two thirds of the items are reserved for durable user-model and
    preference beliefs chosen without a query, the rest go to the opening goal's priming
    set, and a part's unused items flow to the other. The numbers are defaults with a
    shrink path (``recallflow budget report``), not constants. In a turn, the corrections
    of the prefix share the in-turn token cap with the recalled items and go first.
    """

    budgets: FrozenMap[SessionKind, Budget] = Field(
        default={
            SessionKind.INTERACTIVE: Budget(max_items=40, max_tokens=1500),
            SessionKind.ASYNC: Budget(max_items=80, max_tokens=3000),
            SessionKind.CHILD: Budget(max_items=15, max_tokens=500),
        },
        description="The snapshot budget of each session kind (every kind needs one).",
    )
    durable_share: float = Field(
        default=2 / 3, ge=0, le=1, description="Share of the item cap reserved for the core."
    )
    durable_types: tuple[BeliefType, ...] = (BeliefType.USER_MODEL, BeliefType.PREFERENCE)
    durable_candidates: int = Field(
        default=60,
        ge=1,
        description="Durable beliefs loaded and ranked for the core: the first by a cheap"
        " pre-rank (not transferred first, then confidence × authority factor); bounds the"
        " snapshot's work (each candidate is loaded, scored, resolved, traced and written)."
        " Only a principal with more durable beliefs than this is affected; see"
        " docs/sessions.md for what 40, 60, 80 and 100 hold at 10k and what each costs.",
    )
    min_window: int = Field(
        default=16_000,
        ge=1_000,
        description="Smallest model window a session may open with (its budget's"
        " window_share of it holds the snapshot).",
    )
    replacement_hops: int = Field(
        default=8,
        ge=1,
        le=1000,
        description="How far down a supersession chain a `superseded` correction looks for"
        " the live belief this surface may show as the replacement; past it the line says"
        " the replacement is one this surface does not show.",
    )
    correction_share: float = Field(
        default=0.5,
        ge=0,
        le=1,
        description="Share of a session turn's token cap its corrections section may take,"
        " before the recalled items fill the rest of the cap; corrections that do not fit"
        " wait for a later turn (the first pending one is always delivered, shortened if"
        " need be).",
    )
    lock_timeout_ms: int = Field(
        default=5_000,
        ge=1,
        le=600_000,
        description="How long a session's turn, open or end, or an erasure, waits on a lock"
        " another writer holds (a turn or an end: its session row, held by another turn of"
        " the session or an erasure of its principal; an open: the principal's erasure"
        " fence, held by an erasure; an erasure, once it holds the principal's write lock:"
        " the session rows turns hold) before it is given up with a WriteCancelledError:"
        " nothing was told, recorded, stored or erased, and the same call can be retried.",
    )
    advice_min_sessions: int = Field(
        default=20,
        ge=1,
        description="Sessions of a kind (with at least one turn) the budget report needs"
        " before it advises on that kind's item cap: with n sessions, the chance that the"
        " next one needs more than the largest cap any of them needed is at most 1/(n+1),"
        " under 5% from 20 on. Fewer, and the report says so instead of advising.",
    )
    advice_min_turns: int = Field(
        default=200,
        ge=1,
        description="Turns of a kind, over its sessions, the budget report needs before it"
        " advises on that kind's item cap (10 a session at the session minimum): a"
        " session's needed cap is read from its turns and only grows with them, so short"
        " sessions understate it. Fewer, and the report says so instead of advising.",
    )

    @field_validator("budgets")
    @classmethod
    def _every_kind(cls, value: Mapping[SessionKind, Budget]) -> Mapping[SessionKind, Budget]:
        missing = [k.value for k in SessionKind if k not in value]
        if missing:
            raise ValueError(f"no snapshot budget for session kind(s) {missing}")
        return value

    def budget(self, kind: SessionKind) -> Budget:
        """The snapshot budget of a session kind."""
        return self.budgets[kind]

    def core_reserved(self, max_items: int) -> int:
        """Items reserved for durable beliefs out of ``max_items`` (rounded half up)."""
        return int(max_items * self.durable_share + 0.5)


class Retention(_Frozen):
    """How the two tiers of a stored trace are kept (see "The trace" in
    docs/architecture.md): scores, arm latencies, candidate ids and lineage serve tuning,
    and are nulled after this window; the user-safe fields live and die with their
    session, which ends when it is ended or has been idle for ``session_idle_days``. And
    how long writing a trace may hold up the recall."""

    operator_days: float = Field(default=30.0, gt=0, description="The tuning window (days).")
    session_idle_days: float = Field(
        default=30.0,
        gt=0,
        description="A session with no recall for this long has ended (days since its last"
        " trace, or since it was opened).",
    )
    write_timeout_ms: int = Field(
        default=500,
        ge=1,
        description="How long a trace write may wait on a lock or the server before it is"
        " given up: the recall still returns its block, and the loss is logged and counted"
        ' (Memory.unsaved_traces; see "Reliability" in docs/architecture.md).',
    )


class Writes(_Frozen):
    """How the write path checks the times it is given (see "Lifecycle and history" in
    docs/architecture.md). A ``recorded_at`` is system time, when the store learned a
    belief or an episode: one later than the clock would hide it from every recall until
    then, so a write refuses it, beyond an allowance for the clocks of two machines
    disagreeing (a write through the API reads the writing process's clock, an import
    the database server's); so is a belief's ``retracted_at`` (every recall would still
    show the retracted belief until then) and an episode's ``occurred_at`` (an episode
    records what has happened). A belief's world time (``valid_from``, ``valid_to``) may
    lie ahead: a fact may become true, or stop being true, later."""

    clock_skew_seconds: float = Field(
        default=300.0,
        ge=0,
        le=86_400,
        description="How far ahead of the clock a given recorded_at, retracted_at or"
        " episode occurred_at may lie and still be written (seconds): the writing process's"
        " clock for a write, the database server's for an import; the clocks of two"
        " machines may disagree by this much.",
    )


class RetrievalPolicy(_Frozen):
    """The whole retrieval policy; its content hash is the ``retrieval_policy_version``."""

    name: str = "default"
    rrf_k: int = Field(default=60, ge=1, description="The k of reciprocal rank fusion.")
    arm_weights: FrozenMap[Arm, float] = Field(
        # Tuned on the LoCoMo dev split (conversations 1-5) only: the narrow arms (exact
        # keys, spelling, neighbours) are precise when they fire but vote on many loosely
        # related beliefs when they do not, so their votes count a fifth of the broad arms'.
        default={Arm.STRUCTURED: 0.2, Arm.TRIGRAM: 0.2, Arm.GRAPH_EXPANDED: 0.2},
        description="Weighted RRF: an arm's votes count this much (default 1.0 each).",
    )
    arms: tuple[Arm, ...] = Field(
        default=(Arm.STRUCTURED, Arm.LEXICAL, Arm.TRIGRAM, Arm.SEMANTIC, Arm.PERIOD),
        description="The arms fused, in order (graph expansion is switched by"
        " graph_expansion, not listed here).",
    )
    graph_expansion: bool = Field(
        default=True, description="Also fuse the neighbours of the other arms' top seeds."
    )
    profile_requests: bool = Field(
        default=True,
        description="Answer a text query that asks what the memory holds of the user"
        " ('What do you know about me?', 'What are my preferences?') with the user's"
        " durable beliefs (the profile arm), kept by the score floor alone.",
    )
    ranking: Ranking = Field(
        default=Ranking.HAND_WEIGHTED,
        description="hand_weighted: the ranking function with the weight vectors below;"
        " match_only: the fused match alone, every other weight zero and no penalties"
        " (an ablation).",
    )
    cross_project: bool = Field(
        default=True, description="Recall beliefs of other projects; off for evals."
    )
    core: Weights = Field(
        default=Weights(
            match=0.30,
            confidence_state=0.22,
            corroboration=0.13,
            authority=0.15,
            scope_affinity=0.15,
            utility=0.05,
        ),
        description="The weight vector of the session snapshot: durable beliefs first.",
    )
    task: Weights = Field(
        default=Weights(
            match=0.0,
            relevance=0.55,
            confidence_state=0.14,
            corroboration=0.05,
            authority=0.08,
            scope_affinity=0.13,
            utility=0.05,
        ),
        description="The weight vector of in-turn and child-run recall: relevance first.",
    )
    penalties: Penalties = Penalties()
    floor: Floor = Floor()
    relevance: Relevance = Relevance()
    calibration: CalibrationRef | None = Field(
        default=None,
        description="The embedder calibration the floor and the relevance feature read; bound"
        " to the store's at recall, so it is part of the version.",
    )
    limits: ArmLimits = ArmLimits()
    feedback: Feedback = Feedback()
    state_factor: FrozenMap[LifecycleState, float] = Field(
        default={
            LifecycleState.ACTIVE: 1.0,
            LifecycleState.CONFLICTED: 0.8,
            LifecycleState.PROVISIONAL: 0.6,
        },
        description="Confidence multiplier by lifecycle state (a state not listed: 0).",
    )
    authority_factor: FrozenMap[SourceAuthority, float] = Field(
        default={
            SourceAuthority.USER_STATED: 1.0,
            SourceAuthority.USER_CONFIRMED: 0.9,
            SourceAuthority.OBSERVED: 0.75,
            SourceAuthority.INFERRED: 0.5,
            SourceAuthority.EXTERNAL: 0.3,
        },
        description="The authority feature by source authority (one not listed: 0).",
    )
    portability_affinity: FrozenMap[Portability, float] = Field(
        default={
            Portability.PORTABLE: 0.75,
            Portability.CONTEXTUAL: 0.4,
            Portability.LOCAL: 0.0,
        },
        description="The scope feature of a belief recalled outside its origin project.",
    )
    transfer_confidence_factor: float = Field(
        default=0.75, description="Confidence multiplier outside the origin project."
    )
    corroboration_half_life_days: float = Field(
        default=180.0, gt=0, description="Half-life of a corroboration's weight."
    )
    corroboration_scale: float = Field(
        default=3.0,
        gt=0,
        description="Decayed corroborations at which the corroboration feature reaches"
        " 1 - 1/e (about 0.63).",
    )
    utility_half_life_days: float = Field(
        default=60.0, gt=0, description="Half-life of a belief's utility since last reinforced."
    )
    outrank_margin: float = Field(
        default=1e-3,
        gt=0,
        description="How far under an explicit local belief a transferred belief on the"
        " same subject is placed.",
    )
    bands: tuple[tuple[ConfidenceBand, float], ...] = Field(
        default=(
            (ConfidenceBand.HIGH, 0.8),
            (ConfidenceBand.MEDIUM, 0.55),
            (ConfidenceBand.LOW, 0.0),
        ),
        description="Each band and the lowest confidence in it, highest band first.",
    )
    budgets: FrozenMap[Moment, Budget] = Field(
        default={Moment.IN_TURN: Budget(max_items=8, max_tokens=600)},
        description="The in-turn budget, its only entry: a snapshot's budget (session open"
        " or child run) is its session kind's, sessions.budgets[kind].",
    )
    sessions: SessionPolicy = SessionPolicy()
    retention: Retention = Retention()
    writes: Writes = Writes()
    project_sensitivity: FrozenMap[str, Sensitivity] = Field(
        default={},
        description="Projects whose *name* is itself sensitive (e.g. a personal project):"
        " the name is shown only on surfaces whose ceiling admits that level (see"
        ' "Trust boundary" in docs/architecture.md).',
    )
    admissible_states: FrozenMap[Moment, tuple[LifecycleState, ...]] = Field(
        default={
            Moment.SESSION_SNAPSHOT: (LifecycleState.ACTIVE, LifecycleState.CONFLICTED),
            Moment.IN_TURN: (
                LifecycleState.ACTIVE,
                LifecycleState.PROVISIONAL,
                LifecycleState.CONFLICTED,
            ),
            Moment.CHILD_RUN: (LifecycleState.ACTIVE, LifecycleState.CONFLICTED),
        },
        description="The lifecycle states each moment may recall (part of the hard filter);"
        " a child run's are the states its snapshot may hold.",
    )

    @field_validator("budgets")
    @classmethod
    def _in_turn_budget_only(cls, value: Mapping[Moment, Budget]) -> Mapping[Moment, Budget]:
        # A budget no recall reads would still change the version: refuse it by name.
        for moment in value:
            if moment is not Moment.IN_TURN:
                raise ValueError(
                    f"budgets[{moment.value}] is read by no recall: a snapshot's budget is"
                    " its session kind's, sessions.budgets[kind] (interactive, async,"
                    " child); budgets holds the in_turn budget only"
                )
        if Moment.IN_TURN not in value:
            raise ValueError("budgets needs the in_turn budget")
        return value

    @field_validator("admissible_states")
    @classmethod
    def _every_moment(
        cls, value: Mapping[Moment, tuple[LifecycleState, ...]]
    ) -> Mapping[Moment, tuple[LifecycleState, ...]]:
        missing = [m.value for m in Moment if m not in value]
        if missing:
            raise ValueError(f"no admissible states for moment(s) {missing}")
        return value

    @field_validator("arms")
    @classmethod
    def _arms(cls, value: tuple[Arm, ...]) -> tuple[Arm, ...]:
        if not value:
            raise ValueError("at least one arm is required")
        if len(set(value)) != len(value):
            raise ValueError("an arm is listed twice")
        if Arm.GRAPH_EXPANDED in value:
            raise ValueError("graph expansion is switched by 'graph_expansion', not listed")
        if Arm.DURABLE in value:
            raise ValueError("the durable arm belongs to the session snapshot, not to 'arms'")
        if Arm.PROFILE in value:
            raise ValueError("the profile arm is switched by 'profile_requests', not listed")
        return value

    def arm_weight(self, arm: Arm) -> float:
        """How much an arm's votes count in fusion (weighted RRF; 1.0 unless set)."""
        return self.arm_weights.get(arm, 1.0)

    @property
    def fused_arms(self) -> tuple[Arm, ...]:
        """The arms fusion draws on: the configured ones, plus graph expansion when on."""
        return (*self.arms, Arm.GRAPH_EXPANDED) if self.graph_expansion else self.arms

    @property
    def best_fused_score(self) -> float:
        """The fused score of a belief ranked first by every arm (normalises the match)."""
        found: float = self._once(
            "best_fused_score",
            lambda: sum(self.arm_weight(a) for a in self.fused_arms) / (self.rrf_k + 1),
        )
        return found

    @property
    def rounded_penalties(self) -> Mapping[str, float]:
        """Each penalty rounded to 6 decimals, as a score's breakdown records it (read, never
        changed: one dict for every recall under this policy)."""
        found: Mapping[str, float] = self._once(
            "rounded_penalties",
            lambda: {k: round(v, 6) for k, v in self.penalties.model_dump().items()},
        )
        return found

    @property
    def bands_below(self) -> Mapping[ConfidenceBand, ConfidenceBand]:
        """:meth:`band_below` of each band (read, never changed: one dict for every recall
        under this policy)."""
        found: Mapping[ConfidenceBand, ConfidenceBand] = self._once(
            "bands_below", lambda: {b: self.band_below(b) for b, _ in self.bands}
        )
        return found

    def _once(self, name: str, compute: Callable[[], Any]) -> Any:
        """The value ``name`` derived from this policy object, computed at its first read
        (the policy is frozen; a changed copy is another object). Each was worked out again
        by every recall: the version's hash cost 0.14 ms, paid three times a recall; the
        penalties rounded, the band below each band and the best fused score some 22 µs."""
        key = id(self)
        held = _DERIVED.get(key)
        if held is None or held[0]() is not self:
            held = _DERIVED[key] = (weakref.ref(self, lambda _ref: _DERIVED.pop(key, None)), {})
        derived = held[1]
        if name not in derived:
            derived[name] = compute()
        return derived[name]

    def weights_for(self, moment: Moment) -> Weights:
        """The weight vector of a moment: ``core`` for the snapshot, ``task`` otherwise."""
        return self.core if moment is Moment.SESSION_SNAPSHOT else self.task

    def name_sensitivity(self, project: str | None) -> Sensitivity:
        """The sensitivity a project's name carries (PUBLIC unless listed)."""
        if project is None:
            return Sensitivity.PUBLIC
        return self.project_sensitivity.get(project, Sensitivity.PUBLIC)

    def band_of(self, confidence: float) -> ConfidenceBand:
        """The band a confidence falls in."""
        for band, lower in self.bands:
            if confidence >= lower:
                return band
        return self.bands[-1][0]

    def band_below(self, band: ConfidenceBand) -> ConfidenceBand:
        """The next lower band (a transferred belief is shown one band lower)."""
        order = [b for b, _ in self.bands]
        return order[min(order.index(band) + 1, len(order) - 1)]

    def with_calibration(self, calibration: CalibrationRef) -> RetrievalPolicy:
        """This policy reading ``calibration`` (a new version when it differs)."""
        if self.calibration == calibration:
            return self
        return self.model_copy(update={"calibration": calibration})

    @property
    def version(self) -> str:
        """``retrieval_policy_version``: the name and a hash of the policy's content,
        computed once per policy object (:meth:`_once`)."""
        found: str = self._once("version", self._hashed_version)
        return found

    def _hashed_version(self) -> str:
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True).encode()
        return f"{self.name}-{hashlib.sha256(payload).hexdigest()[:12]}"


#: The values derived from each live policy object (its version among them), by id
#: (:meth:`RetrievalPolicy._once`; an entry leaves with its policy).
_DERIVED: dict[int, tuple[weakref.ref[RetrievalPolicy], dict[str, Any]]] = {}


# --- named recipes ------------------------------------------------------------------------

#: The default policy: what ``Memory.recall`` uses unless given another.
DEFAULT_POLICY = RetrievalPolicy()

#: The weight vector of ``Ranking.MATCH_ONLY``: relevance alone.
MATCH_ONLY_WEIGHTS = Weights(
    match=1.0,
    relevance=0.0,
    confidence_state=0.0,
    corroboration=0.0,
    authority=0.0,
    scope_affinity=0.0,
    utility=0.0,
)
#: The penalties of ``Ranking.MATCH_ONLY``: none.
NO_PENALTIES = Penalties(
    provisional=0.0,
    flagged=0.0,
    transferred_uncorroborated=0.0,
    conflicted=0.0,
    local_outside_origin=0.0,
)


def match_only(policy: RetrievalPolicy = DEFAULT_POLICY) -> RetrievalPolicy:
    """The ranking ablation: ``policy`` ranking by fused match alone (its own version)."""
    return policy.model_copy(update={"ranking": Ranking.MATCH_ONLY})


# --- archival episode search (see "Moments" in docs/architecture.md) ---------------------


class EpisodeFloor(_Frozen):
    """The relevance floor of archival search: an episode is kept when the vector arm's
    similarity stands at least ``semantic_standing`` above the query's most similar
    sentence of the unrelated corpus, in spreads of the embedder's unrelated-pair cosine
    (the embedder's calibration, as the recall floor reads it), or it contains at least
    ``coverage`` of the query's distinct words. Rank alone never keeps one: fusion ranks
    whatever the arms return, and the vector arm always returns the nearest episodes,
    however far. A raw cosine is no floor: unrelated text scores about 0.09 with MiniLM
    and 0.80 with e5."""

    semantic_standing: float = Field(
        default=1.25,
        description="Minimum standing: how many unrelated-pair spreads the cosine must stand"
        " above the query's most similar unrelated sentence (without a calibration,"
        " similarity alone never keeps an episode).",
    )
    coverage: float = Field(
        default=0.5, gt=0, le=1, description="Minimum share of the query's words contained."
    )


class EpisodePolicy(_Frozen):
    """Every number of archival episode search; its content hash is the
    ``episode_policy_version`` of every :class:`~recallflow.models.result.EpisodeTrace`.
    Separate from :class:`RetrievalPolicy` so tuning one never changes the other's version."""

    name: str = "episodes"
    rrf_k: int = Field(default=60, ge=1)
    per_arm: int = Field(default=20, ge=1, le=200, description="Hits returned per arm.")
    query_words: int = Field(
        default=16, ge=1, le=64, description="Distinct query words the full-text arm uses."
    )
    text_candidate_cap: int = Field(
        default=200, ge=1, description="Full-text matches gathered per probe before ranking."
    )
    hnsw_ef_search: int = Field(default=40, ge=1, le=1000, description="≥ per_arm (pgvector).")
    exact_episodes: int = Field(
        default=20_000,
        ge=0,
        description="A principal with at most this many episodes is searched exactly by the"
        " vector arm (every visible episode compared); above it, through the HNSW index, one"
        " graph over every principal's episodes, whose filtered scan is approximate.",
    )
    timeout_ms: int = Field(default=1000, ge=1, description="An arm slower than this degrades.")
    floor: EpisodeFloor = EpisodeFloor()
    budget: Budget = Budget(max_items=5, max_tokens=800)
    excerpt_words: int = Field(
        default=60, ge=8, description="Longest excerpt of one episode rendered, in words."
    )
    excerpt_word_chars: int = Field(
        default=120,
        ge=16,
        description="Longest word of an excerpt rendered, in characters; a longer one (a hash,"
        " a blob, a run with no space) is shown cut, ending in an ellipsis, so an excerpt of"
        " 60 words stays a few hundred tokens and the injection scanner reads a bounded text.",
    )
    logged_chars: int = Field(
        default=8000,
        ge=1,
        le=100_000,
        description="Longest content, in characters, an agent may log as one episode with the"
        " log_episode tool (a host's own episodes.add takes up to 100,000): an episode is"
        " what happened, in a few paragraphs, not a transcript or a document.",
    )
    excerpt_min_term: int = Field(
        default=3,
        ge=1,
        description="Query words shorter than this are not looked for when an excerpt is placed.",
    )
    excerpt_prefix: int = Field(
        default=4,
        ge=1,
        description="Letters a content word must share with a query word to count as it"
        " when an excerpt is placed (fewer if the query word is shorter): a cheap stand-in"
        ' for stemming ("retries" finds "retry").',
    )

    @property
    def version(self) -> str:
        """``episode_policy_version``: the name and a hash of the policy's content."""
        payload = json.dumps(self.model_dump(mode="json"), sort_keys=True).encode()
        return f"{self.name}-{hashlib.sha256(payload).hexdigest()[:12]}"


#: The default policy of archival episode search.
DEFAULT_EPISODE_POLICY = EpisodePolicy()


class ListingPolicy(_Frozen):
    """How much of what memory holds one page of the ``list_beliefs`` tool shows a model
    (see "What memory holds, for the user to see" in docs/architecture.md), and of the log
    one page of ``list_episodes``: the item cap is primary, the token cap a backstop
    against a page of long statements (or episode lines); the first item of a page is
    always shown, so a page is never empty while beliefs (or episodes) remain. Separate from
    :class:`RetrievalPolicy`, as :class:`EpisodePolicy` is: a listing's page size changes
    nothing a recall or a session renders, and in the retrieval policy's version it would
    end every open session (a session is resumed only under the policy it was opened
    under) whenever it was tuned."""

    page_items: int = Field(default=20, ge=1, le=200, description="Beliefs one page lists at most.")
    page_tokens: int = Field(
        default=2000,
        ge=1,
        description="Tokens the statements of one page take at most (counted with the"
        " store's token counter); the items past it go to the next page.",
    )


#: The default size of a ``list_beliefs`` page.
DEFAULT_LISTING_POLICY = ListingPolicy()
