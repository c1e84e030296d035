"""The technique families a finding can name.

A finding names how the text tries to steer the model rather than just saying "bad", so
a blocked item can be explained and the per-family detection rate can be measured. The
ids are stable: they end up in traces and reports, so renaming one is a breaking change.
"""

from __future__ import annotations

from typing import Final

INSTRUCTION_OVERRIDE: Final = "instruction_override"
ROLE_MARKER: Final = "role_marker"
MEMORY_IMPERSONATION: Final = "memory_impersonation"
TOOL_CALL: Final = "tool_call"
BLOCK_DELIMITER: Final = "block_delimiter"
EXFILTRATION: Final = "exfiltration"
PERSUASION: Final = "persuasion"
ROLEPLAY: Final = "roleplay"
MANY_SHOT: Final = "many_shot"
OUTPUT_HIJACK: Final = "output_hijack"
MULTILINGUAL: Final = "multilingual"
ENCODED_PAYLOAD: Final = "encoded_payload"
PAYLOAD_SPLITTING: Final = "payload_splitting"
TOKEN_SMUGGLING: Final = "token_smuggling"

#: Every family id a scan can return, in the order the scanner tries them.
FAMILIES: Final[tuple[str, ...]] = (
    BLOCK_DELIMITER,
    MANY_SHOT,
    ROLE_MARKER,
    MEMORY_IMPERSONATION,
    TOOL_CALL,
    INSTRUCTION_OVERRIDE,
    EXFILTRATION,
    PERSUASION,
    ROLEPLAY,
    OUTPUT_HIJACK,
    MULTILINGUAL,
    PAYLOAD_SPLITTING,
    ENCODED_PAYLOAD,
    TOKEN_SMUGGLING,
)
