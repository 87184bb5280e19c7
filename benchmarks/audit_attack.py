"""The audit pointed at checkpoints as researchers save them, on cases the sweep does not
build: head classes, encoder-decoder compositions, half-precision weights, per-layer
RoPE and windows as real configs set them, position tables shorter than ``--L-ex``,
broken folders, and a forward pass that raises.

Each case writes a tiny seeded checkpoint with ``save_pretrained`` (safetensors) and a
byte-level BPE tokenizer trained here (nothing downloaded), then runs the command
(``python -m empirical.audit``, or align / assumptions / collect) on its folder through
the command's own ``main``, as a user runs it.  Outcomes:

* ``exact``: exit 0 and every per-head P_max and entropy of the report within 1e-5 and
  mean distance within 1e-3 tokens of the eager model's ``output_attentions`` on the
  same windows (the sweep's reference, :mod:`empirical.capture.sweep.architectures`);
* ``refused``: exit 2, one ``error:`` line, matching the reason the case expects;
* ``DEFECT``: anything else (another exit, a traceback, a wrong number, a refusal for
  another reason, files left under ``--out`` by a refusal).

Run (the cases: about 10 minutes on one idle core; a head class: about 116 types)::

    nice -n 5 python -m benchmarks.audit_attack            # every case, the table
    python -m benchmarks.audit_attack --cases gpt_neo_short llama_seqcls --json
    nice -n 5 python -m benchmarks.audit_attack --heads sequence-classification

exits 1 when a case is a defect.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
import tempfile
from pathlib import Path

import torch
import transformers

from benchmarks.audit_attack_cases import (  # noqa: F401 (the cases' writers, for tests)
    HEADS,
    L_EX,
    L_TR,
    Case,
    cases,
    head_cases,
    pickle_only,
    pickle_with_code,
    raising_mlp,
    saved,
)

TOL, TOL_DISTANCE = 1e-5, 1e-3


# ---------------------------------------------------------------------- running
COMMANDS = {
    "audit": ("empirical.audit.cli", ["--L-tr", str(L_TR), "--n-tr", "1"]),
    "align": ("empirical.align.cli", ["--L-tr", str(L_TR), "--n-tr", "1"]),
    "assumptions": ("empirical.assumptions.cli", ["--L-tr", str(L_TR), "--n-tr", "1"]),
    "collect": ("empirical.collect.cli", ["--n-seq", "1"]),
}


def run_command(case: Case, folder: Path, out: Path) -> tuple[int, str, str]:
    """``python -m empirical.<command>`` on ``folder`` through its ``main``: exit status,
    stdout, stderr."""
    import importlib

    module, argv = COMMANDS[case.command]
    main = importlib.import_module(module).main
    argv = ["--model", str(folder), *argv]
    if case.command == "collect":
        argv += ["--length", str(case.l_ex), "--corpus", "stdlib", "--out", f"{out}.json"]
    elif case.command == "audit":
        argv += ["--text", "stdlib", "--L-ex", str(case.l_ex), "--out", str(out), "--json"]
        argv += ["--quiet"]
    elif case.command == "align":
        argv += ["--corpus", "stdlib", "--L-ex", str(case.l_ex)]
    else:
        argv += ["--corpus", "stdlib", "--L-ex", str(case.l_ex), "--out", str(out)]
    stdout, stderr = io.StringIO(), io.StringIO()
    patch = case.patch() if case.patch else contextlib.nullcontext()
    with patch, contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(argv + case.extra)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    return code, stdout.getvalue(), stderr.getvalue()


def eager_errors(folder: Path, report: dict) -> tuple[float, float]:
    """The largest per-head error of the report's P_max / entropy and of its mean
    distance against the eager model's ``output_attentions`` on the audit's windows
    (rows from the report's ``query_from``), at every length."""
    from empirical.capture.measure import sequences
    from empirical.capture.models import encoder_part, load_model, multiple_choice
    from empirical.capture.positions import part_prefix, text_part
    from empirical.capture.sweep.architectures import (
        SCORE_MAPS,
        eager_probabilities,
        reference_statistics,
        unbanded,
    )

    lm = load_model(str(folder))
    cfg = transformers.AutoConfig.from_pretrained(folder)
    cls = getattr(transformers, (cfg.architectures or ["AutoModel"])[0])
    model = cls.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()
    err = err_d = 0.0
    for key, entry in report["lengths"].items():
        length = int(key)
        n = report["n_tr"] if length == report["L_tr"] else report["n_ex"]
        q0 = report["query_from"][key]
        got = entry["dispersion"]
        for ids in sequences(lm, report["text"], length, n):
            enc = encoder_part(model)
            part = enc or text_part(model)
            one = ids[:, None, :] if multiple_choice(part) else ids  # one choice: (B, 1, L)
            with torch.no_grad():
                out = part(input_ids=one, output_attentions=True)
            if cfg.model_type in SCORE_MAPS:  # scores before the softmax (SqueezeBERT)
                out["attentions"] = tuple(a.softmax(-1) for a in out.attentions)
            prefix = part_prefix(model, part)
            names = [n[len(prefix) :] for n in report["attention_modules"]]
            probs = eager_probabilities(part, out, names)
            if set(probs) != set(names):
                raise AssertionError(f"eager maps for {sorted(probs)}, report {names}")
            mods = dict(part.named_modules())
            for name, p in probs.items():
                band = getattr(mods[name], "one_sided_attn_window_size", None)
                if isinstance(band, int) and p.shape[-1] == 2 * band + 1:  # Longformer, LED
                    p = unbanded(p, band)
                r = reference_statistics(p, ids.shape[1], q0)
                g = got[prefix + name]["per_head"]
                for k in ("pmax", "entropy"):
                    err = max(err, float((torch.tensor(g[k]) - r[k]).abs().max()))
                d = torch.tensor(g["mean_distance"]) - r["mean_distance"]
                err_d = max(err_d, float(d.abs().max()))
    return err, err_d


def outcome(case: Case, root: Path) -> tuple[str, str]:
    """``(outcome, detail)`` of one case (module docstring)."""
    folder, out = root / case.name, root / f"{case.name}-out"
    try:
        case.make(folder)
    except Exception as exc:  # noqa: BLE001 - a case that cannot be written
        return "not built", f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    code, stdout, stderr = run_command(case, folder, out)
    if Path("PWNED").exists():
        Path("PWNED").unlink()
        return "DEFECT", "code in the checkpoint's pickle ran"
    errors = [x for x in stderr.splitlines() if x.startswith("error:")]
    if "Traceback" in stderr:
        return "DEFECT", f"exit {code} with a traceback: {stderr.strip().splitlines()[-1][:200]}"
    if code == 2 and len(errors) == 1:
        left = [p.name for p in out.iterdir()] if out.exists() else []
        if "kept in" in errors[0] and (out / "cache").is_dir():  # a resumable cache, said
            left = []
        if case.expect == "refused" and re.search(case.why, errors[0]) and not left:
            return "refused", errors[0][7:250]
        extra = f" (left {left} under --out)" if left else ""
        return "DEFECT", f"refused{extra}: {errors[0][7:250]}"
    if code != 0:
        line = errors[-1] if errors else stderr.strip()[-200:]
        return "DEFECT", f"exit {code}: {line[:250]}"
    if case.expect == "refused":
        return "DEFECT", "ran where it must be refused"
    if case.command != "audit":
        return "ran", "exit 0"
    report = json.loads(stdout)
    try:
        err, err_d = eager_errors(folder, report)
    except Exception as exc:  # noqa: BLE001 - no eager reference for this case
        return "DEFECT", f"no eager reference: {type(exc).__name__}: {str(exc)[:200]}"
    detail = f"P_max/entropy {err:.1e}, distance {err_d:.1e} tokens"
    ok = err <= TOL and err_d <= TOL_DISTANCE
    return ("exact" if ok else "DEFECT"), detail + ("" if ok else " (different from eager)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.audit_attack", description=__doc__)
    p.add_argument("--cases", nargs="+", metavar="NAME", help="cases to run (default: all)")
    p.add_argument(
        "--heads",
        choices=tuple(HEADS),
        help="instead of the cases: every text model type saved from this head class",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    a = p.parse_args(argv)
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    torch.set_num_threads(1)
    every = {c.name: c for c in (head_cases(a.heads) if a.heads else cases())}
    unknown = sorted(set(a.cases or ()) - set(every))
    if unknown:
        print(f"error: unknown case(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="lengthx-attack-") as tmp:
        for name in a.cases or every:
            got, detail = outcome(every[name], Path(tmp))
            rows.append({"case": name, "expected": every[name].expect, "outcome": got,
                         "detail": detail})  # fmt: skip
            if not a.json:
                print(f"| {name} | {every[name].expect} | {got} | {detail} |", flush=True)
    if a.json:
        print(json.dumps({"cases": rows}))
    return 1 if any(r["outcome"] == "DEFECT" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
