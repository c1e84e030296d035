"""Charts as inline SVG, and the self-contained HTML page that holds them: what the
benchmark and evaluation reports are drawn with.

The charts are ``pygal``'s (extra ``viz``; pure Python, no system package), rendered with
no external script or stylesheet, so a report is one file that opens anywhere, offline.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from recallflow.errors import ConfigurationError

#: A value a chart leaves out (a tier or system that did not measure it).
Value = float | None


def _pygal() -> Any:
    try:
        import pygal
    except ImportError as exc:
        raise ConfigurationError(
            "the HTML report's charts need pygal: pip install 'recallflow[viz]'"
        ) from exc
    return pygal


def _config(title: str, y_title: str, x_labels: Sequence[str]) -> dict[str, Any]:
    return {
        "title": title,
        "y_title": y_title,
        "x_labels": list(x_labels),
        "x_label_rotation": 20 if len(x_labels) > 6 else 0,
        "js": [],  # no external script: the page must open offline
        "disable_xml_declaration": True,
        "width": 900,
        "height": 420,
        "legend_at_bottom": True,
        "truncate_legend": 40,
        "print_values": False,
        "show_minor_x_labels": True,
    }


def bar_chart(
    title: str,
    x_labels: Sequence[str],
    series: Mapping[str, Sequence[Value]],
    *,
    y_title: str = "",
    horizontal: bool = False,
) -> str:
    """A grouped bar chart: one bar per series at each x label."""
    pygal = _pygal()
    kind = pygal.HorizontalBar if horizontal else pygal.Bar
    chart = kind(**_config(title, y_title, x_labels))
    for name, values in series.items():
        chart.add(name, list(values))
    return str(chart.render(is_unicode=True))


def line_chart(
    title: str,
    x_labels: Sequence[str],
    series: Mapping[str, Sequence[Value]],
    *,
    y_title: str = "",
    logarithmic: bool = False,
) -> str:
    """A line chart: one line per series across the x labels (tiers, runs)."""
    pygal = _pygal()
    chart = pygal.Line(logarithmic=logarithmic, **_config(title, y_title, x_labels))
    for name, values in series.items():
        chart.add(name, list(values), stroke_style={"width": 2})
    return str(chart.render(is_unicode=True))


def page(title: str, sections: Sequence[tuple[str, str]], *, source: str = "") -> str:
    """A self-contained HTML page: a heading per section, each section's body as given
    (inline SVG charts, tables, preformatted text)."""
    made = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;"
        "padding:0 1em;color:#222}h2{border-bottom:1px solid #ddd;padding-bottom:.2em}"
        "pre{background:#f6f6f6;padding:1em;overflow-x:auto;font-size:12px}"
        "figure{margin:1em 0}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}"
        "td:first-child,th:first-child{text-align:left}</style>",
        "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(source)} · written {made}</p>",
    ]
    for heading, body in sections:
        parts.append(f"<section><h2>{html.escape(heading)}</h2>{body}</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def figure(svg: str) -> str:
    """An inline chart in the page."""
    return f"<figure>{svg}</figure>"


def preformatted(text: str) -> str:
    """Text (a Markdown report) shown as written."""
    return f"<pre>{html.escape(text)}</pre>"


def note(text: str) -> str:
    """A paragraph."""
    return f"<p>{html.escape(text)}</p>"
