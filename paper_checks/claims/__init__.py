"""One module per area; importing a module registers its claims."""
