"""The figure kit every notebook shares: ``style`` (the one style, and the check that a figure keeps
to it) and ``figures`` (showing and saving a figure or a table with fixed metadata). Each
notebook's own figures are in its paper's folder, ``papers/<notebook>/figures.py``."""
