"""The base of every recallflow model: frozen and closed.

Frozen, so a value handed from one stage to the next cannot be changed behind the back of
the stage that made it; closed (``extra="forbid"``), so a misspelt field is an error
instead of silently ignored input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, Self, TypeVar

from pydantic import BaseModel, ConfigDict

#: The field names of each model built by :meth:`FrozenModel.trusted`, and the one
#: fields-set its trusted instances share.
_FIELD_NAMES: dict[type[BaseModel], tuple[frozenset[str], set[str]]] = {}
_new = object.__new__
_T = TypeVar("_T")
# The setters of the four slots every pydantic model has (its fields' dict, its fields-set,
# its extras and its private values), bound once: each sets its slot directly, where
# ``object.__setattr__(obj, name, value)`` packs its arguments into a tuple, checks the
# call against the type's bases and looks the name up on the type first.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


class ModelEnum(StrEnum):
    """A string enumeration of the models whose ``value`` is read without running Python
    code: the member's ``_value_``, the same string, through ``operator.attrgetter``.

    ``Enum.value`` is a Python descriptor that calls a Python getter, two frames a read,
    and pydantic serialises an enum field by reading its ``value``: a recall's trace holds
    some 160 (each scored and fused candidate's arms, each band), a tenth of the
    instructions its JSON costs."""


# Set after the class is made: in its body, an assignment would read as a member to mypy.
setattr(ModelEnum, "value", property(attrgetter("_value_")))  # noqa: B010


class FrozenModel(BaseModel):
    """A frozen pydantic model that refuses unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Each model starts with the generic :meth:`trusted` of its own (not one its base
        wrote out for the base's fields), which writes the model's out at its first call."""
        super().__pydantic_init_subclass__(**kwargs)
        cls.trusted = _GENERIC_TRUSTED  # type: ignore[method-assign]

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """An instance built from values a stage computed itself, of the field types
        already, without validating them again. Every field must be given, defaults
        included (a missing or unknown one is a TypeError, as a slip in our own code), and
        no model validator runs: only for values this package made (never for input).
        The instance holds its fields in their declared order, whatever the order they
        are given in, so its JSON is the validated instance's.
        About 1 µs against 4-6 µs validated and ~8 µs through ``model_construct``, which a
        snapshot pays some 500 times.

        Every trusted instance of a class shares one fields-set (all of its fields, each
        given): a set per instance was a third of the objects a recall allocates, and so
        of its garbage collections. Nothing changes it in place: the model is frozen, and
        pydantic copies an instance's set before a ``model_copy`` adds to it.

        Each model has this method written out for its own fields (:func:`_trusted_of`);
        this body, the first call's, writes it and puts it on the model, so the model's
        later calls run it directly. (Written when the classes are made, the hundred
        models' took 65 ms of every import, on a loaded box.)"""
        written = _WRITTEN.get(cls)
        if written is None:  # (a caller that bound this method before still finds it)
            written = _WRITTEN.setdefault(cls, _trusted_of(cls))
            cls.trusted = classmethod(written)  # type: ignore[method-assign,assignment]
        made: Self = written(cls, **values)
        return made

    def replaced(self, **changes: Any) -> Self:
        """This instance with ``changes`` to its fields, each a value of its field's type
        (not validated, as ``model_copy`` does not validate either): the instance
        ``model_copy(update=changes)`` makes, the same dict in the same order and the same
        fields-set, without the copies ``model_copy`` makes on the way (the instance, its
        fields-set, its extras and private values, each through a Python call). A name
        that is not a field is a TypeError. A recall copies its request once (to fix its
        instant) and its trace and result once (to add the run's lineage)."""
        cls = type(self)
        names = _names_of(cls)[0]
        if not changes.keys() <= names:
            unknown = sorted(changes.keys() - names)
            raise TypeError(f"{cls.__name__}.replaced: unknown fields {unknown}")
        if cls.__private_attributes__:  # (none of ours has any: their copy is pydantic's)
            return self.model_copy(update=changes)
        values = dict(self.__dict__)
        values.update(changes)
        fields_set = self.__pydantic_fields_set__
        if not changes.keys() <= fields_set:
            fields_set = fields_set | changes.keys()
        obj = _new(cls)
        _set_dict(obj, values)
        _set_fields_set(obj, fields_set)
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
        fields handed to :meth:`trusted` as keywords was copied into a new dict and its
        names compared again, 2 of the 6 µs a loaded belief cost."""
        known = _names_of(cls)
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


#: The generic :meth:`FrozenModel.trusted`, each model's until its first call.
_GENERIC_TRUSTED = FrozenModel.__dict__["trusted"]
#: Each model's :meth:`FrozenModel.trusted` written out, once written.
_WRITTEN: dict[type[BaseModel], Callable[..., Any]] = {}


def _names_of(cls: type[BaseModel]) -> tuple[frozenset[str], set[str]]:
    """The field names of ``cls`` and the one fields-set its trusted instances share."""
    known = _FIELD_NAMES.get(cls)
    if known is None:  # pydantic's ``model_fields`` costs microseconds per read
        names = frozenset(cls.model_fields)
        known = _FIELD_NAMES.setdefault(cls, (names, set(names)))
    return known


def _trusted_of(cls: type[BaseModel]) -> Callable[..., Any]:
    """:meth:`FrozenModel.trusted` for ``cls``, written out for its fields (as
    ``dataclasses`` writes out an ``__init__``): a required keyword-only parameter per
    field, so Python itself checks the names given against the fields as it binds the call
    (a field left out or one the model does not have is the TypeError that names it, as
    for any function), and the instance's dict made in one display, in the declared order.

    The generic form took the fields as ``**values`` and compared the dict's names with
    the model's: a nine-field :class:`~recallflow.models.result.ScoreBreakdown` cost
    11,800 instructions against 9,600 written out (callgrind), and an in-turn recall at
    10k builds some 420 trusted instances. Written out with a marker default per field,
    a ``**`` catch-all for unknown names and a test of both, it cost 11,900 against 10,800
    with neither (the catch-all's dict is made on every call, empty or not).
    (Field names are identifiers that never start with an underscore: pydantic refuses
    those, so they cannot meet the function's own names.)"""
    fields_set = _names_of(cls)[1]
    order = list(cls.model_fields)
    values = "{" + ", ".join(f"{name!r}: {name}" for name in order) + "}"
    keywords = "".join(f", {name}" for name in order)
    source = (
        f"def trusted(_cls, /{', *' + keywords if order else ''}):\n"
        "    _obj = _new(_cls)\n"
        f"    _set_dict(_obj, {values})\n"
        "    _set_fields_set(_obj, _fields_set)\n"
        "    _set_extra(_obj, None)\n"
        "    _set_private(_obj, None)\n"
        "    return _obj\n"
    )
    scope: dict[str, Any] = {
        "_new": _new,
        "_set_dict": _set_dict,
        "_set_fields_set": _set_fields_set,
        "_set_extra": _set_extra,
        "_set_private": _set_private,
        "_fields_set": fields_set,
    }
    qualname = f"{cls.__qualname__}.trusted"
    exec(compile(source, f"<{qualname}>", "exec"), scope)
    made: Callable[..., Any] = scope["trusted"]
    # The name a binding TypeError shows ("ScoreBreakdown.trusted() missing 1 required
    # keyword-only argument: 'total'") is the code's own.
    made.__code__ = made.__code__.replace(co_qualname=qualname)
    made.__qualname__ = qualname
    made.__doc__ = FrozenModel.trusted.__doc__
    return made


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The setters of a slotted dataclass's fields, in their declared order: each sets its
    slot directly, on a frozen dataclass too (for a ``__post_init__`` that sets the fields
    it derives; ``object.__setattr__`` costs about twice the instructions)."""
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))


def slots_maker(cls: type[_T]) -> Callable[..., _T]:
    """What calling the frozen slotted dataclass ``cls`` does, as a plain function: a
    required keyword per field it takes (every field given, as for
    :meth:`FrozenModel.trusted`; a missing or unknown one is the TypeError Python raises
    as it binds the call), each slot set through its own setter, then the class's
    ``__post_init__``, if any.

    Calling a class with keywords packs them into a dict for its ``__init__``, and a
    frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``: a
    five-field value cost some 10,900 instructions made so, 5,300 by this (callgrind,
    10,000 calls). For the values a stage makes per candidate."""
    names = [f.name for f in fields(cls) if f.init]  # type: ignore[arg-type]
    if any(name.startswith("_") for name in names):
        raise TypeError(f"{cls.__qualname__}: a field's name starts with an underscore")
    post = getattr(cls, "__post_init__", None)
    lines = [f"def make(*, {', '.join(names)}):", "    _obj = _new(_cls)"]
    lines += [f"    _set_{name}(_obj, {name})" for name in names]
    lines += ["    _post(_obj)"] if post is not None else []
    lines += ["    return _obj"]
    scope: dict[str, Any] = {"_new": _new, "_cls": cls, "_post": post}
    scope.update({f"_set_{name}": cls.__dict__[name].__set__ for name in names})
    qualname = f"make_{cls.__qualname__}"
    exec(compile("\n".join(lines) + "\n", f"<{qualname}>", "exec"), scope)
    made: Callable[..., _T] = scope["make"]
    made.__code__ = made.__code__.replace(co_qualname=qualname)
    made.__qualname__ = made.__name__ = qualname
    return made
