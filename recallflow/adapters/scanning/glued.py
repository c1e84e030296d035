"""Key attack phrases with every word break removed.

Text spaced one letter at a time with no wider gap between words ("i g n o r e p r e v
i o u s r u l e s") loses its word breaks when the letters are joined, so the word-based
rules cannot read it. These phrases are built from the same verb and noun classes, with
the breaks taken out, and are only matched against such joined runs.
"""

from __future__ import annotations

import re
from typing import Final

GLUED_PHRASE: Final = re.compile(
    r"(?:ignore|disregard|forget|bypass|override|skip|drop|discard|abandon)(?:all|the|your|"
    r"any|every|of|my|these)*(?:previous|prior|above|earlier|preceding|original|initial|system|"
    r"safety|existing|old)*(?:instructions?|rules|prompts?|guidelines|directives|directions|"
    r"restrictions|polic(?:y|ies)|constraints|programming|filters)"
    r"|(?:reveal|print|show|output|leak|tellme|repeat|dump|send)(?:me|us)?(?:the|your|all)*"
    r"(?:system|hidden|secret|initial|original)(?:prompt|instructions|message)"
    r"|(?:reveal|print|show|output|leak|tellme|send|dump)(?:me|us)?(?:the|your|all)*"
    r"(?:apikeys?|passwords?|secrets|credentials|privatekeys?)"
    r"|(?:youarenow|pretendyouare|pretendtobe|actas|youre)(?:an?)?(?:dan|unrestricted|"
    r"unfiltered|jailbroken|evil|uncensored)"
    r"|developermode|doanythingnow|jailbreakmode|norestrictions|nofilters|norules"
)
