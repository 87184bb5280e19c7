"""Every command against bad inputs: exit 2, exactly one stderr line ``error: ...`` (the
last one, after any progress output), nothing on stdout in ``--json`` mode, no traceback,
and no file left behind.

The commands run in-process (``main(argv)``, which goes through the shared entry point
``theory.core.cli.command``) with stdout and stderr captured; only the closed-pipe and
Ctrl-C cases start subprocesses.  Placeholders in a case (``{empty}``, ``{run}``, ...) are
the files of the ``workspace`` fixture; the current folder during a case is a folder whose
name has a space, so that default outputs would show up in the "left behind" check.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import os
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from theory.core.budget import HANG_FACTOR, cpu_limit

ROOT = Path(__file__).resolve().parents[2]
HAS_TORCH = importlib.util.find_spec("torch") is not None

#: command (``python -m NAME``) -> module holding its ``main``
MODULES = {
    "theory.trf": "theory.trf.cli",
    "theory.temperature": "theory.temperature.cli",
    "theory.infoscale": "theory.infoscale.cli",
    "theory.cosscale": "theory.cosscale.cli",
    "empirical.align": "empirical.align.cli",
    "empirical.assumptions": "empirical.assumptions.cli",
    "empirical.collect": "empirical.collect.cli",
    "empirical.train": "empirical.train.cli",
    "empirical.extrapolate": "empirical.extrapolate.cli",
    "empirical.erf": "empirical.erf.cli",
    "empirical.bundle": "empirical.bundle.cli",
    "figures": "figures.cli",
    "paper_checks": "paper_checks.cli",
    "empirical.audit": "empirical.audit.cli",
    "empirical.results": "empirical.results.cli",
    "benchmarks.bench_tiny_lm": "benchmarks.bench_tiny_lm",
    "benchmarks.bench_gaussian_softmax": "benchmarks.bench_gaussian_softmax",
}

TINY = "--steps 2 --seq-len 16 --n-layer 1 --d-model 16 --batch 2 --max-chars 20000"
ALIGN = "empirical.align --model t5-config:tiny --L-tr 16 --L-ex 32 --n-tr 1 --n-ex 1"
ASSUME = "empirical.assumptions --model t5-config:tiny --L-tr 16 --L-ex 32 --n-tr 1 --n-ex 1"
COLLECT = "empirical.collect --model t5-config:tiny --length 16 --n-seq 1"
TRAIN = f"empirical.train {TINY}"
BUNDLE = "empirical.bundle --profile ci"

# ---- by class: for each input type of a command, the wrong type, the empty value, the huge,
# the non-finite, the wrongly encoded and the missing parent folder ----------------------
HUGE = "1" + "0" * 30  # beyond every range, and beyond float64's integers
TEMP = "theory.temperature --L-tr 512 --L-ex 1000"
INFO = "theory.infoscale --d 128 --n-tr 64 --n 128"
EXTRA = "empirical.extrapolate {run} --lengths 16"
AUDIT = "empirical.audit --model t5-config:tiny --L-tr 16 --L-ex 32 --n-tr 1 --n-ex 1 --out a"
TINY_LM = "benchmarks.bench_tiny_lm --steps 1 --batch 1 --seq-len 8 --rpes alibi"
GAUSS = "benchmarks.bench_gaussian_softmax --quick --mc-work 100"
BY_CLASS = [
    # theory.temperature: lengths, real numbers, counts
    ("theory.temperature --L-tr 512.5 --L-ex 1000", "length: fractional"),
    ("theory.temperature --L-tr '' --L-ex 1000", "length: empty"),
    (f"theory.temperature --L-tr 512 --L-ex {HUGE}", "length: huge"),
    ("theory.temperature --L-tr 512 --L-ex nan", "length: nan"),
    (f"{TEMP} --sigma-tr ''", "real: empty"),
    (f"{TEMP} --sigma-tr 1e999 --json", "real: overflows to inf, --json"),
    (f"{TEMP} --sigma-tr 2.7 --sigma-ex 2.7 --pmax-tr abc", "real: not a number"),
    (f"{TEMP} --sigma-tr 1e300 --sigma-ex 1e300 --pmax-tr 0.5", "real: huge, overflows inside"),
    (f"{TEMP} --d 64.5", "count: fractional"),
    (f"{TEMP} --d {HUGE}", "count: huge"),
    ("theory.temperature --truth --L 100.5 --sigma 1", "--L fractional"),
    ("theory.temperature --truth --L 100 --sigma 1 --tau nan", "--tau nan"),
    ("theory.temperature --truth --L 100 --sigma 1 --draws 2.5", "--draws fractional"),
    ("theory.temperature --derivation ''", "choice: empty"),
    # theory.infoscale
    ("theory.infoscale --d 128 --n-tr 64 --n 4096.5", "length: fractional"),
    ("theory.infoscale --d 128 --n-tr 64.5 --n 4096", "training length: fractional"),
    ("theory.infoscale --d 128 --n-tr '' --n 4096", "length: empty"),
    (f"theory.infoscale --d 128 --n-tr 64 --n {HUGE}", "length: huge"),
    ("theory.infoscale --d 128 --n-tr 64 --n inf", "length: inf"),
    ("theory.infoscale --d 128.0 --n-tr 64 --n 128", "--d fractional"),
    (f"{INFO} --eps ''", "real: empty"),
    (f"{INFO} --eps 1e300", "real: huge, overflows inside"),
    (f"{INFO} --alpha-tr nan --json", "real: nan, --json"),
    # theory.cosscale
    ("theory.cosscale --d 128.5 --alpha 8", "--d fractional"),
    ("theory.cosscale --d 128 --alpha ''", "alpha: empty"),
    ("theory.cosscale --d 128 --alpha 1e-308", "alpha: tiny, divides by zero inside"),
    ("theory.cosscale --d 128 --alpha 8 1e999", "alpha: second value infinite"),
    # figures
    ("figures ''", "name: empty"),
    # empirical.train
    ("@TRAIN --out new --steps 2.5", "count: fractional"),
    ("@TRAIN --out new --steps ''", "count: empty"),
    (f"@TRAIN --out new --steps {HUGE}", "count: huge"),
    ("@TRAIN --out new --lr inf", "real: inf"),
    ("@TRAIN --out new --lr ''", "real: empty"),
    ("@TRAIN --out new --weight-decay nan", "real: nan"),
    ("@TRAIN --out new --corpus ''", "corpus: empty"),
    ("@TRAIN --out new --rpe ''", "RPE: empty"),
    ("@TRAIN --out new --rpe nosuch", "RPE: unknown name"),
    # empirical.extrapolate
    (f"{EXTRA}.5", "length: fractional"),
    ("empirical.extrapolate {run} --lengths ''", "length: empty"),
    (f"empirical.extrapolate {{run}} --lengths {HUGE}", "length: huge"),
    (f"{EXTRA} --eval-tokens nan", "count: nan"),
    (f"{EXTRA} --csv /missing/dir/x.csv", "--csv: missing parent folder"),
    (f"{EXTRA} --csv ''", "--csv: empty"),
    (f"{EXTRA} --plot {{file}}/x.png --json", "--plot: parent is a file, --json"),
    ("empirical.extrapolate ''", "run: empty"),
    # empirical.erf
    ("empirical.erf {run} --length 16.5", "length: fractional"),
    ("empirical.erf {run} --chunks ''", "count: empty"),
    (f"empirical.erf {{run}} --chunks {HUGE}", "count: huge"),
    ("empirical.erf {run} --eps inf", "real: inf"),
    ("empirical.erf {run} --eps ''", "real: empty"),
    ("empirical.erf {run} --plot ''", "--plot: empty"),
    ("empirical.erf ''", "run: empty"),
    # empirical.bundle
    ("@BUNDLE --out b --models nosuch", "model: unknown name"),
    ("@BUNDLE --out b --models ''", "model: empty"),
    ("empirical.bundle --profile nosuch", "profile: unknown name"),
    ("empirical.bundle --profile ''", "profile: empty"),
    (f"@BUNDLE --out b --workers {HUGE}", "count: huge"),
    ("@BUNDLE --out b --workers ''", "count: empty"),
    ("@BUNDLE --out b --workers inf", "count: inf"),
    # empirical.collect: text files in the wrong encoding, empty, missing
    ("@COLLECT --corpus {utf16}", "text: UTF-16"),
    ("@COLLECT --corpus {latin1} --json", "text: Latin-1, --json"),
    ("@COLLECT --corpus {utf16_jsonl}", "JSONL: UTF-16"),
    ("@COLLECT --corpus {empty}", "text: empty file"),
    ("@COLLECT --corpus ''", "text: empty name"),
    ("@COLLECT --length 16.5", "length: fractional"),
    (f"@COLLECT --length {HUGE}", "length: huge"),
    ("@COLLECT --tau inf", "real: inf"),
    ("@COLLECT --tau ''", "real: empty"),
    ("@COLLECT --out /missing/dir/stats.json", "--out: missing parent folder"),
    ("@COLLECT --out ''", "--out: empty"),
    # empirical.audit: the text
    (f"{AUDIT} --text {{utf16}}", "text: UTF-16"),
    (f"{AUDIT} --text {{latin1}}", "text: Latin-1"),
    (f"{AUDIT} --text {{empty}}", "text: empty file"),
    # empirical.results
    ("empirical.results --bundle {missing}", "bundle: missing"),
    ("empirical.results --bundle {file} --json", "bundle: a file, --json"),
    ("empirical.results --bundle {folder}", "bundle: folder without a bundle"),
    ("empirical.results --bundle ''", "bundle: empty"),
    # benchmarks
    (f"{TINY_LM} --steps 0", "count: zero"),
    (f"{TINY_LM} --steps 2.5", "count: fractional"),
    (f"{TINY_LM} --steps ''", "count: empty"),
    (f"{TINY_LM} --seq-len {HUGE}", "length: huge"),
    (f"{TINY_LM} --threads nan", "threads: nan"),
    (f"{TINY_LM} --rpes nosuch", "RPE: unknown name, before the run"),
    (f"{TINY_LM} --json /missing/dir/x.json", "--json: missing parent folder"),
    (f"{TINY_LM} --json {{folder}}", "--json: a folder"),
    (f"{GAUSS} --mc-work 0", "count: zero"),
    (f"{GAUSS} --mc-work 1e9", "count: not an integer"),
    (f"{GAUSS} --mc-work {HUGE}", "count: huge"),
    (f"{GAUSS} --json /missing/dir/x.json", "--json: missing parent folder"),
    (f"{GAUSS} --json ''", "--json: empty"),
]

# (command line, what is wrong); "~" prefix: needs a user that cannot write into a read-only folder, "^"
# prefix: needs a machine without the kjv corpus; a leading "%": seconds (run with -m slow).
CASES = [
    # ---- theory.trf ------------------------------------------------------------------
    ("theory.trf --rpe kerple", "misspelt named RPE"),
    ("theory.trf --rpe alibbi --json", "misspelt named RPE, --json"),
    ("theory.trf", "no series"),
    ("theory.trf --rpe 1/n**2 --bias 1", "two sources"),
    ("theory.trf --rpe ''", "empty formula"),
    ("theory.trf --rpe 'exp('", "syntax error"),
    ("theory.trf --rpe \"__import__('os').system('true')\"", "code instead of a formula"),
    ("theory.trf --rpe 'n.__class__'", "attribute access"),
    ("theory.trf --rpe 1/n**2 --eps 0", "eps = 0"),
    ("theory.trf --rpe 1/n**2 --eps 1", "eps = 1"),
    ("theory.trf --rpe 1/n**2 --eps -0.1", "negative eps"),
    ("theory.trf --rpe 1/n**2 --eps nan", "eps nan"),
    ("theory.trf --rpe 1/n**2 --eps abc", "eps not a number"),
    ("theory.trf --rpe 1/n**2 --eps 2 --json", "bad eps, --json"),
    ("theory.trf --rpe 1/n**2 --truncate 0", "--truncate 0"),
    ("theory.trf --rpe 1/n**2 --truncate -5", "negative --truncate"),
    ("theory.trf --rpe 1/n**2 --truncate 1e3", "--truncate not an integer"),
    ("theory.trf --rpe 1/n**2 --truncate 99999999999999999999", "huge --truncate"),
    ("theory.trf --rpe 1/n**2 --start -1", "negative start"),
    ("theory.trf --rpe 1/n**2 --start abc", "start not an integer"),
    ("theory.trf --rpe 1/n**2 --param r", "--param without value"),
    ("theory.trf --rpe '(1+k*n)**(-r)' --param r=abc", "--param value not a number"),
    ("theory.trf --bias-file {empty}", "empty bias file"),
    ("theory.trf --bias-file {binary}", "binary bias file"),
    ("theory.trf --bias-file {unicode}", "unicode name, text garbage"),
    ("theory.trf --bias-file {missing}", "missing bias file"),
    ("theory.trf --bias-file {folder}", "bias file is a folder"),
    ("theory.trf --bias-file {file} --bias-tail nonsense", "unknown tail"),
    ("theory.trf --rpe t5 --bucket-values=abc,def", "bucket values not numbers"),
    ("theory.trf --rpe 1/n**2 --plot /missing/dir/x.png", "--plot folder missing"),
    ("theory.trf --rpe 1/n**2 --plot {file}/x.png", "--plot under a file"),
    ("theory.trf --rpe 1/n**2 --plot {folder}", "--plot is a folder"),
    ("theory.trf --rpe 1/n**2 --plot ''", "--plot empty"),
    ("theory.trf --rpe 1/n**2 --plot /sys/x.png", "--plot unwritable"),
    ("~theory.trf --rpe 1/n**2 --plot {readonly}/x.png", "--plot in a read-only folder"),
    ("theory.trf --rpe 1/n**2 --compare 'exp('", "bad --compare"),
    ("theory.trf --rpe 1/n**2 --compare '(1+k*n)**(-r)'", "--compare with free parameters"),
    ("theory.trf --rpe 'ünïcödé'", "unicode formula"),
    ("theory.trf --rpe 1/n**2 --frobnicate", "unknown option"),
    # ---- theory.temperature -----------------------------------------------------------
    ("theory.temperature", "nothing to do"),
    ("theory.temperature --L-tr 512", "--L-ex missing"),
    ("theory.temperature --L-tr abc --L-ex 10", "length not a number"),
    ("theory.temperature --L-tr 512 --L-ex inf", "infinite length"),
    ("theory.temperature --L-tr 512 --L-ex 1e400 --json", "overflowing length, --json"),
    ("theory.temperature --L-tr 512 --L-ex 1000 --pmax-tr 1.5", "pmax > 1"),
    ("theory.temperature --L-tr 512 --L-ex 1000 --pmax-tr 0", "pmax = 0"),
    ("theory.temperature --L-tr 512 --L-ex 1000 --sigma-tr -1", "negative sigma"),
    ("theory.temperature --L-tr 512 --L-ex 1000 --sigma-ex nan", "sigma nan"),
    ("theory.temperature --L-tr 512 --L-ex 1000 --d 0", "--d 0"),
    ("theory.temperature --L-tr 512 --L-ex 1000 --d -3", "negative --d"),
    ("theory.temperature --derivation prop3", "unknown derivation"),
    ("theory.temperature --truth", "--truth without --L"),
    ("theory.temperature --truth --L 0 --sigma 1", "--L 0"),
    ("theory.temperature --truth --L -100 --sigma 1", "negative --L"),
    ("theory.temperature --truth --L 1e9 --sigma 1", "--L not an integer"),
    ("theory.temperature --truth --L 99999999999999999999 --sigma 1", "huge --L"),
    ("theory.temperature --truth --L 100 --sigma 0", "sigma 0"),
    ("theory.temperature --truth --L 100 --sigma 1 --tau 0", "tau 0"),
    ("theory.temperature --truth --L 100 --sigma 1 --draws -1", "negative draws"),
    ("theory.temperature --truth --L 1000 --sigma 1 --draws 1000000000", "huge draws"),
    ("theory.temperature --truth --L 100 --sigma 1 --seed abc --json", "bad seed, --json"),
    # ---- theory.infoscale ------------------------------------------------------------
    ("theory.infoscale", "nothing to do"),
    ("theory.infoscale --d 3 --n-tr 64 --n 128", "--d below 4"),
    ("theory.infoscale --d abc --n-tr 64 --n 128", "--d not an integer"),
    ("theory.infoscale --d 99999999999 --n-tr 64 --n 128", "huge --d"),
    ("theory.infoscale --d 128 --n-tr 1 --n 128", "n_tr = 1"),
    ("theory.infoscale --d 128 --n-tr 64 --n 0", "n = 0"),
    ("theory.infoscale --d 128 --n-tr 64 --n -5", "negative n"),
    ("theory.infoscale --d 128 --n-tr 64 --n nan", "n nan"),
    ("theory.infoscale --d 128 --n-tr 64 --n 128 --eps inf", "eps inf"),
    ("theory.infoscale --d 128 --n-tr 64 --n 128 --alpha-tr 0", "alpha 0"),
    ("theory.infoscale --d 128 --n-tr 64 --n 128 --alpha-tr 1e5 --json", "alpha huge, --json"),
    ("theory.infoscale --d 128 --n-tr 64 --n 128 --method foo", "unknown method"),
    # ---- theory.cosscale -------------------------------------------------------------
    ("theory.cosscale", "nothing"),
    ("theory.cosscale --d 128", "--alpha missing"),
    ("theory.cosscale --d 2 --alpha 8", "--d below 3"),
    ("theory.cosscale --d 128 --alpha 0", "alpha 0"),
    ("theory.cosscale --d 128 --alpha -1", "negative alpha"),
    ("theory.cosscale --d 128 --alpha nan --json", "alpha nan, --json"),
    ("theory.cosscale --d 128 --alpha inf", "alpha inf"),
    ("theory.cosscale --d 128 --alpha abc", "alpha not a number"),
    ("theory.cosscale --d 128 --alpha 1e308", "alpha overflows"),
    ("theory.cosscale --d 99999999999 --alpha 8", "huge --d"),
    # ---- figures, paper_checks ---------------------------------------------------------
    ("figures nonexistent-figure", "unknown figure"),
    ("figures rpe-fig5 --quick --out {file}", "--out is a file"),
    ("figures rpe-fig5 --quick --out {file}/sub", "--out under a file"),
    ("figures rpe-fig5 --quick --out /sys/figs", "--out unwritable"),
    ("figures rpe-fig5 --quick --out ''", "--out empty"),
    ("figures rpe-fig5 --quick --json --out {file}", "--out is a file, --json"),
    ("~figures rpe-fig5 --quick --out {readonly}/figs", "--out in a read-only folder"),
    ("paper_checks --id no-such-claim", "unknown claim"),
    ("paper_checks --id no-such-claim --json", "unknown claim, --json"),
    ("paper_checks --paper nonsense", "unknown paper"),
    ("paper_checks --id rpe-thm3.4 --out {file}", "--out is a file"),
    ("paper_checks --id rpe-thm3.4 --out {file}/report", "--out under a file"),
    ("paper_checks --id rpe-thm3.4 --out /sys/report", "--out unwritable"),
    ("~paper_checks --id rpe-thm3.4 --out {readonly}/report", "--out in a read-only folder"),
    # ---- empirical.train ---------------------------------------------------------------
    ("@TRAIN --out new --ckpt-every 0", "--ckpt-every 0"),
    ("@TRAIN --out new --steps 0", "--steps 0"),
    ("@TRAIN --out new --steps -3", "negative steps"),
    ("@TRAIN --out new --batch 0", "--batch 0"),
    ("@TRAIN --out new --seq-len 1", "--seq-len 1"),
    ("@TRAIN --out new --seq-len 99999999999", "huge --seq-len"),
    ("@TRAIN --out new --threads 0", "--threads 0"),
    ("@TRAIN --out new --threads -1", "negative threads"),
    ("@TRAIN --out new --max-chars 0", "--max-chars 0"),
    ("@TRAIN --out new --max-chars 50", "seq-len longer than the text"),
    ("@TRAIN --out new --n-head 0", "--n-head 0"),
    ("@TRAIN --out new --d-model 0", "--d-model 0"),
    ("@TRAIN --out new --d-model 30 --n-head 4", "d_model not a multiple of n_head"),
    ("@TRAIN --out new --lr nan", "lr nan"),
    ("@TRAIN --out new --lr -1", "negative lr"),
    ("@TRAIN --out new --warmup -1", "negative warmup"),
    ("@TRAIN --out new --eval-every -1", "negative eval-every"),
    ("@TRAIN --out new --stop-at 0", "--stop-at 0"),
    ("@TRAIN --out new --seed -1", "negative seed"),
    ("@TRAIN --out new --corpus nonexistent", "unknown corpus"),
    ("@TRAIN --out new --corpus nonexistent --json", "unknown corpus, --json"),
    ("^@TRAIN --out new --corpus kjv", "corpus whose program is not installed"),
    ("@TRAIN --out 'new run' --rpe 'exp('", "bad formula, folder with a space"),
    ("@TRAIN --out new --rpe '(1+k*n)**(-r)'", "formula with free parameters"),
    ("@TRAIN --out new --rpe kerple", "misspelt named RPE"),
    ("@TRAIN", "--out missing"),
    ("@TRAIN --out {file}", "--out is a file"),
    ("@TRAIN --out {file}/run", "--out under a file"),
    ("@TRAIN --out ''", "--out empty"),
    ("@TRAIN --out /sys/run", "--out unwritable"),
    ("~@TRAIN --out {readonly}/run", "--out in a read-only folder"),
    # ---- empirical.extrapolate --------------------------------------------------------
    (
        "empirical.extrapolate {run} --lengths 100000 --eval-tokens 1000",
        "length > eval tokens",
    ),
    (
        "empirical.extrapolate {run} --lengths 100000 --eval-tokens 1000 --json",
        "same, --json",
    ),
    ("empirical.extrapolate {run} --lengths 99999 --json", "length beyond the test split"),
    ("empirical.extrapolate {run} --lengths 0", "length 0"),
    ("empirical.extrapolate {run} --lengths -16", "negative length"),
    ("empirical.extrapolate {run} --lengths 1", "length 1"),
    ("empirical.extrapolate {run} --lengths 16 --eval-tokens 0", "--eval-tokens 0"),
    ("empirical.extrapolate {run} --lengths 16 --sliding -1", "negative sliding"),
    ("empirical.extrapolate {run} --lengths 16 --sliding 32", "sliding > length"),
    ("empirical.extrapolate {run} --lengths 16 --threads 0", "--threads 0"),
    ("empirical.extrapolate {missing}", "missing run"),
    ("empirical.extrapolate {folder}", "folder that is not a run"),
    ("empirical.extrapolate {file}", "file instead of a run"),
    ("empirical.extrapolate {corrupt}", "corrupt run"),
    ("empirical.extrapolate {run} --lengths 16 --csv {file}/x.csv", "--csv under a file"),
    ("empirical.extrapolate {run} --lengths 16 --csv {folder}", "--csv is a folder"),
    (
        "empirical.extrapolate {run} --lengths 16 --plot /missing/dir/x.png",
        "--plot folder missing",
    ),
    ("empirical.extrapolate {run} --lengths 16 --plot /sys/x.png", "--plot unwritable"),
    (
        "~empirical.extrapolate {run} --lengths 16 --plot {readonly}/x.png",
        "--plot read-only",
    ),
    # ---- empirical.erf -----------------------------------------------------------------
    ("empirical.erf {run} --plot /missing/dir/erf.png", "--plot folder missing"),
    ("empirical.erf {run} --plot {file}/erf.png", "--plot under a file"),
    ("empirical.erf {run} --plot /sys/erf.png --json", "--plot unwritable, --json"),
    ("empirical.erf {run} --length 0", "length 0"),
    ("empirical.erf {run} --length 1", "length 1"),
    ("empirical.erf {run} --length 999999", "length beyond the test split"),
    ("empirical.erf {run} --chunks 0", "--chunks 0"),
    ("empirical.erf {run} --eps 0", "eps 0"),
    ("empirical.erf {run} --eps 2", "eps > 1"),
    ("empirical.erf {run} --eps nan", "eps nan"),
    ("empirical.erf {run} --threads 0", "--threads 0"),
    ("empirical.erf {missing}", "missing run"),
    ("empirical.erf {folder}", "folder that is not a run"),
    ("empirical.erf {corrupt} --json", "corrupt run, --json"),
    # ---- empirical.bundle -----------------------------------------------------------------------
    ("empirical.bundle --out b", "--profile missing"),
    ("@BUNDLE --out b --workers 0", "--workers 0"),
    ("@BUNDLE --out b --models kerple", "misspelt model"),
    ("@BUNDLE --out b --models t5 nosuch --json", "unknown model, --json"),
    ("@BUNDLE --out ''", "--out empty"),
    ("@BUNDLE --out {file}", "--out is a file"),
    ("@BUNDLE --out {file}/b", "--out under a file"),
    ("@BUNDLE --out /sys/b", "--out unwritable"),
    # ---- empirical.align ---------------------------------------------------------------
    ("@ALIGN --model t5-config:tiny,num_heads=abc", "config value not a number"),
    ("@ALIGN --model t5-config:tiny,num_heads=abc --json", "same, --json"),
    ("@ALIGN --model t5-config:tiny,num_heads", "override without value"),
    ("@ALIGN --model t5-config:nonexistent", "unknown preset"),
    ("@ALIGN --model nonexistent-model", "unknown model"),
    ("@ALIGN --model {folder}", "folder without a model"),
    ("@ALIGN --model {file}", "file instead of a model"),
    ("%@ALIGN --model t5-config:tiny,no_such_key=3", "unknown config key"),
    ("%@ALIGN --model {model_no_tokenizer}", "model folder without tokenizer"),
    ("@ALIGN --device-map cuda:0", "CUDA device on a machine without CUDA"),
    ("@ALIGN --device-map '{{bad json'", "device map not JSON"),
    ("@ALIGN --n-tr 0", "--n-tr 0"),
    ("@ALIGN --n-tr -1", "--n-tr -1"),
    ("@ALIGN --n-ex 0", "--n-ex 0"),
    ("@ALIGN --L-tr 0", "--L-tr 0"),
    ("@ALIGN --L-tr 64 --L-ex 32", "L_ex < L_tr"),
    ("@ALIGN --L-ex 99999999999", "huge --L-ex"),
    ("%@ALIGN --L-ex 1000000000", "--L-ex longer than the text"),
    ("@ALIGN --lo 0", "--lo 0"),
    ("@ALIGN --lo 0.5 --hi 0.1", "lo > hi"),
    ("@ALIGN --tol 0", "--tol 0"),
    ("@ALIGN --tol nan", "--tol nan"),
    ("@ALIGN --threads 0", "--threads 0"),
    ("@ALIGN --mode foo", "unknown mode"),
    ("@ALIGN --corpus nonexistent", "unknown corpus"),
    ("%@ALIGN --layers no.such.layer --json", "unknown layer, --json"),
    # ---- empirical.assumptions ---------------------------------------------------------
    ("@ASSUME --n-ex 0", "--n-ex 0"),
    ("@ASSUME --n-tr 0", "--n-tr 0"),
    ("@ASSUME --threads 0", "--threads 0"),
    ("@ASSUME --out {file}", "--out is a file"),
    ("@ASSUME --out {file}/sub --json", "--out under a file, --json"),
    ("@ASSUME --out /sys/assumptions", "--out unwritable"),
    ("~@ASSUME --out {readonly}/a", "--out in a read-only folder"),
    ("@ASSUME --model nonexistent-model --out a", "unknown model"),
    ("@ASSUME --layers no.such.layer --out a", "unknown layer"),
    ("@ASSUME --L-tr 64 --L-ex 32 --out a", "L_ex < L_tr"),
    # ---- empirical.collect -------------------------------------------------------------
    ("@COLLECT --length 1", "--length 1"),
    ("@COLLECT --length 0", "--length 0"),
    ("@COLLECT --n-seq 0", "--n-seq 0"),
    ("@COLLECT --n-seq -1", "negative --n-seq"),
    ("@COLLECT --tau 0", "tau 0"),
    ("@COLLECT --tau nan", "tau nan"),
    ("@COLLECT --threads 0", "--threads 0"),
    ("@COLLECT --out {file}/x.json", "--out under a file"),
    ("@COLLECT --out {folder}", "--out is a folder"),
    ("@COLLECT --out /sys/x.json --json", "--out unwritable, --json"),
    ("@COLLECT --model nonexistent-model", "unknown model"),
    ("%@COLLECT --length 1000000000", "--length longer than the text"),
    *BY_CLASS,
]


MACROS = {
    "@TRAIN": TRAIN,
    "@BUNDLE": BUNDLE,
    "@ALIGN": ALIGN,
    "@ASSUME": ASSUME,
    "@COLLECT": COLLECT,
}


def expand(line: str) -> str:
    """The case's command line with the macros (``@TRAIN`` ...) written out."""
    for k, v in MACROS.items():
        line = line.replace(k, v)
    return line


