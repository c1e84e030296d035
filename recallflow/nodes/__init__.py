"""Hamilton node modules, one module per stage of the read path."""
