"""Capture of attention statistics inside real models, in the attention pass.

* :mod:`~empirical.capture.session`: the hook into a model's attention interface, routing each
  call to the fused kernel, the tiled causal path or the blocked path;
* :mod:`~empirical.capture.fused_kernel`: the fused Triton forward that also returns row sums;
* :mod:`~empirical.capture.stats`: streaming, mergeable statistics of attention rows;
* :mod:`~empirical.capture.models`, :mod:`~empirical.capture.checkpoints`: models by
  specification, loaded locally; tiny checkpoints of every supported family;
* :mod:`~empirical.capture.devices`, :mod:`~empirical.capture.measure`,
  :mod:`~empirical.capture.collect`: devices and dtypes, one model over sequences, many
  sequences on one process or many (the command ``python -m empirical.collect`` is
  :mod:`empirical.collect`);
* :mod:`~empirical.capture.sweep`: capture against eager attention on every text
  architecture (``python -m empirical.capture.sweep``).
"""
