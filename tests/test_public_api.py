"""The public API is flat: everything a user needs comes from ``recallflow`` itself, and
importing it costs nothing until a store is opened."""

from __future__ import annotations

import subprocess
import sys

import pytest

import recallflow


@pytest.mark.parametrize("name", recallflow.__all__)
def test_every_public_name_imports_from_the_package(name: str) -> None:
    assert getattr(recallflow, name) is not None


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'recal'"):
        _ = recallflow.recal


def test_importing_the_package_loads_no_driver_dataflow_or_model() -> None:
    heavy = ("hamilton", "numpy", "psycopg", "onnxruntime", "recallflow.memory")
    code = f"import sys, recallflow; print(','.join(m for m in {heavy!r} if m in sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == ""


def test_collaborators_are_given_at_open_not_set_on_a_live_handle() -> None:
    from recallflow import Memory

    public = {n for n in vars(Memory) if not n.startswith("_")}
    assert not {"search", "traces", "query_former", "injection_scanner", "external_provider"} & (
        public
    )


def test_the_error_tree_names_every_error_recallflow_raises() -> None:
    """The tree in recallflow.errors is where a caller learns what to catch: every
    subclass of RecallflowError, wherever it is defined, is in it."""
    import recallflow.adapters.embedders  # defines EmbedderUnavailableError
    import recallflow.errors

    def subclasses(cls: type[BaseException]) -> set[type[BaseException]]:
        found = set(cls.__subclasses__())
        return found.union(*(subclasses(sub) for sub in found))

    tree = recallflow.errors.__doc__ or ""
    missing = sorted(
        c.__name__
        for c in subclasses(recallflow.errors.RecallflowError)
        if c.__module__.startswith("recallflow.") and f"── {c.__name__} " not in tree
    )
    assert not missing, f"errors the tree in recallflow/errors.py does not name: {missing}"
