"""The mugunthan_poster notebook's own code."""
