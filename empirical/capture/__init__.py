"""Capture of attention statistics inside real models, in the attention pass.

* :mod:`~empirical.capture.session`: ``capture(model, ...)``, the context that routes every
  attention module of a model through :func:`~empirical.capture.attention.attend`
  (:mod:`~empirical.capture.state`: its configuration and state), which sends each call
  to the fused kernel (:mod:`~empirical.capture.fused_path`), the tiled causal path
  (:mod:`~empirical.capture.tiled_causal`) or the blocked path
  (:mod:`~empirical.capture.blocked`); the routes in: transformers' attention interface
  (:mod:`~empirical.capture.hf_interface`), swapped ``softmax`` and sdpa
  (:mod:`~empirical.capture.patches`, :mod:`~empirical.capture.materialised`,
  :mod:`~empirical.capture.routing`), forward hooks (:mod:`~empirical.capture.hooks`), one
  process-wide :mod:`~empirical.capture.registry`;
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
