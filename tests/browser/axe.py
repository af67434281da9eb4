"""axe-core (the npm package, from node_modules: no network) run on the widget in the page.

Only the widget is checked (JupyterLab's own page is not ours to fix): the context is the
widget's root element(s). Violations of impact "serious" or "critical" are returned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any, selector: str = ".tl-root") -> list[dict[str, Any]]:
    """The serious and critical violations of WCAG 2.x A/AA rules (and best practices)
    inside every element matching ``selector``."""
    if not AXE.exists():
        raise FileNotFoundError(f"{AXE} is missing: run npm install (pip install -e . does)")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result: dict[str, Any] = page.evaluate(
        """async (selector) => {
            if (!document.querySelector(selector)) throw new Error('nothing matches ' + selector);
            return await window.axe.run(selector, {
                resultTypes: ['violations'],
                runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                                                'best-practice']}});
        }""",
        selector,
    )
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "nodes": [n["target"] for n in v["nodes"]][:5],
         "summary": [n.get("failureSummary", "") for n in v["nodes"]][:2]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