def _case_params():
    params = []
    for k, (line, why) in enumerate(CASES):
        line = expand(line)
        marks, slow = [], line.startswith("%")
        line = line.lstrip("%")
        if line.startswith("^"):
            line = line[1:]
            marks.append(
                pytest.mark.skipif(
                    shutil.which("bible") is not None, reason="the kjv corpus is installed here"
                )
            )
        if line.startswith("~"):
            line = line[1:]
            marks.append(pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere"))
        cmd = line.split(" ", 1)[0]
        if cmd.startswith("empirical.") or cmd == "benchmarks.bench_tiny_lm":
            marks.append(pytest.mark.empirical)
        if slow:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(line, id=f"{k:03d}-{cmd}-{why}", marks=marks))
    return params


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """Bad files and folders, a read-only folder and (with torch) a tiny trained run."""
    ws = tmp_path_factory.mktemp("bad inputs")
    files = {
        "empty": ws / "empty.npy",
        "binary": ws / "binary.npy",
        "file": ws / "file.txt",
        "unicode": ws / "ünï cödé.txt",
        "missing": ws / "no such file.npy",
        "folder": ws / "a folder",
        "readonly": ws / "read only",
        "corrupt": ws / "corrupt run",
        "model_no_tokenizer": ws / "no tokenizer",
        "utf16": ws / "utf16.txt",
        "latin1": ws / "latin1.txt",
        "utf16_jsonl": ws / "utf16.jsonl",
    }
    files["empty"].write_bytes(b"")
    files["binary"].write_bytes(bytes(range(256)) * 4)
    files["file"].write_text("just text\n")
    files["unicode"].write_text("∞ ∑ ü ☃\n", encoding="utf-8")
    files["utf16"].write_text("plain text, but in UTF-16\n" * 200, encoding="utf-16")
    files["latin1"].write_text("café crème, en Latin-1\n" * 200, encoding="latin-1")
    files["utf16_jsonl"].write_text('{"text": "x"}\n' * 50, encoding="utf-16")
    for d in ("folder", "readonly", "corrupt", "model_no_tokenizer"):
        files[d].mkdir()
    (files["corrupt"] / "config.json").write_text("{")
    (files["corrupt"] / "ckpt.pt").write_bytes(b"\x00garbage")
    files["readonly"].chmod(0o555)
    if HAS_TORCH:  # a complete model folder, only the tokenizer missing
        import transformers

        cfg = transformers.T5Config(
            d_model=16, d_kv=4, num_heads=4, d_ff=32, num_layers=1, vocab_size=300
        )
        transformers.T5EncoderModel(cfg).save_pretrained(files["model_no_tokenizer"])
        files["run"] = ws / "tiny run"
        code, _, err = call(
            "empirical.train", shlex.split(TINY) + ["--out", str(files["run"]), "--quiet"]
        )
        assert code == 0, err
    cwd = ws / "work dir"
    cwd.mkdir()
    yield {"root": ws, "cwd": cwd, "paths": {k: str(v) for k, v in files.items()}}
    files["readonly"].chmod(0o755)


