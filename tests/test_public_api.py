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
