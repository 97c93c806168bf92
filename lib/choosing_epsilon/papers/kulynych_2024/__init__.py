"""The kulynych_2024 notebook's own code."""