def call(cmd: str, argv: list) -> tuple:
    """(exit status, stdout, stderr) of ``python -m cmd *argv``, run in this process."""
    main = importlib.import_module(MODULES[cmd]).main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def snapshot(root: Path) -> set:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def assert_fails_well(code, out, err, argv, expect=2):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error:")]
    assert "Traceback" not in err, err
    assert code == expect, f"exit {code}, stderr: {err[-2000:]}"
    assert len(errors) == 1 and lines[-1] == errors[0], f"stderr: {err[-2000:]}"
    if "--json" in argv:
        assert out == "", f"stdout in --json mode: {out[:500]}"


@pytest.mark.parametrize("line", _case_params())
def test_bad_input(line, workspace, monkeypatch):
    cmd, *argv = shlex.split(line)
    argv = [a.format(**workspace["paths"]) for a in argv]
    monkeypatch.chdir(workspace["cwd"])
    monkeypatch.setenv("LENGTHX_PROGRESS_SECONDS", "0.2")
    before = snapshot(workspace["root"])
    code, out, err = call(cmd, argv)
    assert_fails_well(code, out, err, argv)
    left = snapshot(workspace["root"]) - before
    assert not left, f"left behind: {sorted(left)}"


# (command line, what the error line must contain, what it must not)
MESSAGES = [
    ("theory.temperature --L-tr 512.5 --L-ex 1000", ["--L-tr", "512.5"], []),
    ("theory.infoscale --d 128 --n-tr 64 --n 4096.5", ["--n", "4096.5"], []),
    (
        f"{TEMP} --sigma-tr 1e300 --sigma-ex 1e300 --pmax-tr 0.5",
        ["too large", "--sigma-tr 1e300"],
        [],
    ),
    (f"{INFO} --eps 1e300", ["too large", "--eps 1e300"], []),
    (
        "theory.trf --rpe 1/n**2 --eps 0.99999999999999999999999",
        ["--eps", "0.99999999999999999999999", "rounds to 1.0 as a double"],
        [],
    ),
    ("theory.trf --rpe 1/n**2 --eps 1e-400", ["--eps", "1e-400", "rounds to 0.0"], []),
    ("@BUNDLE --out b --models nosuch", ["--models nosuch", "known:"], []),
    ("@BUNDLE --out b --models kerple", ["--models kerple", "kerple_log"], []),
    ("@TRAIN --out new --rpe nosuch", ["--rpe nosuch"], ["--free", "--param"]),
    ("@COLLECT --corpus {utf16}", ["utf16.txt", "UTF-16"], []),
    ("@COLLECT --corpus {latin1}", ["latin1.txt", "Latin-1"], []),
    (f"{AUDIT} --text {{utf16}}", ["utf16.txt", "UTF-16"], []),
    (f"{TINY_LM} --json /missing/dir/x.json", ["--json", "/missing/dir"], []),
    ("@COLLECT --out /missing/dir/stats.json", ["--out", "/missing/dir"], []),
]


