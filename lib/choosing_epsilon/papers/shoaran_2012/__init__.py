"""The shoaran_2012 notebook's own code."""
