"""The kazan_reiter_2024 notebook's own code."""