@pytest.mark.empirical
@pytest.mark.parametrize("line, wanted, unwanted", MESSAGES, ids=[m[0] for m in MESSAGES])
def test_message_names_the_input(line, wanted, unwanted, workspace, monkeypatch):
    """The error line names the flag and the value (or the file and the encoding found),
    and suggests only what the command has."""
    cmd, *argv = shlex.split(expand(line))
    argv = [a.format(**workspace["paths"]) for a in argv]
    monkeypatch.chdir(workspace["cwd"])
    code, out, err = call(cmd, argv)
    assert_fails_well(code, out, err, argv)
    last = err.splitlines()[-1]
    assert all(w in last for w in wanted), last
    assert not any(u in last for u in unwanted), last


def test_every_command_has_cases_and_the_entry_point():
    covered = {p.values[0].split(" ", 1)[0] for p in _case_params()}
    assert covered == set(MODULES)
    assert len(CASES) >= 150
    for cmd, module in MODULES.items():
        if cmd.startswith("empirical.") and not HAS_TORCH:
            continue
        main = importlib.import_module(module).main
        assert hasattr(main, "__wrapped__"), f"{cmd}: main does not use theory.core.cli.command"


# ---- subprocesses: a closed pipe and Ctrl-C ------------------------------------------
PIPED = [
    ("theory.trf --rpe type1", False),
    ("theory.temperature --L-tr 512 --L-ex 15000", False),
    ("theory.infoscale --d 128 --n-tr 64 --n 4096", False),
    ("theory.cosscale --d 128 --alpha 8 32", False),
    ("paper_checks --list", False),
    ("figures --list", False),
    ("theory.infoscale --derivation --quick", True),
    ("empirical.train --help", True),
    ("empirical.align --help", True),
    ("empirical.extrapolate --help", True),
    ("empirical.erf --help", True),
    ("empirical.assumptions --help", True),
    ("empirical.collect --help", True),
    ("empirical.bundle --help", True),
]


