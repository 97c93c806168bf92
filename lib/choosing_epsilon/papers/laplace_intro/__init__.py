"""The laplace_intro notebook's own code."""
