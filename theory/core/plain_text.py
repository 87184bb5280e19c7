"""Sphinx and LaTeX markup turned into plain text, for ``--help`` and terminal output.

Command descriptions are taken from module docstrings, which are written for Sphinx:
``:math:`...```, ``.. math::`` blocks, double back-quotes and roles such as ``:mod:``.
:func:`plain_text` rewrites them as a reader of a terminal would write them:

* ``:math:`b_n = \\exp(x)``` -> ``b_n = exp(x)`` (LaTeX commands by :func:`plain_math`);
* a ``.. math::`` block -> its formula lines, indented by four spaces;
* a role ``:mod:`a.b```, ``:func:`~a.b``` -> ``a.b``, ``b``;
* a literal written with double back-quotes -> its text; ``**bold**`` -> ``bold``.

>>> plain_text(r"For :math:`\\sum_{n\\ge s} b_n` see :mod:`theory.series` and ``--eps``.")
'For sum_{n>=s} b_n see theory.series and --eps.'
>>> plain_text('**note**: try "(1 + k*n)**(-r)" or n**2')
'note: try "(1 + k*n)**(-r)" or n**2'
>>> print(plain_text(".. math::\\n\\n    \\\\frac{1}{n + 1}\\n\\nnext"))
    1/(n + 1)
<BLANKLINE>
next
"""

from __future__ import annotations

import re

#: LaTeX commands written as plain words or symbols (the rest lose their backslash)
_SYMBOLS = {
    "ge": ">=",
    "geq": ">=",
    "le": "<=",
    "leq": "<=",
    "ne": "!=",
    "neq": "!=",
    "to": "->",
    "rightarrow": "->",
    "mapsto": "->",
    "infty": "inf",
    "cdot": "*",
    "times": "x",
    "approx": "~",
    "sim": "~",
    "mid": "|",
    "in": "in",
    "ldots": "...",
    "dots": "...",
    "cdots": "...",
    "qquad": "    ",
    "quad": "  ",
    "epsilon": "eps",
    "varepsilon": "eps",
    "langle": "<",
    "rangle": ">",
    "lfloor": "floor(",
    "rfloor": ")",
    "lceil": "ceil(",
    "rceil": ")",
    "pm": "+-",
}
#: sizing and spacing commands that disappear
_DROP = {"left", "right", "big", "Big", "bigg", "Bigg", "displaystyle", "limits", "nolimits"}
#: commands whose braced argument is kept as it is
_TEXT = r"mathrm|text|textrm|operatorname|mathbf|mathit|mathcal|mathsf|boldsymbol|mathbb"


def _innermost(pattern: str, repl, text: str) -> str:
    """Apply a regex whose braced groups contain no braces, until nothing changes."""
    while True:
        new = re.sub(pattern, repl, text)
        if new == text:
            return text
        text = new


def _fraction(m: re.Match) -> str:
    """``\\frac{a}{b}`` -> ``a/b``, with parentheses around a compound part."""

    def part(t: str) -> str:
        t = t.strip()
        return f"({t})" if re.search(r"[\s+\-*/]", t) else t

    return f"{part(m.group(1))}/{part(m.group(2))}"


def plain_math(tex: str) -> str:
    r"""A LaTeX formula written as plain text.

    >>> plain_math(r"\mathrm{ppl}_L = \exp\Big(-\frac{1}{|T|}\sum_{t \in T} \log p\Big)")
    'ppl_L = exp(-1/|T| sum_{t in T} log p)'
    >>> plain_math(r"n_{\mathrm{emp}}(\epsilon) \ge \sqrt{d}")
    'n_{emp}(eps) >= sqrt(d)'
    """
    s = tex
    s = _innermost(r"\\(?:" + _TEXT + r")\s*\{([^{}]*)\}", r"\1", s)
    s = _innermost(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", _fraction, s)
    s = _innermost(r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)", s)
    s = s.replace("\\{", "\x00").replace("\\}", "\x01")  # set braces survive _ungroup
    s = re.sub(r"\\([|%#&_$])", r"\1", s)
    s = re.sub(r"\\[,;:!> ]", " ", s)
    s = s.replace("\\\\", " ")

    def command(m: re.Match) -> str:
        name = m.group(1)
        if name in _DROP:
            return ""
        word = _SYMBOLS.get(name, name)
        before = m.string[m.start() - 1] if m.start() else " "
        space = " " if word[:1].isalpha() and not (before.isspace() or before in "([{_^-") else ""
        spaced = word[-1:].isalpha() or before == " "
        after = " " if m.group(0)[-1] == " " and spaced else ""
        return space + word + after

    s = re.sub(r"\\([A-Za-z]+)\s?", command, s)
    s = _ungroup(s).replace("\x00", "{").replace("\x01", "}")
    return re.sub(r"[ \t]+", " ", s).strip()


def _ungroup(s: str) -> str:
    """Drop grouping braces, keeping those of a sub- or superscript (``b_{n+1}``)."""
    out, kept = [], []
    for i, ch in enumerate(s):
        if ch == "{":
            keep = i > 0 and s[i - 1] in "_^"
            kept.append(keep)
            if keep:
                out.append(ch)
        elif ch == "}":
            if kept.pop() if kept else True:
                out.append(ch)
        else:
            out.append(ch)
    return "".join(out)


_ROLE = re.compile(r":(?:[a-z]+:)?([a-z]+):`(~?)([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``", re.S)
#: ``**bold**`` set off by spaces; ``n**2`` and ``(1 + n)**(-r)`` are exponents, kept
_BOLD = re.compile(r"(?<![\w*)\]])\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*(?![\w*(\[])", re.S)


def _role(m: re.Match) -> str:
    role, tilde, body = m.group(1), m.group(2), m.group(3)
    if role == "math":
        return plain_math(body)
    body = re.sub(r"\s*<[^>]*>$", "", body)  # :ref:`text <target>`
    return body.rsplit(".", 1)[-1] if tilde else body


def _math_blocks(text: str) -> str:
    """Every ``.. math::`` directive replaced by its formula lines, indented by 4."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        m = re.match(r"^(\s*)\.\. math::\s*(.*)$", lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent, body = len(m.group(1)), [m.group(2)] if m.group(2).strip() else []
        i += 1
        while i < len(lines) and (
            not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent
        ):
            body.append(lines[i])
            i += 1
        formulas = [plain_math(ln) for ln in body if ln.strip() and not ln.strip().startswith(":")]
        out += [" " * (indent + 4) + f for f in formulas if f]
        if i < len(lines):
            out.append("")
    return "\n".join(out)


def plain_text(text: str | None) -> str | None:
    """``text`` with its Sphinx/LaTeX markup written as plain text (see the module)."""
    if not text:
        return text
    s = _math_blocks(text)
    s = _ROLE.sub(_role, s)
    s = _LITERAL.sub(lambda m: m.group(1), s)
    s = _BOLD.sub(lambda m: m.group(1), s)
    return s