def _env():
    return {
        **os.environ,
        "OMP_NUM_THREADS": "1",
        "PYTHONPATH": str(ROOT),
        "LENGTHX_PROGRESS_SECONDS": "0.2",
    }


@pytest.mark.parametrize(
    "line", [pytest.param(c, marks=[pytest.mark.slow] if slow else []) for c, slow in PIPED]
)
def test_closed_pipe_no_traceback(line):
    """``python -m CMD | head -0``: the reader is gone before anything is written."""
    r, w = os.pipe()
    os.close(r)
    try:
        res = subprocess.run(
            [sys.executable, "-m", *shlex.split(line)],
            stdout=w,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=_env(),
            preexec_fn=cpu_limit(300),
            timeout=300 * HANG_FACTOR,
        )
    finally:
        os.close(w)
    err = res.stderr.decode()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert res.returncode in (0, 141), err  # 141 = 128 + SIGPIPE, what a shell reports
    assert not [ln for ln in err.splitlines() if ln.startswith("error:")], err


def test_head_one_no_traceback():
    """The literal ``python -m theory.trf --rpe type1 | head -1``."""
    res = subprocess.run(
        f"{shlex.quote(sys.executable)} -m theory.trf --rpe type1 | head -1",
        shell=True,
        capture_output=True,
        cwd=ROOT,
        env=_env(),
        preexec_fn=cpu_limit(120),
        timeout=120 * HANG_FACTOR,
    )
    assert res.stdout.decode().startswith("series:")
    assert res.stderr.decode() == "", res.stderr.decode()
    assert "Traceback" not in res.stderr.decode(), res.stderr.decode()


