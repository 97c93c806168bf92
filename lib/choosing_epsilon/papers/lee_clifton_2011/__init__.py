"""The lee_clifton_2011 notebook's own code."""
