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
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["int8_matmuls"]


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


def int8_matmuls(model_bytes: bytes) -> bytes:
    """``model_bytes`` (an ONNX model) with every ``MatMul`` whose weight is a dequantized
    int8 initializer (``Mul(Cast(int8), scale)``) made an integer product; the rest as is."""
    pb = _onnx_proto()
    model = pb.ModelProto()
    model.ParseFromString(model_bytes)
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
    while True:
        read = {name for node in nodes for name in node.input} | {o.name for o in graph.output}
        kept = [n for n in nodes if any(out in read for out in n.output)]
        if len(kept) == len(nodes):
            break
        nodes = kept
    rewritten = pb.ModelProto()
    rewritten.CopyFrom(model)
    del rewritten.graph.node[:]
    rewritten.graph.node.extend(nodes)
    serialized: bytes = rewritten.SerializeToString()
    return serialized
