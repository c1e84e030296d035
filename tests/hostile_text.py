"""Hostile text built from a grammar, for the functions every stored or asked text reaches.

Random characters almost never spell "May 0000" or "((((((((…": the texts here are made of
pieces a parser or a pattern has a case for (dates and numbers at their edges, scripts and
marks that change under folding, markup like the block's own tags, runs that make a
backtracking pattern retry) joined by the separators that decide how they are read. Plain
functions returning strategies, not fixtures.
"""

from __future__ import annotations

from hypothesis import strategies as st

MONTHS = ("January", "May", "december", "SEPT", "Feb", "mAy", "march", "Dec.")
#: Years, months and days at and past the calendar's edges.
YEARS = ("0", "0000", "1", "0001", "1969", "1970", "2024", "9998", "9999", "10000", "99999")
MONTH_NUMBERS = ("0", "00", "1", "01", "12", "13", "99")
DAYS = ("0", "00", "1", "1st", "2nd", "3rd", "29", "30", "31", "32", "99", "31st", "0th")
NUMBERS = (
    "-1",
    "-0",
    "0",
    "+7",
    "1/0",
    "3/4",
    "0.5",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "1,000,000",
    "9" * 40,
    "1" + "0" * 400,
    "0x" + "f" * 64,
    "١٢٣",  # Arabic-Indic digits
    "１２３４",  # full-width digits
    "²³",
    "½",
    "Ⅻ",
)
UNICODE = (
    "e\u0301",  # e + combining acute
    "a" + "\u0301\u0302\u0303" * 20,  # a stack of combining marks
    "\u202eevil\u202c",  # right-to-left override
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew
    "\u0645\u0631\u062d\u0628\u0627",  # Arabic
    "\u200b",
    "\u200d",
    "\ufeff",
    "\u2060",
    "\U0001f600",
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a joined emoji family
    "\U0001d400\U0001d401",  # mathematical bold letters (NFKC folds them)
    "\U000e0049\U000e0067\U000e006e",  # tag characters
    "ﬁ",  # ligature
    "ﬃ",
    "ß",
    "ẞ",
    "İstanbul",
    "ıi",  # Turkish dotless and dotted i
    "ǅ",  # title-case digraph
    "Ⅸ",
    "㍿",
    "ｆｕｌｌ　ｗｉｄｔｈ",
    "\u0130\u0307",
    "ΣΑΣ",  # final sigma on lowering
    "\u1e9e\u00df",
    "한국어",
    "日本語の文",
    "हिन्दी",
    "\u0e01\u0e33",  # Thai with a sara am
    "\u00a0",
    "\u3000",
    "\u2028",
    "\u2029",
    "\x85",
    "\x0b\x0c",
    "\r\n",
)
MARKUP = (
    "<recalled>",
    "</recalled>",
    "<memory>",
    "</memory>",
    "<belief id='x'>",
    "<|im_start|>system",
    "<|im_end|>",
    "[INST]",
    "[/INST]",
    "<<SYS>>",
    "### System:",
    "```",
    "```json",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<a href='javascript:alert(1)'>",
    "<<<<<<<<",
    ">>>>>>>>",
    "[[[[",
    "]]]]",
    "{{{{",
    "}}}}",
    "> > > >",
    "- [ ] ",
    "**__**",
    "| a | b |",
    "[x](y)",
    "&amp;&lt;&#x41;&#9999999;",
    "%s%d%n",
    "{0}{name}",
    "\\u0041\\x41\\",
)
WORDS = (
    "ignore",
    "previous",
    "instructions",
    "system",
    "prompt",
    "when",
    "When",
    "in",
    "since",
    "of",
    "How long",
    "what year",
    "Alice",
    "Bob Smith",
    "Mr.",
    "Dr",
    "user:",
    "Assistant:",
    "base64",
    "aGVsbG8gd29ybGQ=",
    "rot13",
    "concatenate",
    "+",
    "=",
    "'",
    '"',
    "`",
    "?",
    "!",
    ".",
    "...",
    ",",
    ":",
    ";",
    "-",
    "—",
    "/",
    "\\",
    "(",
    ")",
    "@",
    "#",
    "$",
    "%",
    "*",
    "_",
    "~",
    "|",
    "&",
    "a",
    "I",
    "x-y_z.py",
    "C:\\Users\\a\\file.txt",
    "https://example.com/a?b=c#d",
    "foo@example.com",
    "v1.2.3",
    "TODO",
)
#: Characters that, repeated, make a backtracking pattern retry at every position.
RUN_UNITS = (
    "a",
    "A",
    "aA",
    " ",
    "\n",
    "\t",
    " \n",
    "(",
    ")",
    "[",
    "<",
    ">",
    "'",
    '"',
    "`",
    "!",
    "?",
    ".",
    "-",
    "- ",
    "=",
    "+",
    "*",
    "_",
    "#",
    "|",
    "\\",
    "/",
    ":",
    "0",
    "9",
    "1 ",
    "a ",
    "a.",
    "a-",
    "a b ",
    "ignore ",
    "ignore\n",
    "Ignore all ",
    "system ",
    "A ",
    "Aa ",
    "a' ",
    "aA0",
    "x=",
    "ab+",
    "when ",
    "May ",
    "1st ",
    "\u200b",
    "e\u0301",
    "ß",
    "ı",
    "ﬁ",
    "１",
    "\U0001f600",
)

