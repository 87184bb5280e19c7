"""Claims of the InfoScale/CosScale paper: ``claims`` and the paper's tables (``tables``)."""
