"""The early version's display before Prop. 1 (Sec. 6.1) and what the text extraction
of our copy did to it: the LaTeX escapes ``\\b \\t \\a \\f \\r`` of a string
literal read without raw prefix were eaten or blanked.  A candidate LaTeX source is
compared with the printed display (:data:`theory.papers.align.EARLY_DISPLAY`)
after the same damage.
"""

from __future__ import annotations

#: what the extraction did to each escape (a string literal read without raw prefix)
EXTRACTION_DAMAGE = {"\\b": "", "\\t": " ", "\\a": "", "\\f": "", "\\r": "\n"}


def extraction_damage(latex: str) -> str:
    """``latex`` as the extraction would have printed it (:data:`EXTRACTION_DAMAGE`).

    >>> extraction_damage("\\\\frac{1}{\\\\tau}")
    'rac{1}{ au}'
    """
    for esc, out in EXTRACTION_DAMAGE.items():
        latex = latex.replace(esc, out)
    return latex


def early_display_source(numerator_exponent: str, lmax_label: str = "tx") -> str:
    """A candidate LaTeX source of :data:`EARLY_DISPLAY`, with the exponent of ``e`` in
    the numerator's bracket and the label of l_max after 'A. 2' as given."""
    return (
        "$$\\begin{aligned} \\mathbf{P}_{\\text{max}}^{ex} &\\approx \\frac{e^{l_{\\text{max}}^{ex}/\\tau}}"
        "{L_{ex}e^{\\sigma_{ex}^2/(2\\tau^2)}} \\overset{\\text{A. 2}}{=} "
        f"\\frac{{e^{{l_{{\\text{{max}}}}^{{{lmax_label}}}/\\tau}}}}"
        "{L_{ex}e^{\\sigma_{ex}^2/(2\\tau^2)}} \\ &\\stackrel{\\text{(2)}}{\\approx} \\frac{\\left("
        f"\\mathbf{{P}}_{{\\text{{max}}}}^{{tr}}L_{{tr}}e^{{{numerator_exponent}}}\\right)^{{1/\\tau}}}}"
        "{L_{ex}e^{\\sigma_{ex}^2/(2\\tau^2)}} \\end{aligned}$$"
    )