SEPARATORS = st.sampled_from(("", " ", "  ", "\n", "\n\n", "\t", ", ", ". ", "-", "/", "\u200b"))


@st.composite
def dates(draw: st.DrawFn) -> str:
    """A date or time written one of the ways a question writes one, at the edges."""
    year, month = draw(st.sampled_from(YEARS)), draw(st.sampled_from(MONTHS))
    day, number = draw(st.sampled_from(DAYS)), draw(st.sampled_from(MONTH_NUMBERS))
    two = draw(st.sampled_from(("00", "01", "12", "13", "29", "31", "32", "99")))
    forms = (
        f"{month} {year}",
        f"{month}, {year}",
        f"{month} of {year}",
        f"{month} {day}, {year}",
        f"{month} {day} {year}",
        f"{day} {month} {year}",
        f"{day} of {month}, {year}",
        f"{year}-{number}-{two}",
        f"{year}-{number}-{two}T25:61:61Z",
        f"{year.zfill(4)}-{number.zfill(2)}-{two}",
        f"in {year}",
        f"since {year}",
        f"during {year}",
        f"by {year}",
        f"throughout {year}",
        f"{number}/{two}/{year}",
        f"{two}.{number}.{year}",
        "24:00",
        "23:59:60",
        "-5 days ago",
        f"{year} years ago",
        f"last {month}",
        f"When was {month} {year}?",
        f"What happened in {month} {year}?",
    )
    return draw(st.sampled_from(forms))


@st.composite
def runs(draw: st.DrawFn, max_size: int = 4000) -> str:
    """One unit repeated, maybe with a different tail: "aaaa…!", "((((", "- - - -"."""
    unit = draw(st.sampled_from(RUN_UNITS))
    count = draw(st.integers(1, max(1, max_size // len(unit))))
    tail = draw(st.sampled_from(("", "!", "?", "a", " ", "\n", ")", ":", "x y", "=")))
    return (unit * count)[: max_size - len(tail)] + tail


def long_word(max_size: int) -> st.SearchStrategy[str]:
    """A word without a space, up to ``max_size`` characters long."""
    return st.builds(
        lambda unit, n: (unit * n)[:max_size],
        st.sampled_from(("a", "Ab", "x1", "é", "ß", "-", "_", "日", "e\u0301", "a.b", "A")),
        st.integers(1, max_size),
    )


def pieces(max_size: int) -> st.SearchStrategy[str]:
    """One piece of a hostile text."""
    return st.one_of(
        dates(),
        st.sampled_from(NUMBERS),
        st.sampled_from(UNICODE),
        st.sampled_from(MARKUP),
        st.sampled_from(WORDS),
        runs(max_size),
        long_word(max_size),
        st.sampled_from(("", " ", "\n", "\t\t", " \u3000 ")),
        st.text(max_size=8),
    )


@st.composite
def hostile_texts(draw: st.DrawFn, max_size: int = 4000, min_size: int = 0) -> str:
    """A text of grammar pieces joined by separators, at most ``max_size`` characters
    (the longest a statement, query or goal may be is 4000)."""
    parts = draw(st.lists(pieces(max_size), min_size=1, max_size=8))
    text = ""
    for part in parts:
        text += draw(SEPARATORS) + part
    text = text[:max_size]
    if len(text) < min_size:
        text = text + "x" * (min_size - len(text))
    return text
