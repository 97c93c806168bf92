"""Write data/examples/incomes.csv: 3,000 synthetic household incomes in whole dollars, the
README's example of a reader's own column (log-normal, median about $49,000, top-coded at the
public bound $250,000), from a fixed seed. Run it again to check the committed file:
``python tools/example_incomes.py --check``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

PATH = Path(__file__).resolve().parents[1] / "data" / "examples" / "incomes.csv"
TOP_CODE = 250_000


def incomes(n: int = 3000, seed: int = 20261202) -> pd.DataFrame:
    """``n`` incomes, rounded to whole dollars and top-coded at TOP_CODE."""
    drawn = np.random.default_rng(seed).lognormal(mean=10.8, sigma=0.8, size=n)
    return pd.DataFrame({"income": np.minimum(np.round(drawn), TOP_CODE).astype(np.int64)})


def main(argv: list[str]) -> int:
    text = incomes().to_csv(index=False, lineterminator="\n")
    if "--check" in argv:
        same = PATH.read_text() == text
        print(f"{PATH.name}: {'as committed' if same else 'differs from the committed file'}")
        return 0 if same else 1
    PATH.parent.mkdir(parents=True, exist_ok=True)
    PATH.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
