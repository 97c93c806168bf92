"""The synthesis notebook's own code."""
