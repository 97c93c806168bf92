"""One run of a notebook at a reader's parameters, for the sweep's cases: it must end, write
strict JSON, record no figure-style problem and print nothing to stderr."""

import json

from choosing_epsilon.harness import reproduce
from tests.notebook_text import outputs_text, strict_load


def run(notebook: str, params: dict, out) -> tuple[str, dict, dict]:
    """Run ``notebook`` at ``params`` into ``out`` (an exception is a failed run): the text it
    printed, its results (strict JSON) and its captions."""
    reproduce.run_notebook(notebook, params, out)
    captions = json.loads((out / "captions.json").read_text(encoding="utf-8"))
    assert {name: c["problems"] for name, c in captions.items() if c.get("problems")} == {}
    executed = json.loads((out / f"{notebook}.ipynb").read_text(encoding="utf-8"))
    stderr = [
        "".join(output["text"])
        for cell in executed["cells"]
        for output in cell.get("outputs", [])
        if output.get("name") == "stderr"
    ]
    assert stderr == []
    results = strict_load((out / "results.json").read_text(encoding="utf-8"))
    assert isinstance(results, dict)
    return outputs_text(out / f"{notebook}.ipynb"), results, captions
