"""What an executed notebook shows a reader: the text the notebook-running tests search, and
how large the files of a run are."""

import json
import re

import nbformat
from PIL import Image

from choosing_epsilon.plots import figures

# a backslash escape of one of Markdown's special characters (``figures.markdown_escaped``)
_ESCAPED = re.compile(r"\\" + figures._MARKDOWN_SPECIAL.pattern)


def outputs_text(path) -> str:
    """All text the executed notebook printed or displayed (streams, and text/markdown where a
    display has it, read as a reader sees it, without Markdown's escapes; else text/plain), one
    output per line."""
    nb = nbformat.read(path, as_version=4)

    def shown(out) -> str:
        if out.output_type == "stream":
            return out.get("text", "")
        data = out.get("data", {})
        if "text/markdown" in data:
            return _ESCAPED.sub(r"\1", data["text/markdown"])
        return data.get("text/plain", "")

    return "\n".join(
        shown(out) for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )


def assert_files_bounded(out, mb: float = 2.0) -> None:
    """Every file a run wrote into ``out`` is under ``mb`` megabytes, and every PNG under 2,500
    pixels on its longer side."""
    for f in out.iterdir():
        assert f.stat().st_size < mb * 1e6, f"{f.name} is {f.stat().st_size} bytes"
        if f.suffix == ".png":
            assert max(Image.open(f).size) < 2500


def strict_load(text: str) -> object:
    """json.loads that refuses NaN, Infinity and -Infinity, as strict parsers (jq, a browser) do."""

    def refuse(constant: str) -> object:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)
