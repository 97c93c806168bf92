"""The hsu_2014 notebook's own code."""
