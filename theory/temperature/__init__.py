"""Softmax temperature (attention-alignment paper): every temperature rule and Algorithm 1
(``rules``), exact statistics of softmax over i.i.d. Gaussian logits
(``gaussian_softmax``), Props. 1-2 as checked derivations (``derivations``), the
propositions against the exact answer (``alignment_truth``) and the
``python -m theory.temperature`` command (``cli``)."""
