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
and 167 nodes for onnxruntime to run instead of 267.

:func:`fused_operators` then hands onnxruntime two operators of its own (the
``com.microsoft`` domain) that its graph optimizer does not find in this export: each
layer's GELU (``x * (0.5 * (1 + erf(x / sqrt 2)))``, five element-wise nodes, in an
operand order onnxruntime's GELU fusion does not match) becomes one ``Gelu``, and each
unmasked attention (three reshapes, four transposes, the scaled product of the queries and
the keys, the softmax and the product with the values) one ``MultiHeadAttention``. These
are the same functions computed in another order (``x * (1/sqrt 2)`` rather than
``x / sqrt 2``; the two scales of ``q`` and ``k`` multiplied into one), so the floats move
by a rounding, which the next layer's activation quantization can turn into one step of
its scale: a query's vector has cosine ≥ 0.996 with the unfused graph's, while both are
within 0.99 of the float32 one (see docs/embedders.md for the cost and the retrieval
quality measured). 167 → 80 nodes after onnxruntime's fusions (92 as
:class:`~recallflow.adapters.embedders.minilm.MiniLMEmbedder` runs it, its residual layer
norms not fused).
:func:`query_graph` is the three rewrites, the graph ``embed_queries`` runs.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["fused_operators", "int8_matmuls", "query_graph", "unpadded_attention"]


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


def query_graph(model_bytes: bytes, *, fused: bool = True) -> bytes:
    """The graph one query text runs through: integer products (:func:`int8_matmuls`), the
    attention of one unpadded text (:func:`unpadded_attention`) and, unless ``fused`` is
    false, onnxruntime's fused GELU and attention operators (:func:`fused_operators`)."""
    model = _parsed(model_bytes)
    _integer_products(model)
    _drop_padding(model)  # on the same message: the 23 MB model parsed and written once
    if fused:
        _fuse_operators(model)
    serialized: bytes = model.SerializeToString()
    return serialized


def _parsed(model_bytes: bytes) -> Any:
    model = _onnx_proto().ModelProto()
    model.ParseFromString(model_bytes)
    return model


def _rewritten(model_bytes: bytes, rewrite: Callable[[Any], bool]) -> bytes:
    """``model_bytes`` through ``rewrite`` (in place on the parsed model; whether anything
    changed): the same bytes when nothing did."""
    model = _parsed(model_bytes)
    if not rewrite(model):
        return model_bytes
    serialized: bytes = model.SerializeToString()
    return serialized


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
    producer = _producers(graph)

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
    return _rewritten(model_bytes, _drop_padding)


def _drop_padding(model: Any) -> bool:
    """:func:`unpadded_attention` on a parsed model, in place; whether anything changed."""
    pb = _onnx_proto()
    graph = model.graph
    inits = _initializers(graph)
    producer = _producers(graph)

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


_MICROSOFT = "com.microsoft"
_SQRT2 = 1.4142135381698608  # float32(sqrt 2), as exported


def fused_operators(model_bytes: bytes) -> bytes:
    """``model_bytes`` with each erf GELU made onnxruntime's ``Gelu`` and each attention
    without a mask (what :func:`unpadded_attention` leaves) its ``MultiHeadAttention``;
    the rest as is (see the module for the numerics). A graph with neither comes back as
    it was."""
    return _rewritten(model_bytes, _fuse_operators)


