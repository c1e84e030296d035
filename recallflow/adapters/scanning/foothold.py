"""A foothold planted through a coding agent: a key let in, a secret published, a
repository's safeguard switched off, an outside account made its admin.

A coding agent's memory holds the conventions of the user's repositories ("this repo uses
pnpm", "run make test before pushing"), and a planted one reads the same: a standing order
the agent carries out in the user's code and machines. Four such orders leave someone else
a way in, each read by classes of words in one sentence:

* *a key let in*: ``authorized_keys`` named beside a public key written out (``ssh-rsa
  AAAA…``) that no one's possessive claims as the user's ("the user's public key is
  ssh-ed25519 AAAA…; add it to new servers they set up" is their own);
* *a secret published*: a verb that puts something somewhere (commit, push, upload, paste,
  post, log), a file or value that holds credentials (an ``.env`` file, a private key, a
  credentials file, a keystore, an access token), and a place anyone can read (a public
  repository, gist or bucket, a paste site, the CI's logs), with no negation before the
  verb ("never commit the .env file to the public repo" is the rule that protects it);
* *a repository's safeguard switched off*: an order at the head of its clause to disable,
  remove, bypass or skip branch protection, required status checks, commit signing, secret
  or code scanning, or security alerts; a report that it was disabled ("branch protection
  was disabled during the migration") orders nothing, and a review skipped for small
  changes ("skip code review for typo-only PRs") is a team's own convention;
* *an outside account made admin*: an account written as an address or a quoted handle
  added, invited or made an admin, owner or maintainer of every or all repositories,
  projects or organisations; one teammate made admin of one repository is ordinary work.
"""

from __future__ import annotations

import re
from typing import Final

from recallflow.adapters.scanning.families import (
    EXFILTRATION,
    INSTRUCTION_OVERRIDE,
    TOOL_CALL,
)
from recallflow.adapters.scanning.rule import Rule, regex_rules

# --- a key let in -------------------------------------------------------------------------
#: A public key written out.
_KEY_LITERAL: Final = re.compile(
    r"\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-[\w-]+|sk-(?:ssh|ecdsa)-[\w@.-]+)\s+AAAA", re.I
)
#: The key claimed as someone's own ("the user's public key", "my key", "their laptop's key").
_KEY_CLAIMED: Final = re.compile(
    r"\b(?:user'?s|my|our|their|his|her)\s+(?:[\w'-]+\s+){0,2}?(?:public\s+|ssh\s+)?keys?\b",
    re.I,
)


def key_let_in(text: str) -> bool:
    """Whether ``text`` (the scanner's latin view) names ``authorized_keys`` beside a public
    key written out that no possessive claims as the user's (see the module docstring)."""
    return (
        "authorized_keys" in text.lower()
        and _KEY_LITERAL.search(text) is not None
        and _KEY_CLAIMED.search(text) is None
    )


# --- a secret published -------------------------------------------------------------------
#: A file or value that holds credentials (folded Latin script).
_SECRET_FILE: Final = (
    r"(?:\.env(?:\.\w+)?(?:\s+files?)?|env\s+files?|(?:aws\s+)?credentials(?:\s+files?)?|"
    r"secrets?\s+files?|keystores?|id_(?:rsa|ed25519|ecdsa|dsa)(?:\.pub)?|[\w-]+\.pem|"
    r"private\s+keys?|service[-\s]account\s+(?:keys?|json)|(?:api|access|deploy)\s+(?:keys?|"
    r"tokens?)|kubeconfig|\.npmrc|\.pypirc|\.netrc|secrets)"
)
#: A place anyone can read.
_PUBLIC_PLACE: Final = (
    r"(?:(?:(?:the|a|an|our|your|their)\s+)?(?:public|open)\s+(?:github\s+|gitlab\s+)?(?:repo\w*|"
    r"gists?|buckets?|channels?|pages?|sites?|pastes?|forums?|issues?|wikis?|folders?|"
    r"drives?|links?)|pastebin\w*|hastebin|(?:the\s+)?(?:ci|build|public)\s+logs?)"
)
_PUBLISHED: Final = (
    r"(?<!never\s)(?<!not\s)(?<!n't\s)(?<!no\s)\b(?:commit|push|publish|upload|paste|post|"
    r"check\s+in|copy|log|echo|print|export|add)\w*\s+(?:[\w'.~/-]+\s+){0,4}?"
    rf"{_SECRET_FILE}\b[^.!?\n]{{0,60}}?\b(?:to|in|into|on|onto)\s+{_PUBLIC_PLACE}"
)

# --- a repository's safeguard switched off ------------------------------------------------
_REPO_SAFEGUARD: Final = (
    r"(?:the\s+|all\s+|any\s+)?(?:branch\s+protection(?:\s+rules?)?|required\s+status\s+"
    r"checks|commit\s+signing|signed\s+commits|signature\s+"
    r"(?:checks?|verification)|secret\s+scanning|push\s+protection|code\s+scanning|"
    r"security\s+(?:alerts?|scanning|checks?)|dependabot(?:\s+alerts)?)"
)
_SWITCHED_OFF: Final = (
    r"(?:^|(?<=[.!?;:,\n])|(?<=\band)|(?<=\bthen))\s*(?:(?:when|whenever|before|after|if)\b"
    r"[^,.;\n]{0,60},\s*)?"
    r"(?:(?:please|always|also|just|then|quietly|first)\s+)*(?:disable|turn\s+off|switch\s+off|"
    rf"remove|bypass|skip|delete|deactivate|drop)\s+{_REPO_SAFEGUARD}\b"
)

# --- an outside account made admin --------------------------------------------------------
_ACCOUNT: Final = r"(?:[\w.+-]+@[\w-]+\.[\w.-]+|['\"`][\w.-]{2,40}['\"`]|user\s+@?[\w-]+)"
_MADE_ADMIN: Final = (
    rf"\b(?:add|invite|make|grant|give)\w*\s+(?:\w+\s+){{0,2}}?{_ACCOUNT}[^.!?\n]{{0,60}}?\b"
    r"(?:admin|administrator|owner|maintainer)s?\b[^.!?\n]{0,40}?\b(?:every|all|each|any)\s+"
    r"(?:[\w'-]+\s+){0,3}?(?:repos?|repositor(?:y|ies)|projects?|orgs?|organi[sz]ations?|"
    r"workspaces?)\b"
)

#: Footholds planted through a coding agent.
FOOTHOLD_RULES: Final[tuple[Rule, ...]] = (
    Rule(TOOL_CALL, "latin", key_let_in, (frozenset({"authorized"}),)),
    *regex_rules(
        EXFILTRATION,
        "latin",
        (
            (
                frozenset({"commit", "push", "publish", "upload", "paste", "post", "check"})
                | {"copy", "log", "echo", "print", "export", "add", "commits", "pushes"},
                _PUBLISHED,
            ),
        ),
    ),
    *regex_rules(
        INSTRUCTION_OVERRIDE,
        "latin",
        (
            (
                frozenset({"disable", "turn", "switch", "remove", "bypass", "skip", "delete"})
                | {"deactivate", "drop"},
                _SWITCHED_OFF,
            ),
        ),
    ),
    *regex_rules(
        TOOL_CALL,
        "latin",
        (
            (
                frozenset({"admin", "administrator", "owner", "maintainer", "admins", "owners"})
                | {"maintainers"},
                _MADE_ADMIN,
            ),
        ),
    ),
)
