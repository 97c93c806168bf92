"""Figures of each notebook, one module per source: each function takes computed data and returns
the figure with the data frame drawn in it."""
