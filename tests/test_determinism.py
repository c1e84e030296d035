"""Byte stability (see "Rendering" in docs/architecture.md): the same store state and
request give identical bytes and the same rendered_sha256 in separate processes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from recallflow import Memory
from recallflow.cli import demo
from tests.helpers import request
from tests.test_recall import AS_OF, demo_memory  # noqa: F401  (fixture)

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from recallflow import open_memory
    from recallflow.adapters.embedders.hashing import HashingEmbedder
    req = json.loads(sys.argv[2])
    with open_memory(sys.argv[1], embedder=HashingEmbedder()) as memory:
        r = memory.recall(req)
        print(json.dumps({"block": r.block, "sha": r.rendered_sha256,
                          "ids": list(r.trace.rendered_ids)}))
    """
)


def test_two_processes_render_identical_bytes(demo_memory: Memory) -> None:  # noqa: F811
    req = request(
        demo.TENANT,
        demo.PRINCIPAL,
        "How are money amounts represented in cents?",
        project=demo.MOBILE,
        as_of=AS_OF.isoformat(),
        working_state={"entities": ["billing-api", "checkout"]},
    )
    outputs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", _SCRIPT, demo_memory.uri, json.dumps(req)],
                check=True,
                capture_output=True,
                text=True,
                timeout=120,
            ).stdout
        )
        for _ in range(2)
    ]
    here = demo_memory.recall(req)
    assert outputs[0] == outputs[1]
    assert outputs[0]["block"] == here.block and outputs[0]["sha"] == here.rendered_sha256
    assert outputs[0]["ids"] == list(here.rendered_ids) and here.rendered_ids
