"""The MiniLM graph rewritten to multiply in int8, for embedding one query text fast.

The packaged model stores each linear layer's weights as int8 with one scale per output
column and turns them back into float32 when the session is built, so every matrix
product runs in float32. :func:`int8_matmuls` keeps those int8 weights as they ship and
feeds each product through onnxruntime's integer path instead: the activations are
quantized per tensor on the fly (``DynamicQuantizeLinear``, uint8), multiplied with the
int8 weights (``MatMulInteger``, int32), and scaled back (activation scale × column
scale). onnxruntime fuses the four into one kernel. This is the graph onnxruntime's own
per-channel dynamic quantization produces, without re-quantizing the weights (2 s).
The embedding tables (one scale per row) are looked up in int8 and only the rows used are
scaled, the same products in another order, so this second session holds them in int8
(12 MB) rather than folded to float32 (47 MB).

Numerics: a query vector from this graph has cosine ≥ 0.99 with the float32 one on the
benchmark queries, and the activation scale is taken over the whole input tensor, so a
text's vector would depend on its batch: it must be run one text per call (see
docs/embedders.md for the cost and the retrieval quality measured).

One text per call also means no padding: every attention mask the graph is given is all
ones. :func:`unpadded_attention` drops what only a padded batch needs (the mask's
additive term, and the guard against the not-a-number rows a fully masked row would
give) and makes the exported transpose of the keys (a shape, three slices, two
concatenations, two reshapes and two transposes a layer) one transpose: the same floats,
and 167 nodes for onnxruntime to run instead of 267. :func:`query_graph` is both
rewrites, the graph ``embed_queries`` runs.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["int8_matmuls", "query_graph", "unpadded_attention"]


@cache
def _onnx_proto() -> Any:
    """The ONNX protobuf classes (``onnx.onnx_ml_pb2``), loaded without the ``onnx``
    package's ``__init__``: that imports ``ml_dtypes`` and costs 0.6-0.9 s, ten times the
    rewrite itself, and nothing here needs more than the messages."""
    spec = importlib.util.find_spec("onnx")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("No module named 'onnx'")
    for root in spec.submodule_search_locations:
        path = Path(root) / "onnx_ml_pb2.py"
        found = importlib.util.spec_from_file_location("recallflow._onnx_ml_pb2", path)
        if path.is_file() and found is not None and found.loader is not None:
            module = importlib.util.module_from_spec(found)
            found.loader.exec_module(module)
            return module
    from onnx import onnx_ml_pb2  # a layout without the generated file at its usual place

    return onnx_ml_pb2


def query_graph(model_bytes: bytes) -> bytes:
    """The graph one query text runs through: integer products (:func:`int8_matmuls`) and
    the attention of one unpadded text (:func:`unpadded_attention`)."""
    model = _parsed(model_bytes)
    _integer_products(model)
    _drop_padding(model)  # on the same message: the 23 MB model parsed and written once
    serialized: bytes = model.SerializeToString()
    return serialized


def _parsed(model_bytes: bytes) -> Any:
    model = _onnx_proto().ModelProto()
    model.ParseFromString(model_bytes)
    return model


def int8_matmuls(model_bytes: bytes) -> bytes:
    """``model_bytes`` (an ONNX model) with every ``MatMul`` whose weight is a dequantized
    int8 initializer (``Mul(Cast(int8), scale)``) made an integer product; the rest as is."""
    model = _parsed(model_bytes)
    _integer_products(model)
    serialized: bytes = model.SerializeToString()
    return serialized


def _integer_products(model: Any) -> None:
    """:func:`int8_matmuls` on a parsed model, in place."""
    pb = _onnx_proto()
    graph = model.graph
    int8, float32 = pb.TensorProto.INT8, pb.TensorProto.FLOAT
    int8_weights = {i.name for i in graph.initializer if i.data_type == int8}
    floats = {i.name for i in graph.initializer if i.data_type == float32}
    producer: dict[str, Any] = {out: node for node in graph.node for out in node.output}

    def op(op_type: str, inputs: list[str], outputs: list[str], **ints: int) -> Any:
        attributes = [
            pb.AttributeProto(name=k, type=pb.AttributeProto.INT, i=v) for k, v in ints.items()
        ]
        return pb.NodeProto(op_type=op_type, input=inputs, output=outputs, attribute=attributes)

    row_scales = {i.name for i in graph.initializer if len(i.dims) == 2 and i.dims[1] == 1}
    # A product's scale factors out of it only when it is one per output column (or one).
    column_scales = {i.name for i in graph.initializer if all(d == 1 for d in i.dims[:-1])}

    def dequantized(name: str) -> tuple[str, str] | None:
        """(int8 weight, float scale) when ``name`` is ``Mul(Cast(int8 weight), scale)``."""
        mul: Any = producer.get(name)
        cast: Any = producer.get(mul.input[0]) if mul is not None and mul.op_type == "Mul" else None
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in int8_weights:
            return None
        return (cast.input[0], mul.input[1]) if mul.input[1] in floats else None

    nodes: list[Any] = []
    for node in graph.node:
        table = dequantized(node.input[0]) if node.op_type == "Gather" else None
        axis = next((a.i for a in node.attribute if a.name == "axis"), 0)
        if table is not None and table[1] in row_scales and axis == 0:
            # An embedding table with one scale per row: look the rows up in int8 and
            # scale those alone (the same product per element, so the same floats), so
            # the session keeps the table in int8 rather than folded to float32 (47 MB).
            (y,) = node.output
            rows, scales, f = (f"{y}/int8_{part}" for part in ("rows", "scales", "f"))
            nodes += [
                op("Gather", [table[0], node.input[1]], [rows], axis=0),
                op("Gather", [table[1], node.input[1]], [scales], axis=0),
                op("Cast", [rows], [f], to=float32),
                op("Mul", [f, scales], [y]),
            ]
            continue
        weight = dequantized(node.input[1]) if node.op_type == "MatMul" else None
        if weight is None or weight[1] not in column_scales:
            nodes.append(node)
            continue
        x, y = node.input[0], node.output[0]
        quantized, scale = weight
        q, s, z, acc, f, both = (f"{y}/int8_{part}" for part in ("x", "xs", "xz", "acc", "f", "s"))
        nodes += [
            op("DynamicQuantizeLinear", [x], [q, s, z]),
            op("MatMulInteger", [q, quantized, z], [acc]),
            op("Cast", [acc], [f], to=float32),
            op("Mul", [s, scale], [both]),
            op("Mul", [f, both], [y]),
        ]
    # The float weights nothing reads any more (their Cast and Mul) are dropped.
    nodes = _read_only(nodes, {o.name for o in graph.output})
    del graph.node[:]
    graph.node.extend(nodes)


_BOOL, _INT64, _FLOAT = 9, 7, 1  # TensorProto data types
_ATTENTION_MASK = "attention_mask"


def unpadded_attention(model_bytes: bytes) -> bytes:
    """``model_bytes`` as run on one unpadded text (an attention mask of ones), with the
    same outputs for such an input, bit for bit:

    * ``Add(scores, Where(attend, 0.0, c))`` is ``scores`` when ``attend`` is true wherever
      the attention mask is one (checked on the expression that computes it: ands of the
      mask itself, positions compared with 0 that start at 0, and true constants); the
      ``Where(IsNaN(p), z, p)`` after such a mask's softmax is ``p``, as the scores are
      finite;
    * ``Reshape(Transpose(Reshape(x, [-1, a, b]), [0, 2, 1]), [*lead, b, a])``, with ``a``
      and ``b`` the last two dimensions of ``x`` and ``lead`` the others, is ``x`` with
      its last two axes swapped: when ``x`` is ``Transpose(y)``, one transpose of ``y``.

    A graph with neither pattern comes back as it was."""
    model = _parsed(model_bytes)
    if not _drop_padding(model):
        return model_bytes
    serialized: bytes = model.SerializeToString()
    return serialized


def _drop_padding(model: Any) -> bool:
    """:func:`unpadded_attention` on a parsed model, in place; whether anything changed."""
    pb = _onnx_proto()
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    producer: dict[str, Any] = {out: node for node in graph.node for out in node.output}

    def values(name: str) -> list[float] | None:
        """An initializer's values (None for any other tensor)."""
        init = inits.get(name)
        if init is None:
            return None
        kind = {_BOOL: np.bool_, _INT64: np.int64, _FLOAT: np.float32}.get(init.data_type)
        if kind is None:
            return None
        if init.raw_data:
            return [float(v) for v in np.frombuffer(init.raw_data, dtype=kind)]
        stored = {_BOOL: init.int32_data, _INT64: init.int64_data, _FLOAT: init.float_data}
        return [float(v) for v in stored[init.data_type]]

    def ints(node: Any, name: str) -> list[int] | None:
        found = [list(a.ints) or [a.i] for a in node.attribute if a.name == name]
        return found[0] if found else None

    def non_negative(name: str) -> bool:
        """Whether ``name`` holds no negative value: positions counted up from 0."""
        node = producer.get(name)
        if node is None:
            return False
        if node.op_type in ("Unsqueeze", "Expand", "Reshape", "Squeeze"):
            return non_negative(node.input[0])
        if node.op_type == "Range":
            start, delta = values(node.input[0]), values(node.input[2])
            return start is not None and delta is not None and start[0] >= 0 and delta[0] > 0
        return False

    def attends(name: str) -> bool:
        """Whether ``name`` is true everywhere when the attention mask is all ones."""
        constant = values(name)
        if constant is not None:
            return inits[name].data_type == _BOOL and all(constant)
        node = producer.get(name)
        if node is None:
            return False
        if node.op_type == "And":
            return all(attends(i) for i in node.input)
        if node.op_type == "Cast":
            return node.input[0] == _ATTENTION_MASK and ints(node, "to") == [_BOOL]
        if node.op_type in ("GatherND", "Gather", "Expand", "Unsqueeze", "Reshape", "Squeeze"):
            return attends(node.input[0])  # values taken from the first input only
        if node.op_type == "GreaterOrEqual":
            zero = values(node.input[1])
            return zero == [0.0] and non_negative(node.input[0])
        return False

    def mask_term(name: str) -> bool:
        """``Where(attend, 0.0, c)`` with ``attend`` true for an unpadded text."""
        node = producer.get(name)
        return (
            node is not None
            and node.op_type == "Where"
            and values(node.input[1]) == [0.0]
            and attends(node.input[0])
        )

    def shape_slice(name: str) -> tuple[str, int, int | None] | None:
        """(x, start, end) when ``name`` is ``Slice(Shape(x), [start], [end])``."""
        node = producer.get(name)
        if node is None or node.op_type != "Slice" or len(node.input) != 3:
            return None
        shape = producer.get(node.input[0])
        if shape is None or shape.op_type != "Shape" or ints(shape, "start") not in (None, [0]):
            return None
        if ints(shape, "end") is not None:
            return None
        start, end = values(node.input[1]), values(node.input[2])
        if start is None or end is None or len(start) != 1 or len(end) != 1:
            return None
        first, last = int(start[0]), int(end[0])
        # INT64_MIN and INT64_MAX as exported: from the first axis, to the last.
        return shape.input[0], 0 if first < -(2**62) else first, None if last > 2**62 else last

    def concat(name: str) -> list[str] | None:
        node = producer.get(name)
        if node is None or node.op_type != "Concat" or ints(node, "axis") != [0]:
            return None
        return list(node.input)

    def keys_transposed(node: Any) -> tuple[str, list[int]] | None:
        """(y, perm) when ``node`` is the exported transpose of the last two axes of
        ``x = Transpose(y)``: one ``Transpose(y, perm)`` in its place."""
        if node.op_type != "Reshape":
            return None
        swap = producer.get(node.input[0])
        if swap is None or swap.op_type != "Transpose" or ints(swap, "perm") != [0, 2, 1]:
            return None
        flat = producer.get(swap.input[0])
        if flat is None or flat.op_type != "Reshape":
            return None
        x = flat.input[0]
        made = producer.get(x)
        if made is None or made.op_type != "Transpose":
            return None
        perm = ints(made, "perm")
        first, second = concat(flat.input[1]), concat(node.input[1])
        if perm is None or first is None or second is None or len(first) != 3 or len(second) != 3:
            return None
        if values(first[0]) != [-1.0]:
            return None
        a, b = (x, -2, -1), (x, -1, None)
        lead = (x, 0, -2)
        if [shape_slice(first[1]), shape_slice(first[2])] != [a, b]:
            return None
        if [shape_slice(n) for n in second] != [lead, b, a]:
            return None
        rank = len(perm)
        return made.input[0], [perm[p] for p in (*range(rank - 2), rank - 1, rank - 2)]

    renamed: dict[str, str] = {}
    swapped = 0
    nodes: list[Any] = []
    for node in graph.node:
        if node.op_type == "Add" and len(node.input) == 2:
            kept = [i for i in node.input if not mask_term(i)]
            if len(kept) == 1:
                renamed[node.output[0]] = kept[0]
                continue
        if node.op_type == "Where":
            guard = producer.get(node.input[0])
            if (
                guard is not None
                and guard.op_type == "IsNaN"
                and guard.input[0] == node.input[2]
                and _after_masked_softmax(node.input[2], producer, renamed)
            ):
                renamed[node.output[0]] = node.input[2]
                continue
        transposed = keys_transposed(node)
        if transposed is not None:
            source, perm = transposed
            swap = pb.NodeProto(
                op_type="Transpose",
                input=[source],
                output=[node.output[0]],
                attribute=[pb.AttributeProto(name="perm", type=pb.AttributeProto.INTS, ints=perm)],
            )
            nodes.append(swap)
            swapped += 1
            continue
        nodes.append(node)
    if not renamed and not swapped:
        return False
    outputs = {o.name for o in graph.output}

    def resolved(name: str) -> str:
        while name in renamed:
            name = renamed[name]
        return name

    for node in nodes:
        node.input[:] = [resolved(i) for i in node.input]
    # An output that was one of the terms dropped is what it stood for, under its name.
    nodes += [
        pb.NodeProto(op_type="Identity", input=[resolved(name)], output=[name])
        for name in sorted(outputs & set(renamed))
    ]
    # The mask's own arithmetic and the exported shape arithmetic go with the terms
    # dropped; the mask stays a declared input, unread, so callers feed it as before.
    nodes = _read_only(nodes, outputs)
    del graph.node[:]
    graph.node.extend(nodes)
    return True


def _after_masked_softmax(name: str, producer: dict[str, Any], renamed: dict[str, str]) -> bool:
    """Whether ``name`` is a softmax of scores whose mask term was dropped (so nothing in
    it can be the not-a-number a fully masked row gives)."""
    node = producer.get(name)
    return node is not None and node.op_type == "Softmax" and node.input[0] in renamed


def _read_only(nodes: list[Any], outputs: set[str]) -> list[Any]:
    """``nodes`` without those whose outputs nothing reads (repeated until none is left)."""
    while True:
        read = {name for node in nodes for name in node.input} | outputs
        kept = [n for n in nodes if any(out in read for out in n.output)]
        if len(kept) == len(nodes):
            return kept
        nodes = kept