def _fuse_operators(model: Any) -> bool:
    """:func:`fused_operators` on a parsed model, in place; whether anything changed."""
    pb = _onnx_proto()
    graph = model.graph
    inits = _initializers(graph)
    producer = _producers(graph)

    def scalar(name: str) -> float | None:
        """A one-value float initializer's value (None for any other tensor)."""
        init = inits.get(name)
        if init is None or init.data_type != _FLOAT or any(d != 1 for d in init.dims):
            return None
        if init.raw_data:
            found = np.frombuffer(init.raw_data, dtype=np.float32)
            return float(found[0]) if found.size == 1 else None
        return float(init.float_data[0]) if len(init.float_data) == 1 else None

    def made(name: str, op_type: str) -> Any:
        node = producer.get(name)
        return node if node is not None and node.op_type == op_type else None

    def times(node: Any, value: float) -> str | None:
        """``x`` when ``node`` is ``Mul(x, value)`` (either order)."""
        if node is None or node.op_type != "Mul" or len(node.input) != 2:
            return None
        a, b = node.input
        return a if scalar(b) == value else b if scalar(a) == value else None

    def one_plus_erf(name: str) -> str | None:
        """``x`` when ``name`` is ``Add(Erf(Div(x, sqrt 2)), 1)`` (either order)."""
        add = made(name, "Add")
        if add is None or len(add.input) != 2:
            return None
        erf_name = next((i for i in add.input if scalar(i) != 1.0), None)
        if erf_name is None or sorted(scalar(i) == 1.0 for i in add.input) != [False, True]:
            return None
        erf = made(erf_name, "Erf")
        div = made(erf.input[0], "Div") if erf is not None else None
        if div is None or scalar(div.input[1]) != _SQRT2:
            return None
        return str(div.input[0])

    def gelu_input(node: Any) -> str | None:
        """``x`` when ``node`` is ``x * (0.5 * (1 + erf(x / sqrt 2)))`` with its products
        in any order and grouping."""
        if node.op_type != "Mul" or len(node.input) != 2:
            return None
        half = times(node, 0.5)  # ((x * a) * 0.5) or ((a * x) * 0.5)
        if half is not None:
            inner = made(half, "Mul")
            pairs = [tuple(inner.input)] if inner is not None and len(inner.input) == 2 else []
        else:  # x * (0.5 * a), (0.5 * x) * a, and their mirror images
            pairs = []
            for this, other in (node.input, reversed(node.input)):
                scaled = times(producer.get(other), 0.5)
                if scaled is not None:
                    pairs.append((this, scaled))
        for a, b in pairs:
            for x, term in ((a, b), (b, a)):
                if one_plus_erf(term) == x:
                    return str(x)
        return None

    def ints(node: Any, name: str) -> list[int] | None:
        found = [list(a.ints) or [a.i] for a in node.attribute if a.name == name]
        return found[0] if found else None

    def split_heads(name: str, perm: list[int]) -> tuple[str, list[str]] | None:
        """(x, shape inputs) when ``name`` is ``Transpose(Reshape(x, shape), perm)``."""
        swap = made(name, "Transpose")
        if swap is None or ints(swap, "perm") != perm:
            return None
        heads = made(swap.input[0], "Reshape")
        shape = made(heads.input[1], "Concat") if heads is not None else None
        if shape is None or len(shape.input) != 4:
            return None
        return str(heads.input[0]), list(shape.input)

    def head_size(shape: list[str]) -> int | None:
        """H when ``shape`` is [batch, length, -1, H] of initializers' values."""
        last = [_int_value(inits.get(n)) for n in shape[2:]]
        return last[1] if last[0] == -1 and last[1] is not None and last[1] > 0 else None

    def attention(node: Any) -> Any:
        """The ``MultiHeadAttention`` node computing ``node``'s output, when ``node`` is the
        last reshape of an unmasked attention, else None."""
        if node.op_type != "Reshape":
            return None
        merged = made(node.input[1], "Concat")
        back = made(node.input[0], "Transpose")
        if merged is None or back is None or ints(back, "perm") != [0, 2, 1, 3]:
            return None
        weighted = made(back.input[0], "MatMul")
        probs = made(weighted.input[0], "Softmax") if weighted is not None else None
        if probs is None or ints(probs, "axis") not in ([-1], [3]):
            return None
        scores = made(probs.input[0], "MatMul")
        if scores is None:
            return None
        q_scaled, k_scaled = (made(i, "Mul") for i in scores.input)
        factors = []
        for scaled in (q_scaled, k_scaled):
            if scaled is None:
                return None
            factor = scalar(scaled.input[1])
            if factor is None:
                return None
            factors.append(factor)
        q = split_heads(q_scaled.input[0], [0, 2, 1, 3])
        k = split_heads(k_scaled.input[0], [0, 2, 3, 1])
        v = split_heads(weighted.input[1], [0, 2, 1, 3])
        if q is None or k is None or v is None:
            return None
        size = head_size(q[1])
        if size is None or head_size(k[1]) != size or head_size(v[1]) != size:
            return None
        # [batch, length] are the queries' own, and the heads merge back into one axis.
        if q[1][:2] != k[1][:2] or q[1][:2] != v[1][:2] or len(merged.input) != 3:
            return None
        if list(merged.input[:2]) != q[1][:2] or _int_value(inits.get(merged.input[2])) != -1:
            return None
        width = _width(q[0], inits, producer)
        if width is None or width % size:
            return None
        scale = float(np.float32(factors[0]) * np.float32(factors[1]))
        return pb.NodeProto(
            op_type="MultiHeadAttention",
            domain=_MICROSOFT,
            input=[q[0], k[0], v[0]],
            output=[node.output[0]],
            attribute=[
                pb.AttributeProto(name="num_heads", type=pb.AttributeProto.INT, i=width // size),
                pb.AttributeProto(name="scale", type=pb.AttributeProto.FLOAT, f=scale),
            ],
        )

    fused = 0
    nodes: list[Any] = []
    for node in graph.node:
        x = gelu_input(node)
        if x is not None:
            nodes.append(
                pb.NodeProto(op_type="Gelu", domain=_MICROSOFT, input=[x], output=node.output)
            )
            fused += 1
            continue
        attended = attention(node)
        if attended is not None:
            nodes.append(attended)
            fused += 1
            continue
        nodes.append(node)
    if not fused:
        return False
    nodes = _read_only(nodes, {o.name for o in graph.output})
    del graph.node[:]
    graph.node.extend(nodes)
    if not any(o.domain == _MICROSOFT for o in model.opset_import):
        model.opset_import.append(pb.OperatorSetIdProto(domain=_MICROSOFT, version=1))
    return True


def _int_value(init: Any) -> int | None:
    """A one-value int64 initializer's value (None for anything else)."""
    if init is None or init.data_type != _INT64 or any(d != 1 for d in init.dims):
        return None
    if init.raw_data:
        found = np.frombuffer(init.raw_data, dtype=np.int64)
        return int(found[0]) if found.size == 1 else None
    return int(init.int64_data[0]) if len(init.int64_data) == 1 else None


def _producers(graph: Any) -> dict[str, Any]:
    """The node that makes each tensor of ``graph``, by the tensor's name."""
    return {out: node for node in graph.node for out in node.output}


def _initializers(graph: Any) -> dict[str, Any]:
    """``graph``'s initializers (its constant tensors), by name."""
    return {i.name: i for i in graph.initializer}


def _width(name: str, inits: dict[str, Any], producer: dict[str, Any]) -> int | None:
    """The last dimension of ``name`` when it is a bias ``Add`` of a 1-D initializer."""
    node = producer.get(name)
    if node is None or node.op_type != "Add":
        return None
    for i in node.input:
        init = inits.get(i)
        if init is not None and len(init.dims) == 1:
            return int(init.dims[0])
    return None


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
