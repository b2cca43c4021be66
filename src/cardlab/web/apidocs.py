"""The API description as one self-contained HTML page: `/docs` works without internet.

FastAPI's Swagger UI loads its scripts from a CDN, so offline it is a blank page; this renders the
app's own OpenAPI schema (paths, request bodies, responses, the schemas they name) server-side.
"""

from __future__ import annotations

import html
import json
from typing import Any

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}"
    "pre{background:#f4f4f4;padding:.6rem;overflow:auto;font-size:.85rem}h2{margin-top:2rem}"
    ".method{font-weight:700;text-transform:uppercase;margin-right:.5rem}"
)


def _schema(schema: dict[str, Any], components: dict[str, Any]) -> str:
    """A schema with its `$ref`s resolved one level deep, as indented JSON."""
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        return f"<p><b>{html.escape(name)}</b></p>{_block(components.get(name, {}))}"
    return _block(schema)


def _block(value: Any) -> str:
    """Indented JSON in a box that scrolls, which the keyboard can reach to scroll it (WCAG 2.1.1)."""
    return f'<pre tabindex="0">{html.escape(json.dumps(value, indent=1))}</pre>'


def api_page(openapi: dict[str, Any]) -> str:
    """Every operation of the schema: method, path, summary, parameters, request body and responses."""
    components = openapi.get("components", {}).get("schemas", {})
    info = openapi.get("info", {})
    parts = [
        f"<h1>{html.escape(info.get('title', 'API'))} {html.escape(str(info.get('version', '')))}</h1>",
        f"<p>{html.escape(info.get('description', ''))} The schema as JSON: <a href='/openapi.json'>/openapi.json</a>."
        ' Errors are 4xx JSON objects <code>{"error": reason}</code> (an illegal action adds <code>legal</code>).'
        " <a href='/'>Back to the lobby</a>.</p>",
    ]
    for path, operations in openapi.get("paths", {}).items():
        for method, operation in operations.items():
            parts.append(
                f"<h2><span class='method'>{html.escape(method)}</span><code>{html.escape(path)}</code></h2>"
                f"<p>{html.escape(operation.get('summary', ''))}</p>"
            )
            if operation.get("description"):
                parts.append(f"<p>{html.escape(operation['description'])}</p>")
            for parameter in operation.get("parameters", []):
                required = ", required" if parameter.get("required") else ""
                where = f"{parameter.get('name')} ({parameter.get('in')}{required})"
                parts.append(f"<p>parameter <code>{html.escape(where)}</code></p>")
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                parts.append("<h3>Request body</h3>" + _schema(body, components))
            codes = ", ".join(html.escape(code) for code in operation.get("responses", {}))
            parts.append(f"<p>responses: {codes}</p>")
    body = "\n".join(parts)
    head = f"<meta charset='utf-8'><title>cardlab API</title><style>{_STYLE}</style>"
    return f"<!doctype html><html lang='en'><head>{head}</head><body>{body}</body></html>"
