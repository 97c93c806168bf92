"""Run Kazan & Reiter's own grid search (find_eps.R, in their public repository) on every risk
profile the Kazan & Reiter notebook evaluates at its defaults, and write what it returns to
data/authors_code/kazan_reiter_find_eps.csv.

Their repository has no licence file, so none of its code is copied here: this script writes each
profile as an R function of its own, sources find_eps.R from the checkout named on the command
line, unchanged, and records ε, p and q per profile with the commit and the R version. Numbers
cross the language boundary as C99 hexadecimal floats, so they are exact both ways, and are
written with Python's shortest round-trip repr: a rerun with the same R gives the same bytes.

python tools/authors_code.py CHECKOUT        # run by `make authors-code AUTHORS_CHECKOUT=CHECKOUT`
"""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from choosing_epsilon.harness import parameters
from choosing_epsilon.papers.kazan_reiter_2024 import forensics as kr

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "data" / "authors_code" / "kazan_reiter_find_eps.csv"
COLUMNS = [
    "profile",
    "form",
    "parameters",
    "grid_epsilon",
    "grid_p",
    "grid_q",
    "outcome",
    "authors_commit",
    "find_eps_blob",
    "r_version",
]
FOUND = "found"
NO_BINDING_POINT = "no grid point where the profile binds: find_eps stops with the R error "

# each form as an R function of (p, q), with the arithmetic of choosing_epsilon.risk_profiles
R_FORMS = {
    "constant": "function(p, q) {r}",
    "fixed_q": "function(p, q) if (q != {q}) Inf else max({a} / (p * {q}), {r})",
    "fixed_p": "function(p, q) if (p != {p}) Inf else max({a} / ({p} * q), {r})",
    "two_dimensional": "function(p, q) max({a} / (p * q), {r})",
    "box": "function(p, q) if ({p0} <= p && p <= {p1} && {q0} <= q && q <= {q1}) {r} else Inf",
    "difference": "function(p, q) 1 + {b} / (p * q)",
}
R_DRIVER = """
source(file.path({checkout}, "find_eps.R"))
cat(R.version.string, "\\n", sep = "")
profiles <- list(
{profiles}
)
for (index in seq_along(profiles)) {{
  found <- tryCatch(find_eps(profiles[[index]]), error = function(e) conditionMessage(e))
  if (is.character(found)) {{
    cat(index, "error", found, "\\n", sep = "\\t")
  }} else {{
    cat(index, "found", sprintf("%a", found$eps), sprintf("%a", found$p), sprintf("%a", found$q),
        "\\n", sep = "\\t")
  }}
}}
"""


def stop(message: str) -> None:
    print(f"make authors-code: {message}", file=sys.stderr)
    raise SystemExit(2)


def git_blob_id(path: Path) -> str:
    """The id git gives the file's content (sha1 of ``blob <size>\\0<bytes>``)."""
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest()


def r_number(value: float) -> str:
    """An exact R literal for a double (hexadecimal, C99 syntax), or Inf."""
    return "Inf" if value == float("inf") else float(value).hex()


def r_function(spec: kr.ProfileSpec) -> str:
    return R_FORMS[spec.form].format(**{k: r_number(v) for k, v in spec.values})


def r_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run(checkout: Path, specs: list[kr.ProfileSpec]) -> tuple[str, list[list[str]]]:
    """Run find_eps on each profile; return the R version and one result row per profile."""
    functions = ",\n".join(f"  {r_function(s)}" for s in specs)
    script = R_DRIVER.format(checkout=r_string(str(checkout)), profiles=functions)
    with tempfile.TemporaryDirectory() as folder:
        driver = Path(folder) / "driver.R"
        driver.write_text(script)
        done = subprocess.run(
            ["Rscript", "--vanilla", str(driver)], capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        stop(f"Rscript failed: {done.stderr.strip().splitlines()[-1:]}")
    version, *lines = done.stdout.strip().splitlines()
    rows = []
    for spec, line in zip(specs, lines, strict=True):
        fields = line.rstrip("\t").split("\t")
        if fields[1] == "found":
            eps, p, q = (repr(float.fromhex(x)) for x in fields[2:5])
            rows.append([spec.name, spec.form, spec.parameters, eps, p, q, FOUND])
        else:
            reason = NO_BINDING_POINT + repr(fields[2].strip())
            rows.append([spec.name, spec.form, spec.parameters, "", "", "", reason])
    return version.strip(), rows


def main(argv: list[str]) -> None:
    if len(argv) != 1 or not argv[0]:
        stop(
            "give the path of a checkout of github.com/" + kr.AUTHORS_REPOSITORY + " at commit "
            f"{kr.AUTHORS_COMMIT[:12]}: make authors-code AUTHORS_CHECKOUT=path"
        )
    if shutil.which("Rscript") is None:
        stop("no Rscript on PATH: install R (Debian: apt-get install -y r-base-core)")
    checkout = Path(argv[0]).resolve()
    find_eps = checkout / "find_eps.R"
    if not find_eps.is_file():
        stop(f"{checkout} has no find_eps.R: give a checkout of {kr.AUTHORS_REPOSITORY}")
    if git_blob_id(find_eps) != kr.AUTHORS_FIND_EPS_BLOB:
        stop(
            f"{find_eps} is not the find_eps.R of commit {kr.AUTHORS_COMMIT[:12]} (git blob "
            f"{git_blob_id(find_eps)[:12]}, expected {kr.AUTHORS_FIND_EPS_BLOB[:12]})"
        )
    values = {name: p.committed for name, p in parameters.SPECS["kazan_reiter_2024"].items()}
    specs = kr.authors_code_profiles(values)
    version, rows = run(checkout, specs)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([*row, kr.AUTHORS_COMMIT, kr.AUTHORS_FIND_EPS_BLOB, version])
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text.getvalue())
    found = sum(row[6] == FOUND for row in rows)
    print(
        f"{OUTPUT.relative_to(ROOT)}: {len(rows)} profiles, {found} found by the grid ({version})"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
