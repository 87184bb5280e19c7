"""InfoScale and CosScale (infoscale-cosscale paper): the InfoScale factor and its exact
entropy drift (``infoscale``), entropy of softmax on the hypersphere
(``hypersphere_entropy``), CosScale's peak eta* (``cosscale``), the Eqs. 8-15 derivation
(``derivation``) and the ``python -m theory.infoscale`` / ``python -m theory.cosscale``
commands (``cli``, ``cosscale_cli``)."""
