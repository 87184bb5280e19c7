"""InfoScale and CosScale (infoscale-cosscale paper): the InfoScale factor and its exact
entropy drift (``infoscale``), entropy of softmax on the hypersphere
(``hypersphere_entropy``), CosScale's peak eta* (``cosscale``), the Eqs. 8-15 derivation
(``derivation``) and the ``python -m theory.infoscale`` command (``cli``); the
``python -m theory.cosscale`` command is :mod:`theory.cosscale`."""
