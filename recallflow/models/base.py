"""The base of every recallflow model: frozen and closed.

Frozen, so a value handed from one stage to the next cannot be changed behind the back of
the stage that made it; closed (``extra="forbid"``), so a misspelt field is an error
instead of silently ignored input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Self

from pydantic import BaseModel, ConfigDict

#: The field names of each model built by :meth:`FrozenModel.trusted`, and the one
#: fields-set its trusted instances share.
_FIELD_NAMES: dict[type[BaseModel], tuple[frozenset[str], set[str]]] = {}
_new = object.__new__
# The setters of the four slots every pydantic model has (its fields' dict, its fields-set,
# its extras and its private values), bound once: each sets its slot directly, where
# ``object.__setattr__(obj, name, value)`` packs its arguments into a tuple, checks the
# call against the type's bases and looks the name up on the type first.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


class FrozenModel(BaseModel):
    """A frozen pydantic model that refuses unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """An instance built from values a stage computed itself, of the field types
        already, without validating them again. Every field must be given, defaults
        included (a missing or unknown one is a TypeError, as a slip in our own code), and
        no model validator runs: only for values this package made (never for input).
        Give the fields in their declared order: the instance keeps them in the order
        given, and its JSON follows that order, not the declaration's.
        About 1 µs against 4-6 µs validated and ~8 µs through ``model_construct``, which a
        snapshot pays some 500 times.

        Every trusted instance of a class shares one fields-set (all of its fields, each
        given): a set per instance was a third of the objects a recall allocates, and so
        of its garbage collections. Nothing changes it in place: the model is frozen, and
        pydantic copies an instance's set before a ``model_copy`` adds to it."""
        known = _FIELD_NAMES.get(cls)
        if known is None:  # pydantic's ``model_fields`` costs microseconds per read
            fields = frozenset(cls.model_fields)
            known = _FIELD_NAMES.setdefault(cls, (fields, set(fields)))
        if values.keys() != known[0]:
            names = known[0]
            missing = sorted(names - values.keys())
            unknown = sorted(values.keys() - names)
            raise TypeError(f"{cls.__name__}.trusted: missing {missing}, unknown {unknown}")
        # ``object.__new__`` and the slots' setters bound once at import: looked up
        # through the model's metaclass and the builtins on every call they cost a third
        # of the call (1.5 against 2.0 µs; a recall at 10k builds some 425 instances).
        # The four slots set through their own setters: 1,800 instructions an instance
        # less than through ``object.__setattr__``.
        obj = _new(cls)
        _set_dict(obj, values)
        _set_fields_set(obj, known[1])
        _set_extra(obj, None)
        _set_private(obj, None)
        return obj

    @classmethod
    def trusted_maker(cls, fields: Iterable[str]) -> Callable[[dict[str, Any]], Self]:
        """What :meth:`trusted` does, for many instances whose values each come as a dict
        holding exactly ``fields``: the names are checked once, here, against the model's
        (a missing or unknown one is a TypeError), and the maker takes each dict as the
        instance's own (the caller builds a fresh one per instance, with those keys and no
        other, e.g. ``dict(zip(fields, row))``). For rows read in bulk: a belief of 29
        fields handed to :meth:`trusted` as keywords is copied into a new dict and its
        names compared again, 2 of the 6 µs a loaded belief cost."""
        known = _FIELD_NAMES.get(cls)
        if known is None:
            names = frozenset(cls.model_fields)
            known = _FIELD_NAMES.setdefault(cls, (names, set(names)))
        given = tuple(fields)
        if frozenset(given) != known[0] or len(given) != len(known[0]):
            missing = sorted(known[0] - set(given))
            unknown = sorted(set(given) - known[0])
            raise TypeError(f"{cls.__name__}.trusted_maker: missing {missing}, unknown {unknown}")
        fields_set = known[1]

        def make(values: dict[str, Any]) -> Any:  # an instance of cls
            obj = _new(cls)
            _set_dict(obj, values)
            _set_fields_set(obj, fields_set)
            _set_extra(obj, None)
            _set_private(obj, None)
            return obj

        return make