@pytest.mark.slow
def test_ctrl_c_exits_130_with_one_line(tmp_path):
    """Ctrl-C in the middle of a long run: progress lines, then one ``error:`` line."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "theory.temperature",
            "--truth",
            "--L",
            "3000000",
            "--sigma",
            "2.7",
            "--draws",
            "2000",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=_env(),
        preexec_fn=cpu_limit(300),
    )
    first = proc.stderr.readline()  # the first progress line: main() is running
    assert first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300 * HANG_FACTOR)
    err = first.decode() + err.decode()
    assert proc.returncode == 130, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert lines[-1] == "error: interrupted" and "Traceback" not in err, err
    assert out == b""


@pytest.mark.parametrize(
    "cmd, argv",
    [
        ("empirical.train", ["--out", "x"]),  # at import
        ("empirical.align", []),
    ],
)  # in main()
def test_missing_optional_package_is_one_line(cmd, argv, tmp_path):
    """``python -m empirical.X`` on a machine without torch (simulated: importing torch
    fails): one ``error:`` line naming the package, exit 2."""
    code = (
        f"import runpy, sys; sys.modules['torch'] = None; sys.argv = ['-m', *{argv!r}]; "
        f"runpy.run_module({cmd!r}, run_name='__main__', alter_sys=True)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path,
                         env=_env(), preexec_fn=cpu_limit(120), timeout=120 * HANG_FACTOR)  # fmt: skip
    err = res.stderr.decode()
    assert not any(tmp_path.iterdir())
    assert res.returncode == 2 and err.splitlines() == [
        "error: needs the optional package torch (pip install -e '.[empirical]')"
    ], err
