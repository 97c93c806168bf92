"""What an executed notebook shows a reader: the text the notebook-running tests search."""

import nbformat


def outputs_text(path) -> str:
    """All text the executed notebook printed or displayed (streams and text/plain), one output
    per line."""
    nb = nbformat.read(path, as_version=4)
    return "\n".join(
        out.get("text", "")
        if out.output_type == "stream"
        else out.get("data", {}).get("text/plain", "")
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
    )
